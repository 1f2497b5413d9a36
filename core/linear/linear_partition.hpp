// Region partitioning for large bulk inserts. Pairs are reordered by the table region (16 MiB or
// more) their home slot lies in, so that the insert kernel then works through the table about one
// region at a time: probes and CAS hit lines already in L2, and each line is fetched from and
// written back to memory about once. Measured on the H200 (bench locality): the insert kernel is
// 1.6x faster on region-grouped keys than on random ones.
//
// The reorder avoids global atomics and scattered stores: per-chunk region histograms, a scan that
// turns them into output offsets, and a scatter that sorts each chunk by region in shared memory
// and then writes every region's pairs of the chunk as one coalesced run.
#pragma once
#include <cstdint>

#include "core/common/hash.hpp"
#include "core/common/memory.hpp"
#include "core/common/stream.hpp"
#include "core/common/types.hpp"

namespace hs::linear::detail {

/// Regions are at least 2^21 slots (16 MiB, a fraction of the L2), and at most this many.
inline constexpr std::uint32_t k_max_regions = 512;
inline constexpr int k_min_region_shift = 21;
/// Pairs per chunk (one thread block each): 32 KiB of pairs fit in shared memory for the sort.
inline constexpr std::uint32_t k_partition_chunk = 4096;

/// @brief log2 of the slots per region for a table of `capacity` slots.
int region_shift_for(std::uint64_t capacity);

/// @brief Device scratch for partitioning up to `n` pairs (grown on demand, kept).
struct partition_scratch {
  buffer<key_type> keys;
  buffer<value_type> values;
  buffer<unsigned> offsets;  ///< chunks x regions, then region totals and bases
  std::uint64_t capacity = 0;
  /// Grows to hold n pairs for a table of `slots`; false (and empty) if memory is short.
  bool reserve(std::uint64_t n, std::uint64_t slots);
};

/// @brief Writes the n pairs (n < 2^32) grouped by region (region = home >> shift) into the
/// scratch; order within a region follows the input, chunk by chunk.
void partition_by_region(hash_kind h, const key_type* keys, const value_type* values, std::uint64_t n,
                         std::uint32_t mask, int shift, partition_scratch& scratch, stream_view s);

}  // namespace hs::linear::detail
