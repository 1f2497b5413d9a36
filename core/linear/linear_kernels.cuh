// Bulk kernels of the linear family: one group of G threads per operation.
#pragma once
#include <cstdint>

#include "core/linear/linear_ref.cuh"

namespace hs::linear::kernels {

inline constexpr int k_block = 256;

template <int G>
__device__ __forceinline__ std::uint64_t op_index() {
  return (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / G;
}

template <class Hash, int G, bool Guarded>
__global__ void __launch_bounds__(k_block) insert(linear_ref<Hash, G> t, const key_type* keys,
                                                   const value_type* values, op_status* status,
                                                   std::uint64_t n) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;  // whole groups leave together: a group shares its index
  const auto g = this_group<G>();
  const std::uint32_t known_max = t.counters->max_displacement;
  const op_status s = t.template insert<Guarded>(g, keys[i], values[i], known_max);
  if (status && g.rank() == 0) status[i] = s;
}

template <class Hash, int G>
__global__ void __launch_bounds__(k_block) find(linear_ref<Hash, G> t, const key_type* keys,
                                                 value_type* values, op_status* status,
                                                 std::uint64_t n) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;
  const auto g = this_group<G>();
  value_type v;
  const op_status s = t.find(g, keys[i], v, t.counters->max_displacement);
  if (g.rank() == 0) {
    values[i] = v;
    if (status) status[i] = s;
  }
}

template <class Hash, int G>
__global__ void __launch_bounds__(k_block) erase(linear_ref<Hash, G> t, const key_type* keys,
                                                  op_status* status, std::uint64_t n) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;
  const auto g = this_group<G>();
  const op_status s = t.erase(g, keys[i], t.counters->max_displacement);
  if (status && g.rank() == 0) status[i] = s;
}

/// Mixed batch: each operation runs concurrently with the others, in no defined order.
template <class Hash, int G, bool Guarded>
__global__ void __launch_bounds__(k_block) apply(linear_ref<Hash, G> t, const op_kind* kinds,
                                                  const key_type* keys, const value_type* values,
                                                  value_type* results, op_status* status,
                                                  std::uint64_t n) {
  const std::uint64_t i = op_index<G>();
  if (i >= n) return;
  const auto g = this_group<G>();
  const key_type k = keys[i];
  value_type found = k_empty;
  op_status s;
  switch (kinds[i]) {
    case op_kind::insert:
      s = t.template insert<Guarded>(g, k, values[i], t.counters->max_displacement);
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
    if (results) results[i] = found;
    if (status) status[i] = s;
  }
}

}  // namespace hs::linear::kernels
