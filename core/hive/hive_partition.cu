// The hive table's region function for the shared partition kernels (core/common/region_partition.hpp):
// a key's first candidate bucket, under the table's geometry of the moment, >> shift.
#include "core/common/region_partition.cuh"

#include <algorithm>

#include "core/common/bit_math.hpp"
#include "core/hive/hive_launch.hpp"

namespace hs::hive {

namespace {

struct first_candidate_region {
  hive_ref r;
  int shift;
  __device__ std::uint32_t operator()(key_type k) const {
    return static_cast<std::uint32_t>(r.geo.address(hash_with(r.hashes.fns[0], k)) >> shift);
  }
};

/// Regions of at least 2^21 slots (16 MiB of words, a fraction of the L2), at most k_max_regions.
int region_shift(const hive_ref& t) {
  const int min_shift = 21 - floor_log2(static_cast<std::uint32_t>(t.slots));
  const int for_count = floor_log2_64(2 * t.geo.buckets() - 1) - floor_log2(detail::k_max_regions);  // ceil log2 - 9
  return std::max(min_shift, for_count);
}

}  // namespace

std::uint32_t partition_regions(const hive_ref& t) {
  return static_cast<std::uint32_t>(((t.geo.buckets() - 1) >> region_shift(t)) + 1);
}

void launch_partition(const hive_ref& t, const key_type* keys, const value_type* values, std::uint64_t n,
                      detail::partition_scratch& scratch, stream_view s) {
  detail::partition_by_region(first_candidate_region{t, region_shift(t)}, partition_regions(t), keys, values, n, scratch, s);
}

}  // namespace hs::hive
