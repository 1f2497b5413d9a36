// Bulk kernels of the linear family: one group of G threads per operation, for either slot width W
// (linear_layout.hpp), whose key and value types the batch's arrays hold.
#pragma once
#include <cstdint>

#include "core/common/warp_reduce.cuh"
#include "core/linear/linear_rebuild.hpp"
#include "core/linear/linear_ref.cuh"

namespace hs::linear::kernels {

inline constexpr int k_block = 256;
/// Blocks an SM keeps for the insert, lookup and erase kernels: a full SM (2048 threads, so at
/// most 32 registers a thread). The rare long walks (walk_far, the reach) would otherwise raise
/// every thread's registers to 36-38 and cost a quarter of the threads in flight (ptxas -v;
/// inserts to load 0.95 ran at 8.26 instead of 8.48 G/s on the H200, held to 32 they spill 4 bytes
/// on the tombstone path).
inline constexpr int k_full_sm_blocks = 2048 / k_block;
/// The same for 16-byte slots, whose words take twice the registers: held to 32 a thread, the
/// insert spilled 208 bytes and the lookup 52 (ptxas -v). At `wide` blocks an SM: 6 (40
/// registers) for inserts and lookups, 4 (64) for erases; the lookup spills nothing, the insert
/// 64 bytes (nvcc 13.0), which cost less than fewer threads did (core/linear/README.md, Tried
/// and dropped). Measured on the H100 (bench linear --key-bits 64, 2^27 slots), 4 blocks
/// against 6: inserts 10.90 / 6.31 against
/// 10.63 / 6.94 G/s at loads 0.5 / 0.9, hits 23.56 / 10.38 against 23.71 / 11.21, erases
/// 11.18 / 6.88 against 10.41 / 6.90; at 8 (spilling) inserts ran 9.47 / 6.24, hits 21.81 / 11.23.
template <class W>
constexpr int min_blocks(int wide) {
  return sizeof(W) == 16 ? wide : k_full_sm_blocks;
}

// Inputs and outputs are touched once: load and store them with the streaming (evict-first)
// policy so they do not push table lines out of L2 between a probe's load and its CAS.
template <class T>
__device__ __forceinline__ T stream_in(const T* p) {
  return __ldcs(p);
}
template <class T>
__device__ __forceinline__ void stream_out(T* p, T v) {
  __stcs(p, v);
}
__device__ __forceinline__ op_kind stream_in(const op_kind* p) {
  return static_cast<op_kind>(__ldcs(reinterpret_cast<const unsigned char*>(p)));
}
__device__ __forceinline__ void stream_out(op_status* p, op_status v) {
  __stcs(reinterpret_cast<unsigned char*>(p), static_cast<unsigned char>(v));
}

template <int G>
__device__ __forceinline__ std::uint64_t op_index() {
  return (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / G;
}

/// One insert, with the mode's algorithm: tombstone mode reuses tombstones (one thread per op).
template <bool Guarded, class Hash, int G, class W>
__device__ __forceinline__ op_status insert_one(const linear_ref<Hash, G, W>& t,
                                                const coop_group<G>& g, key_of_t<W> k,
                                                value_of_t<W> v, bool cas_first, bool reuse) {
  if constexpr (G == 1) {
    if (reuse) return t.template insert_reusing<Guarded>(k, v);
  }
  return t.template insert<Guarded>(g, k, v, cas_first);
}

template <class Hash, int G, bool Guarded, class W>
__global__ void __launch_bounds__(k_block, min_blocks<W>(6))
    insert(linear_ref<Hash, G, W> t, const key_of_t<W>* keys, const value_of_t<W>* values,
           op_status* status, std::uint64_t n, std::uint64_t cas_first_ops, bool reuse) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;  // whole groups leave together: a group shares its index
  const auto g = this_group<G>();
  // Operations early in the batch meet a nearly empty table: those claim their home slot blindly.
  const op_status s = insert_one<Guarded>(t, g, stream_in(keys + i), stream_in(values + i),
                                          i < cas_first_ops, reuse);
  if (status && g.rank() == 0) stream_out(status + i, s);
}

template <class Hash, int G, class W>
__global__ void __launch_bounds__(k_block, min_blocks<W>(6))
    find(linear_ref<Hash, G, W> t, const key_of_t<W>* keys, value_of_t<W>* values,
         op_status* status, std::uint64_t n) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;
  const auto g = this_group<G>();
  value_of_t<W> v;
  const op_status s = t.find(g, stream_in(keys + i), v, t.counters->max_displacement);
  if (g.rank() == 0) {
    stream_out(values + i, v);
    if (status) stream_out(status + i, s);
  }
}

