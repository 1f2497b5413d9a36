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
/// Pairs per chunk (one thread block each): 32 KiB of pairs fit in shared memory for the sort.
inline constexpr std::uint32_t k_partition_chunk = 4096;

/// @brief Device scratch for partitioning up to `n` pairs (grown on demand, kept).
struct partition_scratch {
  buffer<key_type> keys;
  buffer<value_type> values;
  buffer<unsigned> offsets;  ///< chunks x regions, then region totals and bases
  std::uint64_t capacity = 0;
  /// Grows to hold n pairs in `regions` regions; false (and empty) if memory is short.
  bool reserve(std::uint64_t n, std::uint32_t regions);
};

}  // namespace hs::detail
