// Heatmap pixel colours: live fraction through the colormap, deleted states in their own hues.
#include <catch2/catch_test_macros.hpp>

#include "visualizers/heatmap_colors.hpp"

using namespace hs;
using namespace hs::vis;

TEST_CASE("occupancy colours follow the live fraction and mark deletions", "[heatmap]") {
  const colormap m = load_colormap("viridis");
  const heatmap_style style;
  CHECK(heatmap_color({1.f, 0.f, 0.f, 0.f}, m.lut.data(), style) == m.lut.back());
  CHECK(heatmap_color({0.f, 0.f, 0.f, 0.f}, m.lut.data(), style) == m.lut.front());
  CHECK(heatmap_color({0.5f, 0.f, 0.f, 3.f}, m.lut.data(), style) == m.lut[128]);
  CHECK(heatmap_color({0.f, 1.f, 0.f, 0.f}, m.lut.data(), style) == style.erased);
  CHECK(heatmap_color({0.f, 0.f, 1.f, 0.f}, m.lut.data(), style) == style.tombstone);
  CHECK(heatmap_color({0.f, 0.f, 0.f, k_no_slot}, m.lut.data(), style) == style.none);
  const rgba8 half = heatmap_color({0.5f, 0.5f, 0.f, 0.f}, m.lut.data(), style);
  CHECK(half != m.lut[128]);
  CHECK(half != style.erased);
}

TEST_CASE("probe-length colours use a log scale and mark empty pixels", "[heatmap]") {
  const colormap m = load_colormap("viridis");
  heatmap_style style;
  style.mode = heatmap_mode::displacement;
  style.displacement_max = 63.f;  // log2(1 + 63) = 6
  CHECK(heatmap_color({0.f, 0.f, 0.f, 0.f}, m.lut.data(), style) == style.empty);
  CHECK(heatmap_color({1.f, 0.f, 0.f, 0.f}, m.lut.data(), style) == m.lut.front());
  CHECK(heatmap_color({1.f, 0.f, 0.f, 63.f}, m.lut.data(), style) == m.lut.back());
  CHECK(heatmap_color({1.f, 0.f, 0.f, 7.f}, m.lut.data(), style) ==
        m.lut[lut_index(0.5f)]);  // log2(8)/6
}