template <class Hash, int G, class W>
__global__ void __launch_bounds__(k_block, min_blocks<W>(4))
    erase(linear_ref<Hash, G, W> t, const key_of_t<W>* keys, op_status* status, std::uint64_t n,
          bool tombstone) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;
  const auto g = this_group<G>();
  const op_status s = t.erase(g, stream_in(keys + i), t.counters->max_displacement, tombstone);
  if (status && g.rank() == 0) stream_out(status + i, s);
}

/// Which operations of a mixed batch a launch runs: all of them at once (value mode), or, in
/// tombstone mode, inserts with lookups first and erases after, as two launches.
enum class apply_phase : int { all, inserts_and_finds, erases };

/// Mixed batch: each operation runs concurrently with the others of its launch, in no defined
/// order.
template <class Hash, int G, bool Guarded, class W>
__global__ void __launch_bounds__(k_block)
    apply(linear_ref<Hash, G, W> t, const op_kind* kinds, const key_of_t<W>* keys,
          const value_of_t<W>* values, value_of_t<W>* results, op_status* status, std::uint64_t n,
          std::uint64_t cas_first_ops, apply_phase phase, bool tombstone) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;
  const auto g = this_group<G>();
  const op_kind kind = stream_in(kinds + i);
  const bool erase_op = kind == op_kind::erase;
  if ((phase == apply_phase::erases && !erase_op) ||
      (phase == apply_phase::inserts_and_finds && erase_op))
    return;
  const key_of_t<W> k = stream_in(keys + i);
  value_of_t<W> found = key_limits<value_of_t<W>>::empty;
  op_status s;
  switch (kind) {
    case op_kind::insert:
      s = insert_one<Guarded>(t, g, k, stream_in(values + i), i < cas_first_ops, tombstone);
      break;
    case op_kind::find:
      s = t.find(g, k, found, *reinterpret_cast<volatile unsigned*>(&t.counters->max_displacement));
      break;
    case op_kind::erase:
      s = t.erase(g, k, *reinterpret_cast<volatile unsigned*>(&t.counters->max_displacement),
                  tombstone);
      break;
    default: s = op_status::none;
  }
  if (g.rank() == 0) {
    if (results) stream_out(results + i, found);
    if (status) stream_out(status + i, s);
  }
}

/// Rebuild: every live entry of the old slots into a fresh table (one thread per old slot).
template <class Hash, class W>
__global__ void __launch_bounds__(k_block)
    rehash(const W* old, std::uint64_t old_capacity, linear_ref<Hash, 1, W> t) {
  const auto g = this_group<1>();
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < old_capacity;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const W w = old[i];
    if (classify(w) == slot_state::live)
      t.template insert<false>(g, slot_key(w), slot_value(w), false);
  }
}

/// Every region's reach set to the table's longest probe (after a rebuild, whose kernels record
/// only that). Static: each .cu that includes this header has its own (the rehash launches it,
/// the table asks it which device code runs).
static __global__ void __launch_bounds__(k_block)
    spread_reach(std::uint32_t* reach, std::uint64_t regions, const unsigned* max_displacement) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i < regions) reach[i] = *max_displacement;
}

/// What a warp's lanes of a rebuild placed: the table's probe bound raised once to the longest
/// displacement, and the keys added to `live` (the check that nothing was lost). All lanes call it.
__device__ __forceinline__ void report_rebuilt(unsigned longest, unsigned placed,
                                               unsigned* max_displacement,
                                               unsigned long long* live) {
  const unsigned most = warp_max(longest);
  const unsigned sum = warp_sum(placed);
  if ((threadIdx.x & 31) == 0) {
    if (most) atomicMax(max_displacement, most);
    if (sum) atomicAdd(live, static_cast<unsigned long long>(sum));
  }
}

/// One thread per word of starts: rebuilds each cluster that starts in its 32 slots (see
/// linear_rebuild.hpp), then raises the table's probe bound once and adds the live keys it
/// placed to `live` (the check that nothing was lost, without another pass over the table).
template <class Hash, class W>
__global__ void __launch_bounds__(k_block)
    rebuild_clusters(W* old, std::uint64_t old_capacity, const std::uint32_t* bits, W* out,
                     std::uint64_t out_capacity, unsigned* max_displacement,
                     unsigned long long* live) {
  using I = index_of_t<W>;
  const std::uint64_t words = (old_capacity + 31) / 32;
  const std::uint64_t w = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  unsigned longest = 0, placed = 0;
  if (w < words) {
    unsigned starts = bits[w];
    while (starts) {
      const int b = __ffs(starts) - 1;
      starts &= starts - 1;
      const auto s = static_cast<I>(w * 32 + b);
      const rebuilt_cluster r = rebuild_cluster<Hash>(old, static_cast<I>(old_capacity - 1), s, out,
                                                      static_cast<I>(out_capacity - 1));
      longest = r.longest > longest ? r.longest : longest;
      placed += r.live;
    }
  }
  report_rebuilt(longest, placed, max_displacement, live);
}

