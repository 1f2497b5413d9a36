// SlabAlloc on the device (SlabHash, V): the pool's super blocks are cut into memory blocks of
// 1024 slabs with a 1024-bit bitmap each. A tile keeps one resident block, its bitmap held in the
// lanes' registers (W words per lane); an allocation finds the lowest free bit there and claims it
// with one atomicOr, refreshing the register copy when another tile got there first. A full
// resident block is replaced by hashing (tile id, changes so far, launch seed); after 32 hashed
// changes within one allocation the tile scans every block in order, so an allocation fails only
// when every block was seen full. Deallocation clears the bit.
// Within an insert batch a bit is cleared only by the loser of a race to link a slab
// (slab_ops.cuh), so a block seen full may have room again a moment later. An insert's allocation
// (`may_free`) is therefore exact in every schedule: a tile about to claim a bit counts itself in
// [7] first, until its slab is linked or freed; a loser counts its free in [6] before it stops
// counting in [7]. A scan that saw every block full fails only if no free happened since it began
// and no tile holds a slab it may free; otherwise it scans again. Then no slab is free and none can
// become free before the batch ends, so the tile's later allocations fail at once.
#pragma once
#include <cstdint>

#include "core/common/hash.hpp"
#include "core/slab/slab_launch.hpp"
#include "core/slab/slab_tile.cuh"

