// Bucket counts from beta and from a memory utilization (SlabHash, footnote 3).
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include "core/common/error.hpp"
#include "core/slab/slab_sizing.hpp"

using namespace hs;

TEST_CASE("beta and utilization convert both ways", "[slab][sizing]") {
  CHECK(slab::buckets_for_beta(1u << 22, 0.7) == 399458);  // ceil(2^22 / 10.5)
  for (double beta : {0.1, 0.5, 0.8, 1.5, 5.0}) {
    const double u = slab::utilization_for_beta(beta);
    CHECK(slab::beta_for_utilization(u) == Catch::Approx(beta).epsilon(1e-6));
  }
  // The cliff: past beta 0.9 most buckets get a second, nearly empty slab and utilization dips,
  // so the smallest beta reaching a utilization is the one chosen.
  CHECK(slab::utilization_for_beta(1.1) < slab::utilization_for_beta(0.9));
  CHECK(slab::beta_for_utilization(slab::utilization_for_beta(1.1)) < 0.9);
  // Small beta: nearly every bucket is one slab, so utilization is close to 120/128 * beta.
  CHECK(slab::utilization_for_beta(0.1) == Catch::Approx(0.09375).epsilon(0.01));
  CHECK_THROWS_AS(slab::beta_for_utilization(0.95), user_error);
  CHECK_THROWS_AS(slab::buckets_for_beta(10, 0), user_error);
}