/// Growth by F (2 or 4) through windows (linear_rebuild.hpp): a warp per window of 1024 old
/// slots, the window and its F copies staged in shared memory; every slot of the new table is
/// written, so it needs no fill. A window's cluster that runs past it goes to `deferred`.
inline constexpr int k_grow_warps =
    2;  // per block: (F + 1) staged windows of 8.25 KiB each per warp
template <int F>
constexpr int grow_shared_bytes() {
  return k_grow_warps * (F + 1) * static_cast<int>(k_staged_slots * sizeof(slot_word));
}

template <class Hash, int F>
__global__ void __launch_bounds__(32 * k_grow_warps)
    grow_windows(const slot_word* old, std::uint64_t old_capacity, const std::uint32_t* bits,
                 slot_word* out, std::uint32_t* deferred, unsigned* max_displacement,
                 unsigned long long* live) {
  extern __shared__ slot_word staged[];
  const std::uint32_t lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  slot_word* window = staged + warp * (F + 1) * k_staged_slots;
  slot_word* copies = window + k_staged_slots;
  const auto old_mask = static_cast<std::uint32_t>(old_capacity - 1);
  const auto out_mask = static_cast<std::uint32_t>(old_capacity * F - 1);
  const std::uint64_t windows = old_capacity / k_window_slots;
  unsigned longest = 0, placed = 0;
  // A lane's 32 words of the next window are loaded while the warp works on this one: with a few
  // warps per SM (the staging's size), loads one after another would leave the warp waiting out a
  // DRAM round trip per word.
  constexpr std::uint32_t per_lane = k_window_slots / 32;
  slot_word next[per_lane];
  const std::uint64_t stride = std::uint64_t{gridDim.x} * k_grow_warps;
  std::uint64_t w = blockIdx.x * std::uint64_t{k_grow_warps} + warp;
  if (w < windows) {
#pragma unroll
    for (std::uint32_t k = 0; k < per_lane; ++k)
      next[k] = __ldcs(old + w * k_window_slots + lane + 32 * k);
  }
  for (; w < windows; w += stride) {
    const std::uint64_t base = w * k_window_slots;
#pragma unroll
    for (std::uint32_t k = 0; k < per_lane; ++k) window[staged_index(lane + 32 * k)] = next[k];
    if (w + stride < windows) {
#pragma unroll
      for (std::uint32_t k = 0; k < per_lane; ++k)
        next[k] = __ldcs(old + (w + stride) * k_window_slots + lane + 32 * k);
    }
    for (std::uint32_t k = lane; k < F * k_staged_slots; k += 32) copies[k] = k_empty_slot;
    __syncwarp();
    std::uint32_t deferred_start;
    const rebuilt_cluster r = rebuild_window_lane<Hash>(
        window, copies, lane, bits[base / 32 + lane], static_cast<std::uint32_t>(base), old_mask,
        out_mask, deferred_start);
    longest = r.longest > longest ? r.longest : longest;
    placed += r.live;
    const unsigned deferring =
        __ballot_sync(~0u, deferred_start != k_no_cluster);  // one lane at most
    const std::uint32_t start =
        __shfl_sync(~0u, deferred_start, deferring ? __ffs(deferring) - 1 : 0);
    if (lane == 0) deferred[w] = deferring ? start : k_no_cluster;
    __syncwarp();
    for (int c = 0; c < F; ++c)
      for (std::uint32_t k = lane; k < k_window_slots; k += 32)
        __stcs(out + base + c * old_capacity + k, copies[c * k_staged_slots + staged_index(k)]);
    __syncwarp();  // the next window reuses the staging
  }
  report_rebuilt(longest, placed, max_displacement, live);
}

/// The clusters the windows deferred, a thread per window, placed by rebuild_cluster into the
/// new table that grow_windows wrote.
template <class Hash>
__global__ void __launch_bounds__(k_block)
    grow_deferred(slot_word* old, std::uint64_t old_capacity, const std::uint32_t* deferred,
                  slot_word* out, std::uint64_t out_capacity, unsigned* max_displacement,
                  unsigned long long* live) {
  const std::uint64_t w = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  rebuilt_cluster r;
  if (w < old_capacity / k_window_slots && deferred[w] != k_no_cluster)
    r = rebuild_cluster<Hash>(old, static_cast<std::uint32_t>(old_capacity - 1), deferred[w], out,
                              static_cast<std::uint32_t>(out_capacity - 1));
  report_rebuilt(r.longest, r.live, max_displacement, live);
}

