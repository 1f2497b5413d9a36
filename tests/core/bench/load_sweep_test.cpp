// --loads: a sweep of loads for the open-addressing suites, and the dense default.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/bench/load_sweep.hpp"
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
