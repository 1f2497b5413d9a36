// The slab family's device view: slab_ref, the table as kernels see it, and pool_ref, SlabAlloc's
// pool within it (both passed by value). Plain structures, apart from the kernels' entry points
// (slab_launch.hpp) so that every family's view lives in a file named <family>_ref; host code
// builds them (slab_table.cu) and passes them on.
#pragma once
#include <cstdint>

#include "core/common/hash.hpp"
#include "core/slab/slab_options.hpp"

namespace hs::slab {

/// @brief SlabAlloc's pool as kernels see it (passed by value; the arrays live in device memory).
struct pool_ref {
  std::uint32_t* const* slabs = nullptr;    ///< per super block: its slabs
  std::uint32_t* const* bitmaps = nullptr;  ///< per super block: 32 words per memory block
  std::uint32_t super_blocks = 0;
  std::uint32_t blocks_per_super = 0;
  unsigned long long* counters =
      nullptr;             ///< k_pool_counters: [0] resident changes, [1] allocation failures,
                           ///< [2] rejected inserts, [3] failed_full inserts,
                           ///< [4] rejected finds (SEARCH, COUNT, SEARCHALL),
                           ///< [5] rejected erases (DELETE, DELETEALL),
                           ///< [6] slabs freed by the losers of link races,
                           ///< [7] tiles holding a slab they may still free (slab_alloc.cuh)
  std::uint32_t seed = 0;  ///< differs per launch: tiles start in other blocks
};

inline constexpr int k_pool_counters = 8;

/// @brief The table as kernels see it.
struct slab_ref {
  hash_kind hash = hash_kind::universal;
  int tile = 32;
  std::uint32_t* base = nullptr;
  std::uint32_t buckets = 0;
  slab_mode mode = slab_mode::unique;
  pool_ref pool;
};

}  // namespace hs::slab
