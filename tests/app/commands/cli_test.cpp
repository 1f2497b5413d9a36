// Command-line parsing: commands, options, and errors that name the bad argument.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/commands/bench_command.hpp"
#include "app/commands/cli.hpp"
#include "core/common/error.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("the three commands parse with their options", "[cli]") {
  const auto w =
      parse_cli({"--backend", "cpu", "--capacity", "2^20", "--frames", "3", "--font-size", "28"});
  CHECK(w.command == command_kind::window);
  CHECK(w.backend == backend_choice::cpu);
  CHECK(w.capacity == (1u << 20));
  CHECK(w.frames == 3);
  CHECK(w.font_size == 28.f);
  const auto r =
      parse_cli({"render", "assets/scenarios/x.scn", "--out", "figs", "--size", "1280x720"});
  CHECK(r.command == command_kind::render);
  CHECK(r.scenario == "assets/scenarios/x.scn");
  CHECK(r.width == 1280);
  CHECK(r.height == 720);
  const auto b = parse_cli(
      {"bench", "linear", "--reps", "7", "--group", "4", "--cas-first", "off", "--statuses"});
  CHECK(b.command == command_kind::bench);
  CHECK(b.suite == "linear");
  CHECK(b.bench.reps == 7);
  CHECK(b.bench.linear.group == 4);
  CHECK(b.bench.linear.cas_first == auto_on_off::off);
  CHECK(b.bench.statuses);
  CHECK(b.bench.only.empty());
  CHECK(parse_cli({"bench", "hive", "--only", "bulk-insert,lookup-hit-ratio"}).bench.only ==
        std::vector<std::string>{"bulk-insert", "lookup-hit-ratio"});
}

TEST_CASE("render takes a paper style, a DPI and a page size in inches or centimetres",
          "[cli][paper]") {
  const auto r =
      parse_cli({"render", "x.scn", "--style", "paper", "--dpi", "600", "--size", "3.5x2.4in"});
  REQUIRE(r.style);
  CHECK(*r.style == "paper");
  CHECK(r.dpi == 600);
  CHECK(r.page_size == "3.5x2.4in");
  CHECK(r.width == 1600);  // the screen size stays
  using Catch::Matchers::ContainsSubstring;
  CHECK_THROWS_WITH(parse_cli({"render", "x.scn", "--style", "poster"}),
                    ContainsSubstring("not paper or screen"));
  CHECK_THROWS_AS(parse_cli({"render", "x.scn", "--dpi", "5000"}), user_error);
  CHECK(parse_cli({"render", "x.scn", "--animate"}).animate_seconds == 4);
  CHECK(parse_cli({"render", "x.scn"}).animate_seconds == 0);
}

TEST_CASE("bad arguments say what is wrong, and which command's help to read", "[cli]") {
  CHECK_THROWS_WITH(parse_cli({"frobnicate"}), ContainsSubstring("unknown command 'frobnicate'"));
  CHECK_THROWS_WITH(parse_cli({"--backend", "tpu"}),
                    ContainsSubstring("--backend: 'tpu' is not gpu, cpu or auto"));
  CHECK_THROWS_WITH(parse_cli({"--capacity", "lots"}), ContainsSubstring("not a size"));
  CHECK_THROWS_WITH(parse_cli({"--frames"}), ContainsSubstring("--frames: 1 required N missing"));
  CHECK_THROWS_WITH(parse_cli({"--frames", "-2"}), ContainsSubstring("between 1 and"));
  CHECK_THROWS_WITH(parse_cli({"render"}),
                    ContainsSubstring("SCENARIO is required (see hashscope render --help)"));
  CHECK_THROWS_WITH(parse_cli({"bench"}),
                    ContainsSubstring("SUITE is required (see hashscope bench --help)"));
  CHECK_THROWS_WITH(parse_cli({"bench", "linear", "--group", "3"}),
                    ContainsSubstring("--group: must be 1, 4 or 8"));
  CHECK_THROWS_WITH(parse_cli({"render", "x.scn", "--size", "big"}),
                    ContainsSubstring("WIDTHxHEIGHT"));
  CHECK_THROWS_WITH(parse_cli({"--verbose"}), ContainsSubstring("not expected: --verbose"));
  CHECK_THROWS_WITH(parse_cli({"render", "x.scn", "--reps", "3"}),
                    ContainsSubstring("not expected: 3 --reps"));  // a bench option
  CHECK_THROWS_AS(parse_cli({"--hash", "sha1"}), user_error);
}

TEST_CASE(
    "every command has --help from its options' definitions, and --version says which HashScope",
    "[cli]") {
  const cli_options top = parse_cli({"--help"});
  CHECK(top.command == command_kind::help);
  CHECK_THAT(top.help_text, ContainsSubstring("--font-size PX"));
  CHECK_THAT(top.help_text, ContainsSubstring("render"));
  CHECK(parse_cli({"help"}).help_text == top.help_text);
  const cli_options render = parse_cli({"render", "--help"});  // not a scenario named --help
  CHECK(render.command == command_kind::help);
  CHECK_THAT(render.help_text, ContainsSubstring("hashscope render [OPTIONS] SCENARIO"));
  CHECK_THAT(render.help_text, ContainsSubstring("--style paper|screen"));
  const std::string bench = parse_cli({"bench", "--help"}).help_text;
  CHECK_THAT(bench, ContainsSubstring("--cas-first auto|on|off"));
  for (const auto& s : bench::suites())
    CHECK_THAT(bench, ContainsSubstring(std::string(s.name) + ": "));
  CHECK_THAT(parse_cli({"plot", "--help"}).help_text,
             ContainsSubstring("hashscope plot [OPTIONS] RESULTS_DIR"));
  CHECK_THAT(parse_cli({"--version"}).help_text, ContainsSubstring("hashscope 0."));
}

TEST_CASE(
    "a scenario file as the only argument opens the window on it, as a desktop launcher passes it",
    "[cli]") {
  CHECK(parse_cli({"/home/teacher/lesson.scn"}).scenario == "/home/teacher/lesson.scn");
  CHECK(parse_cli({"/home/teacher/lesson.scn"}).command == command_kind::window);
  CHECK(parse_cli({"linear-clustering"}).scenario == "linear-clustering");  // a shipped one by name
}

TEST_CASE("bench live --minutes takes 1 to 600 minutes, and no other suite takes it", "[cli]") {
  CHECK(parse_cli({"bench", "live", "--minutes", "10", "--only", "slab"}).live_minutes == 10);
  CHECK_THROWS_WITH(parse_cli({"bench", "live", "--minutes", "0"}),
                    ContainsSubstring("between 1 and 600"));
  CHECK_THROWS_WITH(run_bench(parse_cli({"bench", "linear", "--minutes", "2"})),
                    ContainsSubstring("--minutes is an option of bench live only"));
}
