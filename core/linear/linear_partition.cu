// The linear table's region function for the shared partition kernels: home slot >> shift.
#include "core/linear/linear_partition.hpp"

#include <algorithm>

#include "core/common/bit_math.hpp"
#include "core/common/region_partition.cuh"
#include "core/linear/linear_layout.hpp"

namespace hs::linear::detail {

namespace {

template <class Hash>
struct home_region {
  std::uint32_t mask;
  int shift;
  __device__ std::uint32_t operator()(key_type k) const {
    return home_slot<Hash>(k, mask) >> shift;
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

void partition_by_region(hash_kind h, const key_type* keys, const value_type* values,
                         std::uint64_t n, std::uint32_t mask, int shift, partition_scratch& scratch,
                         stream_view s) {
  const std::uint64_t slots = std::uint64_t{mask} + 1;
  const auto regions = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, slots >> shift));
  dispatch_hash(h, [&](auto hash) {
    hs::detail::partition_by_region(home_region<decltype(hash)>{mask, shift}, regions, keys, values,
                                    n, scratch, s);
  });
}

}  // namespace hs::linear::detail
