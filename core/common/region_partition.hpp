// Region partitioning of large insert batches, shared by the table families. Pairs are reordered
// by the table region their first home (a slot, a bucket) lies in, so that the insert kernel then
// works through the table about one region at a time: its reads and writes hit lines already in
// L2, and each line is fetched from and written back to memory about once, instead of once per
// operation. A batch promises no order among its operations, so the reorder changes no result
// (it is used only when no per-operation statuses are asked for).
//
// The reorder avoids global atomics and scattered stores: per-chunk region histograms, a scan that
// turns them into output offsets, and a scatter that sorts each chunk by region in shared memory
// and then writes every region's pairs of the chunk as one coalesced run (region_partition.cuh).
#pragma once
#include <cstdint>

#include "core/common/memory.hpp"
#include "core/common/types.hpp"

namespace hs::detail {

/// At most this many regions (a chunk's histogram lives in shared memory).
inline constexpr std::uint32_t k_max_regions = 512;
/// Pairs of 32-bit keys and values per chunk (one thread block each): 32 KiB of pairs fit in
/// shared memory for the sort.
inline constexpr std::uint32_t k_partition_chunk = 4096;
/// Pairs of K keys and V values per chunk: the same 32 KiB, so 2048 pairs of 64-bit keys and
/// values (sorted in shared memory as 32-bit pairs are: sorting their indices instead and reading
/// each pair again from the input when written took the scatter 1.71 ms for 2^26 pairs on the
/// H100, reading 2.56 GB for 1.07 GB of pairs).
template <class K, class V>
inline constexpr std::uint32_t k_chunk_pairs =
    k_partition_chunk * 8 / static_cast<std::uint32_t>(sizeof(K) + sizeof(V));

/// @brief Device scratch for partitioning up to `n` pairs of K keys and V values (grown on demand,
/// kept).
template <class K, class V>
struct basic_partition_scratch {
  buffer<K> keys;
  buffer<V> values;
  buffer<unsigned> offsets;  ///< chunks x regions, then region totals and bases
  std::uint64_t capacity = 0;
  /// Grows to hold n pairs in `regions` regions; false (and empty) if memory is short.
  bool reserve(std::uint64_t n, std::uint32_t regions);
};
using partition_scratch = basic_partition_scratch<key_type, value_type>;
extern template struct basic_partition_scratch<key_type, value_type>;
extern template struct basic_partition_scratch<wide_key, wide_value>;

/// @brief Where a nested partition (partition_nested in region_partition.cuh) of n pairs writes:
/// the pass by region the middle copy, the pass by sub-region the output copy, both as packed
/// words (key in the low half, value in the high half).
struct nested_view {
  std::uint64_t* mid_words = nullptr;
  std::uint64_t* out_words = nullptr;
  unsigned* counts = nullptr;        ///< chunk histograms of either pass
  unsigned* outer_totals = nullptr;  ///< regions
  unsigned* outer_bases = nullptr;   ///< regions
  unsigned* chunk_start = nullptr;   ///< regions + 1: the second pass's chunks of each region
  unsigned* group_totals = nullptr;  ///< regions x subs
  unsigned* group_bases = nullptr;   ///< regions x subs
  std::uint32_t chunks = 0;          ///< first pass
  std::uint32_t inner_chunks = 0;    ///< second pass, at most (chunks no region shares)
};

/// Offsets (unsigned) a nested partition of n pairs into regions x subs groups needs.
std::uint64_t nested_offsets_size(std::uint64_t n, std::uint32_t regions, std::uint32_t subs);
/// The nested view of `offsets` (nested_offsets_size entries) and the given copies (n words each).
nested_view nested_layout(unsigned* offsets, std::uint64_t n, std::uint32_t regions,
                          std::uint32_t subs, std::uint64_t* mid_words, std::uint64_t* out_words);

}  // namespace hs::detail
