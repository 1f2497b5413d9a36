// Choosing a slab table's bucket count, the paper's way (SlabHash, footnote 3): from the number of
// keys and an average slab count beta, B = n / (15 beta); or from a target memory utilization,
// through the beta that gives it when keys spread over buckets at random (Poisson chain fills).
#pragma once
#include <cstdint>

namespace hs::slab {

/// @brief Buckets for n keys at beta slabs' worth of pairs per bucket (at least one).
std::uint64_t buckets_for_beta(std::uint64_t n, double beta);
/// @brief Expected slabs per bucket (base included) when keys land in buckets at random with
/// beta * 15 keys per bucket on average, and every chain is packed (as after FLUSH).
double expected_slabs_per_bucket(double beta);
/// @brief Memory utilization expected at beta: 8 * 15 beta bytes stored per 128 * E[slabs] used.
double utilization_for_beta(double beta);
/// @brief The smallest beta whose expected utilization is u (0 < u < 15/16, the layout's ceiling).
/// Utilization peaks near 0.66 at beta 0.9 and dips before it rises again.
double beta_for_utilization(double u);

/// @brief Whether `threads` can share a slab (0 = the default).
inline bool valid_tile(int threads) {
  return threads == 0 || threads == 2 || threads == 4 || threads == 8 || threads == 16 ||
         threads == 32;
}
inline constexpr const char* k_tile_choices =
    "2, 4, 8, 16 or 32 threads per slab (0 chooses automatically)";

}  // namespace hs::slab

#include "core/table/table.hpp"

namespace hs::slab {

/// @brief How SlabAlloc's pool is cut: super blocks of `blocks_per_super` memory blocks of 1024
/// slabs.
struct pool_shape {
  std::uint32_t blocks_per_super = 0;
  std::uint32_t initial_super_blocks = 0;
  std::uint32_t max_super_blocks = 0;
  std::uint64_t slabs_per_super() const { return std::uint64_t{blocks_per_super} * 1024; }
};

/// @brief The bucket count a config asks for (slab.buckets, else capacity / 15 rounded up; the
/// capacity 0 meaning the backend's default). Throws hs::user_error when impossible.
std::uint64_t resolve_buckets(const table_config& cfg);
/// @brief The pool a config asks for: pool_slabs up front (default a quarter of the buckets, at
/// least 4096), in four super blocks or more, growing to pool_limit (default: 255 super blocks).
pool_shape resolve_pool(const slab_options& o, std::uint64_t buckets);

}  // namespace hs::slab
