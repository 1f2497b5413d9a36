// --loads: a sweep of loads for the open-addressing suites, and the dense default.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cmath>

#include "core/bench/load_sweep.hpp"
#include "core/bench/suites.hpp"
#include "core/common/error.hpp"

using namespace hs;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("a load sweep runs from FROM to TO by STEP, ending at TO despite rounding", "[bench]") {
  const auto v = bench::parse_load_sweep("0.05:0.95:0.05");
  REQUIRE(v.size() == 19);
  CHECK(v.front() == 0.05);
  CHECK(v[9] == 0.5);  // the README's rows stay among them
  CHECK(v[15] == 0.8);
  CHECK(v.back() == 0.95);
  CHECK(bench::parse_load_sweep("0.9:0.9:0.01") == std::vector<double>{0.9});
  CHECK(bench::parse_load_sweep("0.9:0.99:0.03") == std::vector<double>{0.9, 0.93, 0.96, 0.99});
  const auto d = bench::default_load_sweep({0.97, 0.99});
  REQUIRE(d.size() == 21);
  CHECK(d[18] == 0.95);
  CHECK(d[20] == 0.99);
}

TEST_CASE("a load sweep that is not FROM:TO:STEP within 0-1 is refused, saying why", "[bench]") {
  const std::pair<const char*, const char*> bad[] = {
      {"0.1:0.9", "is not FROM:TO:STEP"},        {"a:0.9:0.1", "is not FROM:TO:STEP"},
      {"0.1:0.9:0.1:2", "is not FROM:TO:STEP"},  {"0.5:0.2:0.1", "needs 0 < FROM <= TO < 1"},
      {"0:0.5:0.1", "needs 0 < FROM <= TO < 1"}, {"0.1:1:0.1", "needs 0 < FROM <= TO < 1"},
      {"0.1:0.9:0", "needs a STEP above 0"},     {"0.1:0.9:-0.1", "needs a STEP above 0"},
      {"0.001:0.999:0.0001", "more than 1000"},  {"0.1:nan:0.1", "is not FROM:TO:STEP"}};
  for (const auto& [text, why] : bad) {
    INFO(text);
    CHECK_THROWS_WITH(bench::parse_load_sweep(text), ContainsSubstring(why));
  }
}

TEST_CASE("bench slab --loads sweeps Fig. 4 by the memory utilization each beta reaches",
          "[bench][slab]") {
  bench::bench_options o;
  o.backend = backend::cpu;
  o.reps = 1;
  o.warmup = 0;
  o.only = {"fig4-utilization"};
  o.loads = bench::parse_load_sweep("0.3:0.7:0.2");
  const bench::report r = bench::run_suite("slab", o);
  REQUIRE(r.tables.size() == 1);
  const bench::result_table& t = r.tables[0];
  REQUIRE(t.rows.size() == 3);
  const auto col = std::find(t.columns.begin(), t.columns.end(), "utilization") - t.columns.begin();
  for (std::size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    REQUIRE(t.rows[i][col].number);
    CHECK(std::abs(*t.rows[i][col].number - o.loads[i]) < 0.03);  // what the table reached
  }
  o.loads = {0.5, 0.95};  // past what a slab can hold: refused before anything runs
  CHECK_THROWS_WITH(bench::run_suite("slab", o), ContainsSubstring("below 0.93"));
}
