// The linear table's region function for the shared partition kernels: home slot >> shift.
#include "core/linear/linear_partition.hpp"

#include <algorithm>

#include "core/common/bit_math.hpp"
#include "core/common/region_partition.cuh"
#include "core/linear/linear_layout.hpp"

namespace hs::linear::detail {

namespace {

template <class Hash, class K>
struct home_region {
  index_arg_t<K> mask;  // 32-bit for 32-bit keys (at most 2^32 slots), else 64-bit
  int shift;
  __device__ std::uint32_t operator()(K k) const {
    return static_cast<std::uint32_t>(home_slot<Hash>(k, mask) >> shift);
  }
};

}  // namespace

int region_shift_for(std::uint64_t capacity) {
  return std::max(k_min_region_shift, floor_log2_64(capacity) - floor_log2(k_max_regions));
}

std::uint32_t regions_for(std::uint64_t capacity) {
  return static_cast<std::uint32_t>(
      std::max<std::uint64_t>(1, capacity >> region_shift_for(capacity)));
}

template <class K, class V>
void partition_by_region(hash_kind h, const K* keys, const V* values, std::uint64_t n,
                         std::uint64_t mask, int shift, basic_partition_scratch<K, V>& scratch,
                         stream_view s) {
  const std::uint64_t slots = mask + 1;
  const auto regions = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, slots >> shift));
  dispatch_hash(h, [&](auto hash) {
    const home_region<decltype(hash), K> region{static_cast<index_arg_t<K>>(mask), shift};
    hs::detail::partition_by_region(region, regions, keys, values, n, scratch, s);
  });
}

template void partition_by_region(hash_kind, const key_type*, const value_type*, std::uint64_t,
                                  std::uint64_t, int,
                                  basic_partition_scratch<key_type, value_type>&, stream_view);
template void partition_by_region(hash_kind, const wide_key*, const wide_value*, std::uint64_t,
                                  std::uint64_t, int,
                                  basic_partition_scratch<wide_key, wide_value>&, stream_view);

}  // namespace hs::linear::detail
