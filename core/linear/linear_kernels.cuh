// Bulk kernels of the linear family: one group of G threads per operation.
#pragma once
#include <cstdint>

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

template <class Hash, int G, bool Guarded>
__global__ void __launch_bounds__(k_block) insert(linear_ref<Hash, G> t, const key_type* keys,
                                                   const value_type* values, op_status* status,
                                                   std::uint64_t n, std::uint64_t cas_first_ops) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;  // whole groups leave together: a group shares its index
  const auto g = this_group<G>();
  // Operations early in the batch meet a nearly empty table: those claim their home slot blindly.
  const op_status s = t.template insert<Guarded>(g, stream_in(keys + i), stream_in(values + i), i < cas_first_ops);
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
                                                  op_status* status, std::uint64_t n) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;
  const auto g = this_group<G>();
  const op_status s = t.erase(g, stream_in(keys + i), t.counters->max_displacement);
  if (status && g.rank() == 0) stream_out(status + i, s);
}

/// Mixed batch: each operation runs concurrently with the others, in no defined order.
template <class Hash, int G, bool Guarded>
__global__ void __launch_bounds__(k_block) apply(linear_ref<Hash, G> t, const op_kind* kinds,
                                                  const key_type* keys, const value_type* values,
                                                  value_type* results, op_status* status,
                                                  std::uint64_t n, std::uint64_t cas_first_ops) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;
  const auto g = this_group<G>();
  const key_type k = stream_in(keys + i);
  value_type found = k_empty;
  op_status s;
  switch (stream_in(kinds + i)) {
    case op_kind::insert:
      s = t.template insert<Guarded>(g, k, stream_in(values + i), i < cas_first_ops);
      break;
    case op_kind::find:
      s = t.find(g, k, found, *reinterpret_cast<volatile unsigned*>(&t.counters->max_displacement));
      break;
    case op_kind::erase:
      s = t.erase(g, k, *reinterpret_cast<volatile unsigned*>(&t.counters->max_displacement));
      break;
    default: s = op_status::none;
  }
  if (g.rank() == 0) {
    if (results) stream_out(results + i, found);
    if (status) stream_out(status + i, s);
  }
}

}  // namespace hs::linear::kernels
