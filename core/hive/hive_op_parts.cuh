// What every operation of a tile shares (hive_ops.cuh): a key's candidate buckets, the watch for
// keys in transit (lock-word snapshots), the result of an operation, the per-tile tallies, and
// the stash lookup. Apart so that lookups, deletes, inserts and eviction paths include one
// definition of each.
#pragma once
#include <cstdint>

#include "core/hive/hive_access.cuh"

namespace hs::hive {

/// @brief A key's candidate buckets as the kernels carry them (32-bit: at most 2^29 buckets).
struct dev_candidates {
  std::uint32_t b[k_max_hashes];
};

// teach-region hive-candidates
__device__ inline dev_candidates dev_candidates_of(const hive_ref& r, key_type k) {
  const candidates c = candidates_of(r.hashes, r.geo, k);  // [teach:candidates]
  dev_candidates d;
#pragma unroll
  for (int i = 0; i < k_max_hashes; ++i) d.b[i] = static_cast<std::uint32_t>(c.b[i]);
  return d;
}
// teach-region-end

/// @brief Lane 0: the lock words (eviction lock, hint, move count) of a key's candidates from
/// `first` on. A scan that reads the candidates one after another, in order, needs only those
/// after the first: a key moving forward in that order is met (its copy is written before the
/// original goes), so only moves out of a later candidate can hide it.
struct lock_snapshot {
  std::uint32_t w[k_max_hashes] = {};
};
__device__ inline lock_snapshot snapshot_locks(const hive_ref& r, const dev_candidates& c,
                                               int first) {
  lock_snapshot s;
#pragma unroll
  for (int i = 0; i < k_max_hashes; ++i)
    if (i >= first && i < r.hashes.count) s.w[i] = load_lock(r, c.b[i]);
  return s;
}
/// @brief True (on every lane) when an eviction moved something out of a candidate (from `first`
/// on) since `before` was taken, or holds its lock now: a miss seen meanwhile may be a key in
/// transit.
__device__ inline bool moved_between(const hive_ref& r, const lock_snapshot& before,
                                     const lock_snapshot& now, int first) {
  bool moved = false;
#pragma unroll
  for (int i = 0; i < k_max_hashes; ++i)
    moved |= i >= first && i < r.hashes.count &&
             (((now.w[i] ^ before.w[i]) & ~k_unwatched_bits) != 0 || (now.w[i] & k_lock_bit));
  return moved;
}
template <int T>
__device__ bool moved_since(const warp_tile<T>& t, const hive_ref& r, const dev_candidates& c,
                            const lock_snapshot& before, int first) {
  bool moved = false;
  if (t.lane == 0) moved = moved_between(r, before, snapshot_locks(r, c, first), first);
  return t.shfl(moved, 0);
}

struct op_result {
  op_status status = op_status::none;
  value_type value = k_empty;
  insert_step step = insert_step::replace;
};

/// @brief Whether the stash may hold k: stashed words exist and a candidate's hint is non-zero.
template <int T>
__device__ bool stash_may_hold(const warp_tile<T>& t, const hive_ref& r, const dev_candidates& c,
                               bool stash_used) {
  if (!stash_used) return false;
  std::uint32_t hint = 0;
  if (t.lane == 0) hint = stash_hint(load_lock(r, c.b[0]));
  return t.shfl(hint, 0) != 0;
}

/// @brief Position of k in the stash, or -1 (every lane).
template <int T>
__device__ long long stash_find(const warp_tile<T>& t, const hive_ref& r, key_type k) {
  // One read for the tile: lanes reading the tail apart could loop different counts round a ballot.
  unsigned long long tail = 0;
  if (t.lane == 0) tail = load_word(reinterpret_cast<const word_type*>(r.stash_tail));
  tail = t.shfl(tail, 0);
  const unsigned long long used = tail < r.stash_capacity ? tail : r.stash_capacity;
  for (unsigned long long base = 0; base < used; base += T) {
    const unsigned long long i = base + t.lane;
    const bool hit = i < used && key_of(load_word(r.stash + i)) == k;
    const unsigned b = t.ballot(hit);
    if (b) return static_cast<long long>(base + __ffs(b) - 1);
  }
  return -1;
}

/// @brief Per-tile tallies of instrumented events, added to the device counters once per thread.
/// Packed, so they hold few registers through the kernel: a thread counts its own operation in
/// the first pass and, as lane 0, its tile's in the others (at most 2 T + 1 <= 65 inserts), and a
/// move and a lock at most once per hop of its tile's eviction paths (at most 32 x 8 x 32 each).
struct tallies {
  std::uint32_t steps = 0;        ///< inserts completed by step 1..4, 8 bits each
  std::uint32_t moves_locks = 0;  ///< moves in the low 16 bits, locks in the high
  std::uint32_t restarts = 0;
  /// Counts an insert completed by step s.
  __device__ void count_step(insert_step s) { steps += 1u << (8 * (static_cast<int>(s) - 1)); }
  __device__ void count_move() { moves_locks += 1u; }
  __device__ void count_lock() { moves_locks += 1u << 16; }
  __device__ std::uint32_t step(int i) const { return (steps >> (8 * i)) & 0xffu; }
  __device__ std::uint32_t moves() const { return moves_locks & 0xffffu; }
  __device__ std::uint32_t locks() const { return moves_locks >> 16; }
};

}  // namespace hs::hive