/// Shrinking by F (2 or 4) through windows (linear_rebuild.hpp): a warp per window of 1024 new
/// slots, staged in shared memory, filled from the F old windows that fold onto it (each staged
/// too, its loads coalesced and in flight together) and written out whole. Keys that must wait go
/// to `later` (room for `room`; `count` counts them all, so the host sees when there was not room).
inline constexpr int k_shrink_warps = 2;  // per block: two staged windows of 8.25 KiB each a warp

template <class Hash, int F>
__global__ void __launch_bounds__(32 * k_shrink_warps)
    shrink_windows(const slot_word* old, slot_word* out, std::uint64_t capacity, slot_word* later,
                   std::uint64_t room, unsigned long long* count, unsigned* max_displacement,
                   unsigned long long* live) {
  __shared__ slot_word staged[k_shrink_warps * 2 * k_staged_slots];
  const std::uint32_t lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  slot_word* window = staged + warp * 2 * k_staged_slots;  // the new window
  slot_word* source = window + k_staged_slots;             // one old window at a time
  const auto mask = static_cast<std::uint32_t>(capacity - 1);
  const std::uint64_t windows = capacity / k_window_slots;
  constexpr std::uint32_t per_lane = k_window_slots / 32;
  unsigned longest = 0, placed = 0;
  for (std::uint64_t w = blockIdx.x * std::uint64_t{k_shrink_warps} + warp; w < windows;
       w += std::uint64_t{gridDim.x} * k_shrink_warps) {
    const std::uint64_t base = w * k_window_slots;
    for (std::uint32_t k = lane; k < k_staged_slots; k += 32) window[k] = k_empty_slot;
    for (int c = 0; c < F; ++c) {
      slot_word words[per_lane];
#pragma unroll
      for (std::uint32_t k = 0; k < per_lane; ++k)
        words[k] = __ldcs(old + c * capacity + base + lane + 32 * k);
      // The live words listed in slot order (a row of 32 slots after the rows before it): an old
      // table being shrunk is at most half full, and a lane walking its own 32 slots skipped the
      // dead ones while the others placed keys (ncu: 8 of 32 threads active).
      std::uint32_t listed = 0;
#pragma unroll
      for (std::uint32_t k = 0; k < per_lane; ++k) {
        const bool is_live = classify(words[k]) == slot_state::live;
        const unsigned row = __ballot_sync(0xffffffffu, is_live);
        if (is_live) source[staged_index(listed + __popc(row & ((1u << lane) - 1)))] = words[k];
        listed += __popc(row);
      }
      __syncwarp();
      // A lane places a run of consecutive listed keys (as the clusters lie: neighbouring lanes
      // racing for the same new slots made the kernel ten times slower), one loop for all lanes.
      const std::uint32_t each = (listed + 31) / 32;
      for (std::uint32_t j = lane * each, last = std::min(listed, j + each); j < last; ++j) {
        const slot_word word = source[staged_index(j)];
        std::uint32_t from = 0;
        const std::uint32_t p =
            place_in_window<Hash>(window, word, static_cast<std::uint32_t>(base), mask, from);
        if (p < k_window_slots) {
          longest = p - from > longest ? p - from : longest;
          ++placed;
          continue;
        }
        const unsigned long long at = atomicAdd(count, 1ull);
        if (at < room) later[at] = word;
      }
      __syncwarp();  // the next old window reuses `source`
    }
    for (std::uint32_t k = lane; k < k_window_slots; k += 32)
      __stcs(out + base + k, window[staged_index(k)]);
    __syncwarp();  // the next window clears the staging
  }
  report_rebuilt(longest, placed, max_displacement, live);
}

/// The keys the windows could not place, by the ordinary insert into the written table.
/// Adds the keys it inserted to `live`, as the windows did theirs.
template <class Hash>
__global__ void __launch_bounds__(k_block)
    insert_later(const slot_word* later, std::uint64_t n, linear_ref<Hash, 1, slot_word> t,
                 unsigned long long* live) {
  const auto g = this_group<1>();
  unsigned inserted = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    inserted += t.template insert<false>(g, slot_key(later[i]), slot_value(later[i]), false) ==
                op_status::inserted;
  report_rebuilt(0, inserted, &t.counters->max_displacement, live);
}

}  // namespace hs::linear::kernels
