#include "core/common/region_partition.hpp"

#include <algorithm>

namespace hs::detail {

namespace {
struct nested_counts {
  std::uint64_t chunks, inner_chunks, matrix;
};
nested_counts nested_counts_for(std::uint64_t n, std::uint32_t regions, std::uint32_t subs) {
  const std::uint64_t chunks = (n + k_partition_chunk - 1) / k_partition_chunk;
  const std::uint64_t inner = chunks + regions;  // each region adds at most one partial chunk
  return {chunks, inner, std::max(chunks * regions, inner * subs)};
}
}  // namespace

std::uint64_t nested_offsets_size(std::uint64_t n, std::uint32_t regions, std::uint32_t subs) {
  const nested_counts c = nested_counts_for(n, regions, subs);
  return c.matrix + 3 * std::uint64_t{regions} + 1 + 2 * std::uint64_t{regions} * subs;
}

nested_view nested_layout(unsigned* offsets, std::uint64_t n, std::uint32_t regions,
                          std::uint32_t subs, std::uint64_t* mid_words, std::uint64_t* out_words) {
  const nested_counts c = nested_counts_for(n, regions, subs);
  nested_view v;
  v.mid_words = mid_words;
  v.out_words = out_words;
  v.counts = offsets;
  v.outer_totals = v.counts + c.matrix;
  v.outer_bases = v.outer_totals + regions;
  v.chunk_start = v.outer_bases + regions;
  v.group_totals = v.chunk_start + regions + 1;
  v.group_bases = v.group_totals + std::uint64_t{regions} * subs;
  v.chunks = static_cast<std::uint32_t>(c.chunks);
  v.inner_chunks = static_cast<std::uint32_t>(c.inner_chunks);
  return v;
}

template <class K, class V>
bool basic_partition_scratch<K, V>::reserve(std::uint64_t n, std::uint32_t regions) {
  const std::uint64_t chunks = (n + k_chunk_pairs<K, V> - 1) / k_chunk_pairs<K, V>;
  if (capacity >= n && offsets.size() >= chunks * regions + 2 * regions) return true;
  try {
    keys = {};
    values = {};
    offsets = {};
    keys = buffer<K>(memory_space::device, n);
    values = buffer<V>(memory_space::device, n);
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

template struct basic_partition_scratch<key_type, value_type>;
template struct basic_partition_scratch<wide_key, wide_value>;

}  // namespace hs::detail
