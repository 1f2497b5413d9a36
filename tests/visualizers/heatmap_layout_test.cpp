// The heatmap's plan: an image of the table with no rows past its last slot, whatever size the
// view has. A view just too small for 2x2-pixel cells used to plan one slot a pixel over its
// whole height: the image's rows past the last slot stayed black, and a render on NVIDIA's EGL
// (its fonts left the view 437x600 pixels) drew 2^16 slots in the top quarter of a black view.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include "visualizers/views/heatmap_view.hpp"

using namespace hs::vis;

TEST_CASE("the heatmap plans no rows past the table's last slot", "[heatmap]") {
  const std::uint64_t capacity = 1u << 16;
  const auto [w, h] = GENERATE(std::pair{437, 600}, std::pair{512, 512}, std::pair{300, 900},
                               std::pair{1200, 40}, std::pair{256, 256});
  CAPTURE(w, h);
  heatmap_view v;
  v.set_area(w, h);
  const heatmap_request r = v.plan(capacity);
  const std::uint64_t pixels = std::uint64_t{r.occupancy.width} * r.occupancy.height;
  CHECK(r.occupancy.width <= static_cast<std::uint32_t>(w));
  CHECK(r.occupancy.height <= static_cast<std::uint32_t>(h));
  CHECK(r.occupancy.slot_count == capacity);  // the whole table, from its first slot
  CHECK(r.occupancy.first_slot == 0);
  // At most one row more than the slots need: every row but the last holds slots.
  const double spp = static_cast<double>(capacity) / static_cast<double>(pixels);
  if (spp <= 1.0) CHECK(std::uint64_t{r.occupancy.width} * (r.occupancy.height - 1) < capacity);
}