namespace hs::slab {

__device__ inline std::uint32_t* pool_slab(const pool_ref& pool, std::uint32_t address) {
  return pool.slabs[super_of(address)] + std::size_t{index_in_super(address)} * k_slab_words;
}
/// @brief The bitmap of a memory block (global block index).
__device__ inline std::uint32_t* pool_bitmap(const pool_ref& pool, std::uint32_t block) {
  return pool.bitmaps[block / pool.blocks_per_super] +
         std::size_t{block % pool.blocks_per_super} * k_bitmap_words;
}

inline constexpr std::uint32_t k_hashed_changes = 32;
inline constexpr int k_race_frees = 6;  ///< pool counter: slabs freed by losers of link races
inline constexpr int k_holding = 7;     ///< pool counter: tiles holding a slab they may free

__device__ inline unsigned long long read_pool_counter(const pool_ref& pool, int i) {
  return *static_cast<const volatile unsigned long long*>(pool.counters + i);
}

/// @brief A tile's resident block and its bitmap (lane l holds words l*W .. l*W + W - 1).
template <int T>
struct alloc_state {
  std::uint32_t block = 0xffffffffu;  ///< global memory block index; none yet
  std::uint32_t changes = 0;
  bool exhausted = false;  ///< every block was seen full: later allocations fail at once
  slab_words<32 / T> bits;
};

/// Moves the resident block; false when this allocation's scan has seen every block. `moves`
/// counts the changes made by the allocation in progress: the budget is per allocation, so a tile
/// that allocated many slabs before still searches the whole pool before it fails.
template <int T>
__device__ bool change_resident(const slab_tile<T>& t, alloc_state<T>& a, const pool_ref& pool,
                                std::uint32_t tile_id, std::uint32_t& moves) {
  const std::uint32_t total = pool.super_blocks * pool.blocks_per_super;
  if (a.block != 0xffffffffu) {
    if (moves >= k_hashed_changes + total) return false;
    ++moves;
    ++a.changes;
    if (t.lane == 0) atomicAdd(pool.counters, 1ull);
  }
  if (a.block == 0xffffffffu || moves <= k_hashed_changes) {
    const murmur3_hash mix;
    a.block = mix(tile_id * 0x9e3779b1u ^ mix(a.changes + pool.seed * 0x85ebca6bu)) % total;
  } else {
    a.block = (a.block + 1) % total;  // `total` steps from the last hashed block: every block
  }
  const std::uint32_t* bm = pool_bitmap(pool, a.block);
  a.bits = read_slab(t, bm);  // a bitmap is 32 words: read like a slab
  return true;
}

/// @brief Allocates one slab for the tile; k_null_address when the pool has none free. `may_free`:
/// the caller may free the slab again (an insert that loses the race to link it), and the slab
/// then counts in k_holding until the caller's release_held_slab.
template <int T>
__device__ std::uint32_t allocate(const slab_tile<T>& t, alloc_state<T>& a, const pool_ref& pool,
                                  std::uint32_t tile_id, bool may_free = false) {
  constexpr int W = 32 / T;
  if (a.exhausted) {
    if (t.lane == 0) atomicAdd(pool.counters + 1, 1ull);
    return k_null_address;
  }
  std::uint32_t moves = 0;
  unsigned long long frees_seen = 0;  // lane 0's: race frees when the ordered scan began
  if (a.block == 0xffffffffu) change_resident(t, a, pool, tile_id, moves);
  for (;;) {
    bool has = false;
#pragma unroll
    for (int j = 0; j < W; ++j) has |= a.bits.w[j] != 0xffffffffu;
    const unsigned b = t.ballot(has);
    if (b) {
      const int src = __ffs(b) - 1;
      std::uint32_t unit = 0xffffffffu;
      if (t.lane == static_cast<unsigned>(src)) {
        int j = W - 1;
#pragma unroll
        for (int i = W - 1; i >= 0; --i) j = a.bits.w[i] != 0xffffffffu ? i : j;
        const std::uint32_t mine = a.bits.at(j);
        const int bit = __ffs(~mine) - 1;
        if (may_free) {  // counted before the bit is ours, so no scan can miss the slab
          atomicAdd(pool.counters + k_holding, 1ull);
          __threadfence();
        }
        const std::uint32_t old = atomicOr(pool_bitmap(pool, a.block) + src * W + j, 1u << bit);
        if (may_free && (old & (1u << bit))) atomicAdd(pool.counters + k_holding, ~0ull);
#pragma unroll
        for (int i = 0; i < W; ++i)
          if (i == j) a.bits.w[i] = old | (1u << bit);
        if (!(old & (1u << bit))) unit = (src * W + j) * 32 + bit;
      }
      unit = t.shfl(unit, src);
      if (unit != 0xffffffffu)
        return make_address(a.block / pool.blocks_per_super, a.block % pool.blocks_per_super, unit);
      continue;  // another tile took that slab: the register copy now shows it
    }
    if (may_free && moves == k_hashed_changes) {  // the ordered scan begins: only near exhaustion
      if (t.lane == 0) frees_seen = read_pool_counter(pool, k_race_frees);
      __threadfence();  // that count, then the bitmaps
    }
    if (!change_resident(t, a, pool, tile_id, moves)) {
      if (may_free) {
        // Every block was seen full: so it is, unless a slab was freed since the scan began or a
        // tile holds one it may free. Then scan again, in order.
        __threadfence();
        unsigned again = 0;
        if (t.lane == 0) {
          // Holding first, then frees: a loser frees, counts the free, then stops holding, so a
          // holder missed here has counted its free by the time the count is read.
          const bool held = read_pool_counter(pool, k_holding) != 0;
          __threadfence();
          again = held || read_pool_counter(pool, k_race_frees) != frees_seen;
        }
        if (t.shfl(again, 0)) {
          moves = k_hashed_changes;
          continue;
        }
      }
      a.exhausted = true;
      if (t.lane == 0) atomicAdd(pool.counters + 1, 1ull);
      return k_null_address;
    }
  }
}

/// @brief Ends what allocate(may_free) counted, once the slab is linked (`freed` false) or was
/// freed by the loser of a link race (`freed` true: counted first, so a scan sees one or the
/// other).
__device__ inline void release_held_slab(const pool_ref& pool, bool freed) {
  if (freed) {
    __threadfence();  // the bit cleared, then counted
    atomicAdd(pool.counters + k_race_frees, 1ull);
    __threadfence();  // the free counted before the holding ends
  }
  atomicAdd(pool.counters + k_holding, ~0ull);
}

/// @brief Returns a slab to the pool (one thread).
__device__ inline void deallocate(const pool_ref& pool, std::uint32_t address) {
  const std::uint32_t index = index_in_super(address);
  atomicAnd(pool.bitmaps[super_of(address)] + index / 32, ~(1u << (index % 32)));
}

}  // namespace hs::slab
