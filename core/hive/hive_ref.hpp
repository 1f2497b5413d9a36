// The hive family's device view: hive_ref, the table as kernels see it (passed by value). A plain
// structure, apart from the kernels' entry points (hive_launch.hpp) and its operations
// (hive_ops.cuh) so that every family's view lives in a file named <family>_ref; host code
// builds it (hive_table.cu) and passes it on.
#pragma once
#include <cstdint>

#include "core/hive/hive_layout.hpp"
#include "core/hive/hive_path.hpp"

namespace hs::hive {

/// @brief The table as kernels see it.
struct hive_ref {
  word_type* words = nullptr;  ///< buckets * slots
  meta_word* bucket_meta =
      nullptr;  ///< per bucket: free mask (bit i set = slot i free) and lock word
  int slots = 32;
  int tile = 32;
  geometry geo;
  hash_policy hashes;
  int depth = 16;              ///< most moves of one eviction path
  word_type* stash = nullptr;  ///< ring of stashed words (empty after a delete)
  std::uint32_t stash_capacity = 0;
  unsigned long long* stash_tail = nullptr;  ///< slots handed out (may pass the capacity)
  unsigned long long* stash_live = nullptr;  ///< live words in the stash
  unsigned long long* counters = nullptr;    ///< c_count entries (hive_launch.hpp)
  unsigned long long* tallies = nullptr;     ///< k_tally_shards x k_tally_stride, folded on read
  path_record* paths = nullptr;              ///< k_path_ring records
  unsigned long long* path_head = nullptr;   ///< records written
  bool instrument = false;
  std::uint32_t seed = 0;  ///< differs per launch: eviction victims
};

}  // namespace hs::hive
