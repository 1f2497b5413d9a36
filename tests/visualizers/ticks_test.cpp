// Plot ticks: nice linear steps, powers of ten on log axes, short labels.
#include <catch2/catch_test_macros.hpp>

#include "visualizers/plot/ticks.hpp"

using namespace hs::vis;

TEST_CASE("linear ticks fall on 1, 2 or 5 times a power of ten", "[plot]") {
  const auto t = linear_ticks(0.0, 1.0, 5);
  REQUIRE(t.size() == 6);
  CHECK(t[0] == 0.0);
  CHECK(t[1] == 0.2);
  CHECK(t.back() == 1.0);
  CHECK(linear_ticks(0, 10e9, 5)[1] == 2e9);
  CHECK(linear_ticks(0, 13e9, 5)[1] == 5e9);  // a step of 2.6e9 rounds up to 5e9
  const auto odd = linear_ticks(3.3, 7.9, 4);
  CHECK(odd.front() >= 3.3);
  CHECK(odd.back() <= 7.9);
}

TEST_CASE("log ticks are the powers of ten in range, thinned", "[plot]") {
  CHECK(log_ticks(0.5, 2000) == std::vector<double>{1, 10, 100, 1000});
  CHECK(log_ticks(1, 1e12, 4).size() <= 5);
  CHECK(log_ticks(-1, 10).empty());
}

TEST_CASE("tick labels are short", "[plot]") {
  CHECK(tick_label(0) == "0");
  CHECK(tick_label(0.25) == "0.25");
  CHECK(tick_label(15000) == "15k");
  CHECK(tick_label(12e6) == "12M");
  CHECK(tick_label(3.5e9) == "3.5G");
}
