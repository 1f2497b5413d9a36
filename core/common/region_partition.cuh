// The region partition's kernels (region_partition.hpp), for any region function: a device-callable
// `std::uint32_t operator()(key_type) const` giving a key's region (< regions <= k_max_regions).
// Include from the .cu file that instantiates partition_by_region or partition_nested.
// Offsets[c][r] = base of region r + pairs of region r in chunks before c; with them every block
// knows where its pairs go before it writes, so no global atomics are needed.
//
// The nested partition runs a second pass inside each region of the first: the input is cut into
// chunks that never cross a region, so each chunk's histogram still has at most k_max_regions
// (sub-region) bins, and the result is grouped by (region, sub-region), up to 2^18 groups.
#pragma once
#include <cuda_runtime.h>

#include "core/common/cuda_check.hpp"
#include "core/common/region_partition.hpp"
#include "core/common/stream.hpp"

namespace hs::detail {

namespace partition_kernels {

inline constexpr unsigned k_block = 256;
inline constexpr unsigned k_items = k_partition_chunk / k_block;  // 32 pairs per thread

/// One chunk of input: where its pairs start, how many, and the output bases of its bins.
struct chunk_span {
  std::uint64_t begin = 0;
  unsigned count = 0;
  const unsigned* bases = nullptr;
};

/// The plain partition's chunks: consecutive k_partition_chunk pairs of the input.
struct flat_chunks {
  std::uint64_t n;
  const unsigned* bases;  // per region
  __device__ chunk_span operator()(unsigned c) const {
    const std::uint64_t begin = std::uint64_t{c} * k_partition_chunk;
    const unsigned count = static_cast<unsigned>(n - begin < k_partition_chunk ? n - begin : k_partition_chunk);
    return {begin, count, bases};
  }
};

/// The nested pass's chunks: region r's pairs (from its base, outer_totals[r] of them) cut into
/// chunks numbered from chunk_start[r]; chunks past chunk_start[regions] are empty.
struct nested_chunks {
  const unsigned* chunk_start;  // regions + 1
  const unsigned* outer_totals;
  const unsigned* outer_bases;
  const unsigned* sub_bases;  // regions x subs
  std::uint32_t regions, subs;
  __device__ chunk_span operator()(unsigned c) const {
    if (c >= chunk_start[regions]) return {};
    std::uint32_t lo = 0, hi = regions;  // the last r with chunk_start[r] <= c
    while (hi - lo > 1) {
      const std::uint32_t mid = (lo + hi) / 2;
      if (chunk_start[mid] <= c) lo = mid;
      else hi = mid;
    }
    const unsigned local = (c - chunk_start[lo]) * k_partition_chunk;
    const unsigned left = outer_totals[lo] - local;
    return {std::uint64_t{outer_bases[lo]} + local, left < k_partition_chunk ? left : k_partition_chunk,
            sub_bases + std::uint64_t{lo} * subs};
  }
};

/// One block per chunk: the chunk's count per region, as row c of the offsets matrix.
template <class RegionOf, class Chunks>
__global__ void __launch_bounds__(k_block) chunk_histogram(RegionOf region_of, Chunks chunks, const key_type* keys,
                                                           std::uint32_t regions, unsigned* counts) {
  __shared__ unsigned hist[k_max_regions];
  for (unsigned r = threadIdx.x; r < regions; r += blockDim.x) hist[r] = 0;
  __syncthreads();
  const chunk_span span = chunks(blockIdx.x);
  for (unsigned j = 0; j < k_items; ++j) {
    const unsigned local = j * k_block + threadIdx.x;
    if (local < span.count) atomicAdd(&hist[region_of(keys[span.begin + local])], 1u);
  }
  __syncthreads();
  for (unsigned r = threadIdx.x; r < regions; r += blockDim.x)
    counts[std::uint64_t{blockIdx.x} * regions + r] = hist[r];
}

/// Exclusive scan of one value per thread over a block of k_block threads; *all gets the sum.
__device__ inline unsigned block_exclusive_scan(unsigned v, unsigned* all) {
  __shared__ unsigned warp_sums[k_block / 32];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  unsigned incl = v;
  for (unsigned off = 1; off < 32; off <<= 1) {
    const unsigned up = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += up;
  }
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  unsigned before = 0, sum = 0;
  for (unsigned w = 0; w < k_block / 32; ++w) {
    before += w < warp ? warp_sums[w] : 0;
    sum += warp_sums[w];
  }
  __syncthreads();  // warp_sums is reused by the next call
  *all = sum;
  return before + incl - v;
}

/// One block per region: exclusive prefix of the region's column over chunks (in place), and the
/// region's total.
static __global__ void __launch_bounds__(k_block) column_scan(unsigned* counts, std::uint32_t chunks, std::uint32_t regions,
                                                      unsigned* totals) {
  const unsigned r = blockIdx.x;
  unsigned carry = 0;
  for (std::uint32_t base = 0; base < chunks; base += k_block) {
    const std::uint32_t c = base + threadIdx.x;
    const unsigned v = c < chunks ? counts[std::uint64_t{c} * regions + r] : 0;
    unsigned all = 0;
    const unsigned before = block_exclusive_scan(v, &all);
    if (c < chunks) counts[std::uint64_t{c} * regions + r] = carry + before;
    carry += all;
  }
  if (threadIdx.x == 0) totals[r] = carry;
}

/// Region bases: exclusive scan of the totals (at most k_max_regions), in one block.
static __global__ void region_bases(const unsigned* totals, std::uint32_t regions, unsigned* bases) {
  if (threadIdx.x == 0) {
    unsigned sum = 0;
    for (std::uint32_t r = 0; r < regions; ++r) {
      bases[r] = sum;
      sum += totals[r];
    }
  }
}

/// Nested pass, one block: where each region's chunks start (regions + 1 entries).
static __global__ void __launch_bounds__(k_block) nested_chunk_starts(const unsigned* outer_totals, std::uint32_t regions,
                                                              unsigned* chunk_start) {
  unsigned carry = 0;
  for (std::uint32_t base = 0; base < regions; base += k_block) {
    const std::uint32_t r = base + threadIdx.x;
    const unsigned v = r < regions ? (outer_totals[r] + k_partition_chunk - 1) / k_partition_chunk : 0;
    unsigned all = 0;
    const unsigned before = block_exclusive_scan(v, &all);
    if (r < regions) chunk_start[r] = carry + before;
    carry += all;
  }
  if (threadIdx.x == 0) chunk_start[regions] = carry;
}

/// Nested pass, one block per region: each sub-region's column over the region's chunks (in
/// place), its total, and its base (the region's base + the sub-regions before it).
static __global__ void __launch_bounds__(k_block) nested_column_scan(unsigned* counts, const unsigned* chunk_start,
                                                             const unsigned* outer_bases, std::uint32_t subs,
                                                             unsigned* sub_totals, unsigned* sub_bases) {
  const unsigned r = blockIdx.x;
  unsigned carry = outer_bases[r];
  for (std::uint32_t base = 0; base < subs; base += k_block) {
    const std::uint32_t sub = base + threadIdx.x;
    unsigned total = 0;
    if (sub < subs) {
      const unsigned end = chunk_start[r + 1];
      for (unsigned c = chunk_start[r]; c < end; c += 8) {  // 8 loads in flight, not one
        unsigned v[8];
#pragma unroll
        for (unsigned i = 0; i < 8; ++i) v[i] = c + i < end ? counts[std::uint64_t{c + i} * subs + sub] : 0;
#pragma unroll
        for (unsigned i = 0; i < 8; ++i) {
          if (c + i < end) counts[std::uint64_t{c + i} * subs + sub] = total;
          total += v[i];
        }
      }
      sub_totals[std::uint64_t{r} * subs + sub] = total;
    }
    unsigned all = 0;
    const unsigned before = block_exclusive_scan(total, &all);
    if (sub < subs) sub_bases[std::uint64_t{r} * subs + sub] = carry + before;
    carry += all;
  }
}

/// One block per chunk: a counting sort of the chunk's pairs by region in shared memory, then each
/// region's run is copied to bases[r] + offset[c][r] by consecutive threads (coalesced stores).
template <class RegionOf, class Chunks>
__global__ void __launch_bounds__(k_block) scatter(RegionOf region_of, Chunks chunks, const key_type* keys,
                                                   const value_type* values, std::uint32_t regions,
                                                   const unsigned* offsets, key_type* out_keys, value_type* out_values) {
  __shared__ key_type sk[k_partition_chunk];
  __shared__ value_type sv[k_partition_chunk];
  __shared__ unsigned short sr[k_partition_chunk];
  __shared__ unsigned start[k_max_regions];  // first position of region r in the sorted chunk
  __shared__ unsigned fill[k_max_regions];   // counts, then next free position
  for (unsigned r = threadIdx.x; r < regions; r += blockDim.x) fill[r] = 0;
  __syncthreads();
  const chunk_span span = chunks(blockIdx.x);
  key_type k[k_items];
  value_type v[k_items];
  unsigned short reg[k_items];
#pragma unroll
  for (unsigned j = 0; j < k_items; ++j) {
    const unsigned local = j * k_block + threadIdx.x;
    if (local < span.count) {
      k[j] = keys[span.begin + local];
      v[j] = values[span.begin + local];
      reg[j] = static_cast<unsigned short>(region_of(k[j]));
      atomicAdd(&fill[reg[j]], 1u);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {  // exclusive scan of at most 512 counts
    unsigned sum = 0;
    for (unsigned r = 0; r < regions; ++r) {
      start[r] = sum;
      sum += fill[r];
      fill[r] = start[r];
    }
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < k_items; ++j) {
    const unsigned local = j * k_block + threadIdx.x;
    if (local < span.count) {
      const unsigned pos = atomicAdd(&fill[reg[j]], 1u);
      sk[pos] = k[j];
      sv[pos] = v[j];
      sr[pos] = reg[j];
    }
  }
  __syncthreads();
  const std::uint64_t row = std::uint64_t{blockIdx.x} * regions;
  for (unsigned p = threadIdx.x; p < span.count; p += blockDim.x) {
    const unsigned r = sr[p];
    const unsigned dst = span.bases[r] + offsets[row + r] + (p - start[r]);
    out_keys[dst] = sk[p];
    out_values[dst] = sv[p];
  }
}

}  // namespace partition_kernels

/// @brief Writes the n pairs (n < 2^32) grouped by region into the scratch (reserved for n pairs
/// and `regions` regions); order within a region follows the input, chunk by chunk.
template <class RegionOf>
void partition_by_region(RegionOf region_of, std::uint32_t regions, const key_type* keys, const value_type* values,
                         std::uint64_t n, partition_scratch& scratch, stream_view s) {
  using namespace partition_kernels;
  const auto stream = static_cast<cudaStream_t>(s.handle);
  const auto chunks = static_cast<std::uint32_t>((n + k_partition_chunk - 1) / k_partition_chunk);
  unsigned* counts = scratch.offsets.data();
  unsigned* totals = counts + std::uint64_t{chunks} * regions;
  unsigned* bases = totals + regions;
  chunk_histogram<<<chunks, k_block, 0, stream>>>(region_of, flat_chunks{n, nullptr}, keys, regions, counts);
  column_scan<<<regions, k_block, 0, stream>>>(counts, chunks, regions, totals);
  region_bases<<<1, 32, 0, stream>>>(totals, regions, bases);
  scatter<<<chunks, k_block, 0, stream>>>(region_of, flat_chunks{n, bases}, keys, values, regions, counts,
                                          scratch.keys.data(), scratch.values.data());
  HS_CUDA_CHECK_LAUNCH();
}

/// @brief Groups the n pairs (n < 2^32) by (region_of, sub_of): a pass by region into the
/// scratch's middle copy, then one by sub-region within each region into its output copy. Group
/// (r, u) then holds out pairs [group_bases[r * subs + u], + group_totals[...]) (nested_view).
template <class RegionOf, class SubOf>
void partition_nested(RegionOf region_of, std::uint32_t regions, SubOf sub_of, std::uint32_t subs, const key_type* keys,
                      const value_type* values, std::uint64_t n, const nested_view& v, stream_view s) {
  using namespace partition_kernels;
  const auto stream = static_cast<cudaStream_t>(s.handle);
  chunk_histogram<<<v.chunks, k_block, 0, stream>>>(region_of, flat_chunks{n, nullptr}, keys, regions, v.counts);
  column_scan<<<regions, k_block, 0, stream>>>(v.counts, v.chunks, regions, v.outer_totals);
  region_bases<<<1, 32, 0, stream>>>(v.outer_totals, regions, v.outer_bases);
  scatter<<<v.chunks, k_block, 0, stream>>>(region_of, flat_chunks{n, v.outer_bases}, keys, values, regions, v.counts,
                                            v.mid_keys, v.mid_values);
  nested_chunk_starts<<<1, k_block, 0, stream>>>(v.outer_totals, regions, v.chunk_start);
  const nested_chunks inner{v.chunk_start, v.outer_totals, v.outer_bases, v.group_bases, regions, subs};
  chunk_histogram<<<v.inner_chunks, k_block, 0, stream>>>(sub_of, inner, v.mid_keys, subs, v.counts);
  nested_column_scan<<<regions, k_block, 0, stream>>>(v.counts, v.chunk_start, v.outer_bases, subs, v.group_totals,
                                                      v.group_bases);
  scatter<<<v.inner_chunks, k_block, 0, stream>>>(sub_of, inner, v.mid_keys, v.mid_values, subs, v.counts, v.out_keys,
                                                  v.out_values);
  HS_CUDA_CHECK_LAUNCH();
}

}  // namespace hs::detail
