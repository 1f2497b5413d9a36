// The live Fig. 9: batches binned by their mean load, steps summed per bin, empty bins left out.
#include <catch2/catch_test_macros.hpp>

#include "visualizers/views/hive_view.hpp"

using namespace hs::vis;

TEST_CASE("insert steps are binned by each batch's mean load", "[hive][views]") {
  std::vector<hive_step_point> pts(3);
  pts[0] = {0.50, 0.54, {0, 900, 0, 0}, 0};   // mean 0.52: bin [0.52, 0.54)
  pts[1] = {0.53, 0.535, {3, 97, 0, 0}, 0};   // mean 0.5325: the same bin
  pts[2] = {0.96, 0.98, {0, 60, 35, 5}, 80};  // mean 0.97: bin [0.96, 0.98)
  const auto bins = bin_steps(pts, 0.02);
  REQUIRE(bins.size() == 2);
  CHECK(bins[0].load_lo == 0.52);
  CHECK(bins[0].steps[0] == 3);
  CHECK(bins[0].steps[1] == 997);
  CHECK(bins[0].total() == 1000);
  CHECK(bins[1].load_lo == 0.96);
  CHECK(bins[1].steps[2] == 35);
  CHECK(bins[1].steps[3] == 5);
  CHECK(steps_csv(pts, 0.02) == "load_lo,load_hi,replace,claim,evict,stash\n0.520,0.540,3,997,0,0\n0.960,0.980,0,60,35,5\n");
  std::vector<hive_step_point> idle(1);  // a batch of lookups only: no insert, no bin
  CHECK(bin_steps(idle, 0.02).empty());
}
