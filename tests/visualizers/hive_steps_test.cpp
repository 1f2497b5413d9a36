// The live Fig. 9: batches binned by their mean load, steps summed per bin, empty bins left out.
#include <catch2/catch_test_macros.hpp>

#include "visualizers/views/hive_view.hpp"

using namespace hs::vis;

TEST_CASE("insert steps are spread over the load bins each batch covers", "[hive][views]") {
  std::vector<hive_step_point> pts(3);
  pts[0] = {0.51,
            0.55,
            {0, 900, 0, 0},
            0};  // a quarter in [0.50, 0.52), half in [0.52, 0.54), a quarter above
  pts[1] = {0.53, 0.535, {3, 97, 0, 0}, 0};     // all in [0.52, 0.54)
  pts[2] = {0.965, 0.975, {0, 60, 35, 5}, 80};  // all in [0.96, 0.98)
  const auto bins = bin_steps(pts, 0.02);
  REQUIRE(bins.size() == 4);
  CHECK(bins[0].load_lo == 0.50);
  CHECK(bins[0].steps[1] >= 224);
  CHECK(bins[0].steps[1] <= 225);
  CHECK(bins[1].load_lo == 0.52);
  CHECK(bins[1].steps[0] == 3);
  CHECK(bins[1].steps[1] >= 97 + 449);
  CHECK(bins[0].total() + bins[1].total() + bins[2].total() == 1000);  // every insert once
  CHECK(bins[3].load_lo == 0.96);
  CHECK(bins[3].steps[2] == 35);
  CHECK(bins[3].steps[3] == 5);
  CHECK(steps_csv(std::span(pts).subspan(2), 0.02) ==
        "load_lo,load_hi,replace,claim,evict,stash\n0.960,0.980,0,60,35,5\n");
  std::vector<hive_step_point> idle(1);  // a batch of lookups only: no insert, no bin
  CHECK(bin_steps(idle, 0.02).empty());
}
