// Bulk kernels of the linear family: one group of G threads per operation.
#pragma once
#include <cstdint>

#include "core/common/warp_reduce.cuh"
#include "core/linear/linear_rebuild.hpp"
#include "core/linear/linear_ref.cuh"

namespace hs::linear::kernels {

inline constexpr int k_block = 256;

// Inputs and outputs are touched once: load and store them with the streaming (evict-first)
// policy so they do not push table lines out of L2 between a probe's load and its CAS.
template <class T>
__device__ __forceinline__ T stream_in(const T* p) { return __ldcs(p); }
template <class T>
__device__ __forceinline__ void stream_out(T* p, T v) { __stcs(p, v); }
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
template <bool Guarded, class Hash, int G>
__device__ __forceinline__ op_status insert_one(const linear_ref<Hash, G>& t, const coop_group<G>& g, key_type k,
                                                value_type v, bool cas_first, bool reuse) {
  if constexpr (G == 1) {
    if (reuse) return t.template insert_reusing<Guarded>(k, v);
  }
  return t.template insert<Guarded>(g, k, v, cas_first);
}

template <class Hash, int G, bool Guarded>
__global__ void __launch_bounds__(k_block) insert(linear_ref<Hash, G> t, const key_type* keys,
                                                   const value_type* values, op_status* status,
                                                   std::uint64_t n, std::uint64_t cas_first_ops, bool reuse) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;  // whole groups leave together: a group shares its index
  const auto g = this_group<G>();
  // Operations early in the batch meet a nearly empty table: those claim their home slot blindly.
  const op_status s =
      insert_one<Guarded>(t, g, stream_in(keys + i), stream_in(values + i), i < cas_first_ops, reuse);
  if (status && g.rank() == 0) stream_out(status + i, s);
}

template <class Hash, int G>
__global__ void __launch_bounds__(k_block) find(linear_ref<Hash, G> t, const key_type* keys,
                                                 value_type* values, op_status* status,
                                                 std::uint64_t n) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;
  const auto g = this_group<G>();
  value_type v;
  const op_status s = t.find(g, stream_in(keys + i), v, t.counters->max_displacement);
  if (g.rank() == 0) {
    stream_out(values + i, v);
    if (status) stream_out(status + i, s);
  }
}

template <class Hash, int G>
__global__ void __launch_bounds__(k_block) erase(linear_ref<Hash, G> t, const key_type* keys,
                                                  op_status* status, std::uint64_t n, bool tombstone) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;
  const auto g = this_group<G>();
  const op_status s = t.erase(g, stream_in(keys + i), t.counters->max_displacement, tombstone);
  if (status && g.rank() == 0) stream_out(status + i, s);
}

/// Which operations of a mixed batch a launch runs: all of them at once (value mode), or, in
/// tombstone mode, inserts with lookups first and erases after, as two launches.
enum class apply_phase : int { all, inserts_and_finds, erases };

/// Mixed batch: each operation runs concurrently with the others of its launch, in no defined order.
template <class Hash, int G, bool Guarded>
__global__ void __launch_bounds__(k_block) apply(linear_ref<Hash, G> t, const op_kind* kinds,
                                                  const key_type* keys, const value_type* values,
                                                  value_type* results, op_status* status,
                                                  std::uint64_t n, std::uint64_t cas_first_ops,
                                                  apply_phase phase, bool tombstone) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;
  const auto g = this_group<G>();
  const op_kind kind = stream_in(kinds + i);
  const bool erase_op = kind == op_kind::erase;
  if ((phase == apply_phase::erases && !erase_op) || (phase == apply_phase::inserts_and_finds && erase_op)) return;
  const key_type k = stream_in(keys + i);
  value_type found = k_empty;
  op_status s;
  switch (kind) {
    case op_kind::insert:
      s = insert_one<Guarded>(t, g, k, stream_in(values + i), i < cas_first_ops, tombstone);
      break;
    case op_kind::find:
      s = t.find(g, k, found, *reinterpret_cast<volatile unsigned*>(&t.counters->max_displacement));
      break;
    case op_kind::erase:
      s = t.erase(g, k, *reinterpret_cast<volatile unsigned*>(&t.counters->max_displacement), tombstone);
      break;
    default: s = op_status::none;
  }
  if (g.rank() == 0) {
    if (results) stream_out(results + i, found);
    if (status) stream_out(status + i, s);
  }
}

/// Rebuild: every live entry of the old slots into a fresh table (one thread per old slot).
template <class Hash>
__global__ void __launch_bounds__(k_block) rehash(const slot_word* old, std::uint64_t old_capacity,
                                                   linear_ref<Hash, 1> t) {
  const auto g = this_group<1>();
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < old_capacity;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const slot_word w = old[i];
    if (classify(w) == slot_state::live) t.template insert<false>(g, slot_key(w), slot_value(w), false);
  }
}

/// One thread per word of starts: rebuilds each cluster that starts in its 32 slots (see
/// linear_rebuild.hpp), then raises the table's probe bound once and adds the live keys it
/// placed to `live` (the check that nothing was lost, without another pass over the table).
template <class Hash>
__global__ void __launch_bounds__(k_block) rebuild_clusters(slot_word* old, std::uint64_t old_capacity,
                                                            const std::uint32_t* bits, slot_word* out,
                                                            std::uint64_t out_capacity, unsigned* max_displacement,
                                                            unsigned long long* live) {
  const std::uint64_t words = (old_capacity + 31) / 32;
  const std::uint64_t w = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  unsigned longest = 0, placed = 0;
  if (w < words) {
    unsigned starts = bits[w];
    while (starts) {
      const int b = __ffs(starts) - 1;
      starts &= starts - 1;
      const auto s = static_cast<std::uint32_t>(w * 32 + b);
      const rebuilt_cluster r = rebuild_cluster<Hash>(old, static_cast<std::uint32_t>(old_capacity - 1), s, out,
                                                      static_cast<std::uint32_t>(out_capacity - 1));
      longest = r.longest > longest ? r.longest : longest;
      placed += r.live;
    }
  }
  const unsigned most = warp_max(longest);
  const unsigned sum = warp_sum(placed);
  if ((threadIdx.x & 31) == 0) {
    if (most) atomicMax(max_displacement, most);
    if (sum) atomicAdd(live, static_cast<unsigned long long>(sum));
  }
}

}  // namespace hs::linear::kernels
