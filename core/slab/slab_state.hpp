// The slab family's state (table_state.hpp), the same on both backends: part "base" (the base
// slabs, 32 words per bucket), part "slabs" (every super block's slabs, one after another) and
// part "bitmaps" (every super block's allocation bitmaps, likewise), as stored; numbers "buckets",
// "super_blocks", "blocks_per_super" (SlabAlloc's shape, which follows the buckets the table was
// made with: a state restores only into a pool of that shape), "resident_changes" and
// "alloc_failures", and the common counters. Slab
// addresses name a super block by its index, so the pool comes back with exactly as many.
#pragma once
#include <cstdint>
#include <string_view>

#include "core/slab/slab_sizing.hpp"
#include "core/table/table_state.hpp"

namespace hs::slab {

inline constexpr std::string_view k_base_part = "base";
inline constexpr std::string_view k_slabs_part = "slabs";
inline constexpr std::string_view k_bitmaps_part = "bitmaps";

/// @brief A state's shape, read and checked against the table's pool: buckets and super blocks
/// within their limits, and the words a super block's slabs and bitmaps hold.
struct state_shape {
  std::uint64_t buckets = 0, super_blocks = 0;
  std::uint64_t slab_words = 0, bitmap_words = 0;  ///< per super block
};
state_shape read_state_shape(const table_state& st, const pool_shape& pool);

}  // namespace hs::slab
