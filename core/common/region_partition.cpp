#include "core/common/region_partition.hpp"

namespace hs::detail {

bool partition_scratch::reserve(std::uint64_t n, std::uint32_t regions) {
  const std::uint64_t chunks = (n + k_partition_chunk - 1) / k_partition_chunk;
  if (capacity >= n && offsets.size() >= chunks * regions + 2 * regions) return true;
  try {
    keys = {};
    values = {};
    offsets = {};
    keys = buffer<key_type>(memory_space::device, n);
    values = buffer<value_type>(memory_space::device, n);
    offsets = buffer<unsigned>(memory_space::device, chunks * regions + 2 * regions);
    capacity = n;
    return true;
  } catch (const std::exception&) {
    keys = {};
    values = {};
    offsets = {};
    capacity = 0;
    return false;
  }
}

}  // namespace hs::detail
