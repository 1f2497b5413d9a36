// The region partition's kernels (region_partition.hpp), for any region function: a device-callable
// `std::uint32_t operator()(key_type) const` giving a key's region (< regions <= k_max_regions).
// Include from the .cu file that instantiates partition_by_region. Offsets[c][r] = base of region r
// + pairs of region r in chunks before c; with them every block knows where its pairs go before it
// writes, so no global atomics are needed.
#pragma once
#include <cuda_runtime.h>

#include "core/common/cuda_check.hpp"
#include "core/common/region_partition.hpp"
#include "core/common/stream.hpp"

namespace hs::detail {

namespace partition_kernels {

inline constexpr unsigned k_block = 256;
inline constexpr unsigned k_items = k_partition_chunk / k_block;  // 32 pairs per thread

/// One block per chunk: the chunk's count per region, as row c of the offsets matrix.
template <class RegionOf>
__global__ void __launch_bounds__(k_block) chunk_histogram(RegionOf region_of, const key_type* keys, std::uint64_t n,
                                                           std::uint32_t regions, unsigned* counts) {
  __shared__ unsigned hist[k_max_regions];
  for (unsigned r = threadIdx.x; r < regions; r += blockDim.x) hist[r] = 0;
  __syncthreads();
  const std::uint64_t begin = std::uint64_t{blockIdx.x} * k_partition_chunk;
  for (unsigned j = 0; j < k_items; ++j) {
    const std::uint64_t i = begin + j * k_block + threadIdx.x;
    if (i < n) atomicAdd(&hist[region_of(keys[i])], 1u);
  }
  __syncthreads();
  for (unsigned r = threadIdx.x; r < regions; r += blockDim.x)
    counts[std::uint64_t{blockIdx.x} * regions + r] = hist[r];
}

/// One block per region: exclusive prefix of the region's column over chunks (in place), and the
/// region's total.
static __global__ void __launch_bounds__(k_block) column_scan(unsigned* counts, std::uint32_t chunks, std::uint32_t regions,
                                                      unsigned* totals) {
  __shared__ unsigned warp_sums[k_block / 32];
  const unsigned r = blockIdx.x, lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  unsigned carry = 0;
  for (std::uint32_t base = 0; base < chunks; base += k_block) {
    const std::uint32_t c = base + threadIdx.x;
    const unsigned v = c < chunks ? counts[std::uint64_t{c} * regions + r] : 0;
    unsigned incl = v;  // inclusive scan within the warp
    for (unsigned off = 1; off < 32; off <<= 1) {
      const unsigned up = __shfl_up_sync(0xffffffffu, incl, off);
      if (lane >= off) incl += up;
    }
    if (lane == 31) warp_sums[warp] = incl;
    __syncthreads();
    unsigned before = 0, all = 0;
    for (unsigned w = 0; w < k_block / 32; ++w) {
      before += w < warp ? warp_sums[w] : 0;
      all += warp_sums[w];
    }
    if (c < chunks) counts[std::uint64_t{c} * regions + r] = carry + before + incl - v;
    carry += all;
    __syncthreads();
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

/// One block per chunk: a counting sort of the chunk's pairs by region in shared memory, then each
/// region's run is copied to base[r] + offset[c][r] by consecutive threads (coalesced stores).
template <class RegionOf>
__global__ void __launch_bounds__(k_block) scatter(RegionOf region_of, const key_type* keys, const value_type* values,
                                                   std::uint64_t n, std::uint32_t regions,
                                                   const unsigned* offsets, const unsigned* bases, key_type* out_keys,
                                                   value_type* out_values) {
  __shared__ key_type sk[k_partition_chunk];
  __shared__ value_type sv[k_partition_chunk];
  __shared__ unsigned short sr[k_partition_chunk];
  __shared__ unsigned start[k_max_regions];  // first position of region r in the sorted chunk
  __shared__ unsigned fill[k_max_regions];   // counts, then next free position
  for (unsigned r = threadIdx.x; r < regions; r += blockDim.x) fill[r] = 0;
  __syncthreads();
  const std::uint64_t begin = std::uint64_t{blockIdx.x} * k_partition_chunk;
  const unsigned count = static_cast<unsigned>(n - begin < k_partition_chunk ? n - begin : k_partition_chunk);
  key_type k[k_items];
  value_type v[k_items];
  unsigned short reg[k_items];
#pragma unroll
  for (unsigned j = 0; j < k_items; ++j) {
    const unsigned local = j * k_block + threadIdx.x;
    if (local < count) {
      k[j] = keys[begin + local];
      v[j] = values[begin + local];
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
    if (local < count) {
      const unsigned pos = atomicAdd(&fill[reg[j]], 1u);
      sk[pos] = k[j];
      sv[pos] = v[j];
      sr[pos] = reg[j];
    }
  }
  __syncthreads();
  const std::uint64_t row = std::uint64_t{blockIdx.x} * regions;
  for (unsigned p = threadIdx.x; p < count; p += blockDim.x) {
    const unsigned r = sr[p];
    const unsigned dst = bases[r] + offsets[row + r] + (p - start[r]);
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
  chunk_histogram<<<chunks, k_block, 0, stream>>>(region_of, keys, n, regions, counts);
  column_scan<<<regions, k_block, 0, stream>>>(counts, chunks, regions, totals);
  region_bases<<<1, 32, 0, stream>>>(totals, regions, bases);
  scatter<<<chunks, k_block, 0, stream>>>(region_of, keys, values, n, regions, counts, bases, scratch.keys.data(),
                                          scratch.values.data());
  HS_CUDA_CHECK_LAUNCH();
}

}  // namespace hs::detail
