// Partitioning kernels. Offsets[c][r] = base of region r + pairs of region r in chunks before c;
// with them every block knows where its pairs go before it writes, so no global atomics are needed.
#include "core/linear/linear_partition.hpp"

#include <algorithm>

#include "core/common/bit_math.hpp"
#include "core/common/cuda_check.hpp"
#include "core/linear/linear_layout.hpp"

namespace hs::linear::detail {

namespace {

constexpr unsigned k_block = 256;
constexpr unsigned k_items = k_partition_chunk / k_block;  // 32 pairs per thread

cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }

/// One block per chunk: the chunk's count per region, as row c of the offsets matrix.
template <class Hash>
__global__ void __launch_bounds__(k_block) chunk_histogram(const key_type* keys, std::uint64_t n, std::uint32_t mask,
                                                           int shift, std::uint32_t regions, unsigned* counts) {
  __shared__ unsigned hist[k_max_regions];
  for (unsigned r = threadIdx.x; r < regions; r += blockDim.x) hist[r] = 0;
  __syncthreads();
  const std::uint64_t begin = std::uint64_t{blockIdx.x} * k_partition_chunk;
  for (unsigned j = 0; j < k_items; ++j) {
    const std::uint64_t i = begin + j * k_block + threadIdx.x;
    if (i < n) atomicAdd(&hist[home_slot<Hash>(keys[i], mask) >> shift], 1u);
  }
  __syncthreads();
  for (unsigned r = threadIdx.x; r < regions; r += blockDim.x)
    counts[std::uint64_t{blockIdx.x} * regions + r] = hist[r];
}

/// One block per region: exclusive prefix of the region's column over chunks (in place), and the
/// region's total.
__global__ void __launch_bounds__(k_block) column_scan(unsigned* counts, std::uint32_t chunks, std::uint32_t regions,
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
__global__ void region_bases(const unsigned* totals, std::uint32_t regions, unsigned* bases) {
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
template <class Hash>
__global__ void __launch_bounds__(k_block) scatter(const key_type* keys, const value_type* values, std::uint64_t n,
                                                   std::uint32_t mask, int shift, std::uint32_t regions,
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
      reg[j] = static_cast<unsigned short>(home_slot<Hash>(k[j], mask) >> shift);
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

}  // namespace

int region_shift_for(std::uint64_t capacity) {
  return std::max(k_min_region_shift, floor_log2_64(capacity) - floor_log2(k_max_regions));
}

bool partition_scratch::reserve(std::uint64_t n, std::uint64_t slots) {
  const std::uint64_t regions = std::max<std::uint64_t>(1, slots >> region_shift_for(slots));
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

void partition_by_region(hash_kind h, const key_type* keys, const value_type* values, std::uint64_t n,
                         std::uint32_t mask, int shift, partition_scratch& scratch, stream_view s) {
  const std::uint64_t slots = std::uint64_t{mask} + 1;
  const auto regions = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, slots >> shift));
  const auto chunks = static_cast<std::uint32_t>((n + k_partition_chunk - 1) / k_partition_chunk);
  unsigned* counts = scratch.offsets.data();
  unsigned* totals = counts + std::uint64_t{chunks} * regions;
  unsigned* bases = totals + regions;
  dispatch_hash(h, [&](auto hash) {
    using H = decltype(hash);
    chunk_histogram<H><<<chunks, k_block, 0, cuda(s)>>>(keys, n, mask, shift, regions, counts);
    column_scan<<<regions, k_block, 0, cuda(s)>>>(counts, chunks, regions, totals);
    region_bases<<<1, 32, 0, cuda(s)>>>(totals, regions, bases);
    scatter<H><<<chunks, k_block, 0, cuda(s)>>>(keys, values, n, mask, shift, regions, counts, bases,
                                                scratch.keys.data(), scratch.values.data());
  });
  HS_CUDA_CHECK_LAUNCH();
}

}  // namespace hs::linear::detail
