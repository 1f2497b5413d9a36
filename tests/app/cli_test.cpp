// Command-line parsing: commands, options, and errors that name the bad argument.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/cli.hpp"
#include "core/common/error.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("the three commands parse with their options", "[cli]") {
  const auto w = parse_cli({"--backend", "cpu", "--capacity", "2^20", "--frames", "3", "--font-size", "28"});
  CHECK(w.command == command_kind::window);
  CHECK(w.backend == backend_choice::cpu);
  CHECK(w.capacity == (1u << 20));
  CHECK(w.frames == 3);
  CHECK(w.font_size == 28.f);
  const auto r = parse_cli({"render", "assets/scenarios/x.scn", "--out", "figs", "--size", "1280x720"});
  CHECK(r.command == command_kind::render);
  CHECK(r.scenario == "assets/scenarios/x.scn");
  CHECK(r.width == 1280);
  CHECK(r.height == 720);
  const auto b = parse_cli({"bench", "linear", "--reps", "7", "--group", "4", "--cas-first", "off", "--statuses"});
  CHECK(b.command == command_kind::bench);
  CHECK(b.suite == "linear");
  CHECK(b.bench.reps == 7);
  CHECK(b.bench.linear.group == 4);
  CHECK(b.bench.linear.cas_first == tri::off);
  CHECK(b.bench.statuses);
  CHECK(b.bench.only.empty());
  CHECK(parse_cli({"bench", "hive", "--only", "bulk-insert,lookup-hit-ratio"}).bench.only ==
        std::vector<std::string>{"bulk-insert", "lookup-hit-ratio"});
  CHECK(parse_cli({"--help"}).command == command_kind::help);
}

TEST_CASE("render takes a paper style, a DPI and a page size in inches or centimetres", "[cli][paper]") {
  const auto r = parse_cli({"render", "x.scn", "--style", "paper", "--dpi", "600", "--size", "3.5x2.4in"});
  REQUIRE(r.style);
  CHECK(*r.style == "paper");
  CHECK(r.dpi == 600);
  CHECK(r.page_size == "3.5x2.4in");
  CHECK(r.width == 1600);  // the screen size stays
  using Catch::Matchers::ContainsSubstring;
  CHECK_THROWS_WITH(parse_cli({"render", "x.scn", "--style", "poster"}), ContainsSubstring("not paper or screen"));
  CHECK_THROWS_AS(parse_cli({"render", "x.scn", "--dpi", "5000"}), user_error);
  CHECK(parse_cli({"render", "x.scn", "--animate"}).animate_seconds == 4);
  CHECK(parse_cli({"render", "x.scn"}).animate_seconds == 0);
}

TEST_CASE("bad arguments say what is wrong", "[cli]") {
  CHECK_THROWS_WITH(parse_cli({"frobnicate"}), ContainsSubstring("unknown command 'frobnicate'"));
  CHECK_THROWS_WITH(parse_cli({"--backend", "tpu"}), ContainsSubstring("'tpu' is not gpu, cpu or auto"));
  CHECK_THROWS_WITH(parse_cli({"--capacity", "lots"}), ContainsSubstring("not a size"));
  CHECK_THROWS_WITH(parse_cli({"--frames"}), ContainsSubstring("needs a value"));
  CHECK_THROWS_WITH(parse_cli({"--frames", "-2"}), ContainsSubstring("between 1 and"));
  CHECK_THROWS_WITH(parse_cli({"render"}), ContainsSubstring("needs a scenario"));
  CHECK_THROWS_WITH(parse_cli({"bench"}), ContainsSubstring("needs a suite"));
  CHECK_THROWS_WITH(parse_cli({"bench", "linear", "--group", "3"}), ContainsSubstring("1, 4 or 8"));
  CHECK_THROWS_WITH(parse_cli({"--size", "big"}), ContainsSubstring("WIDTHxHEIGHT"));
  CHECK_THROWS_WITH(parse_cli({"--verbose"}), ContainsSubstring("unknown option '--verbose'"));
  CHECK_THROWS_AS(parse_cli({"--hash", "sha1"}), user_error);
}

TEST_CASE("usage lists every bench suite", "[cli]") {
  const std::string u = usage();
  for (const auto& s : bench::suites()) CHECK(u.find(std::string(s.name)) != std::string::npos);
}
