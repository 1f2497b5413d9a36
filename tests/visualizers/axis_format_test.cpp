// Axis labels: short, with SI-style suffixes.
#include <catch2/catch_test_macros.hpp>

#include "visualizers/axis_format.hpp"

using namespace hs::vis;

TEST_CASE("tick labels are short", "[plot]") {
  CHECK(tick_label(0) == "0");
  CHECK(tick_label(0.25) == "0.25");
  CHECK(tick_label(15000) == "15k");
  CHECK(tick_label(12e6) == "12M");
  CHECK(tick_label(3.5e9) == "3.5G");
}
