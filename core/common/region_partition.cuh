// The region partition's kernels (region_partition.hpp), for any region function: a device-callable
// `std::uint32_t operator()(key_type) const` giving a key's region (< regions <= k_max_regions).
// Include from the .cu file that instantiates partition_by_region or partition_nested.
// The offsets matrix holds, per chunk c and region r, the pairs of region r in chunks before c;
// with them and the region bases every block knows where its pairs go before it writes, so no
// global atomics are needed.
//
// The nested partition runs a second pass inside each region of the first: the input is cut into
// chunks that never cross a region, so each chunk's histogram still has at most k_max_regions
// (sub-region) bins, and the result is grouped by (region, sub-region), up to 2^18 groups.
#pragma once
#include <cuda_runtime.h>

#include "core/common/block_scan.cuh"
#include "core/common/cuda_check.hpp"
#include "core/common/region_partition.hpp"
#include "core/common/stream.hpp"

namespace hs::detail {

/// Where a pass reads pairs: two arrays (keys, values; 32-bit or 64-bit) or packed words (32-bit
/// pairs, key in the low half).
template <class K, class V>
struct basic_split_source {
  using key = K;
  using value = V;
  const K* keys;
  const V* values;
  __device__ K key_at(std::uint64_t i) const { return keys[i]; }
  __device__ void load(std::uint64_t i, K& k, V& v) const { k = keys[i], v = values[i]; }
};
using split_source = basic_split_source<key_type, value_type>;
struct word_source {
  using key = key_type;
  using value = value_type;
  const std::uint64_t* words;
  __device__ key_type key_at(std::uint64_t i) const { return static_cast<key_type>(words[i]); }
  __device__ void load(std::uint64_t i, key_type& k, value_type& v) const {
    const std::uint64_t w = words[i];
    k = static_cast<key_type>(w), v = static_cast<value_type>(w >> 32);
  }
};
/// Where a pass writes pairs. Packed words halve the runs a scatter writes (one array, not two).
template <class K, class V>
struct basic_split_sink {
  K* keys;
  V* values;
  __device__ void store(std::uint64_t i, K k, V v) const { keys[i] = k, values[i] = v; }
};
using split_sink = basic_split_sink<key_type, value_type>;
struct word_sink {
  std::uint64_t* words;
  __device__ void store(std::uint64_t i, key_type k, value_type v) const {
    words[i] = std::uint64_t{k} | (std::uint64_t{v} << 32);
  }
};

namespace partition_kernels {

inline constexpr unsigned k_block = 256;

/// One chunk of input: where its pairs start, how many, the output bases of its bins, and where
/// its count of bin r sits in the offsets matrix (cell + r * stride).
struct chunk_span {
  std::uint64_t begin = 0;
  unsigned count = 0;
  const unsigned* bases = nullptr;
  std::uint64_t cell = 0, stride = 1;
};

/// The plain partition's chunks: consecutive `pairs` pairs of the input (k_chunk_pairs of its
/// types). Its offsets matrix is region-major (a region's column over `chunks` chunks is
/// contiguous: the scan reads it coalesced). With n_now set, the pairs are the first *n_now (at
/// most n, known only on the device when the launch is queued; 32-bit pairs only): chunks past
/// them are empty.
struct flat_chunks {
  std::uint64_t n;
  std::uint32_t chunks;
  const unsigned* bases;  // per region
  const unsigned long long* n_now = nullptr;
  std::uint32_t pairs = k_partition_chunk;
  __device__ chunk_span operator()(unsigned c) const {
    const std::uint64_t have = n_now && *n_now < n ? *n_now : n;
    const std::uint64_t begin = std::uint64_t{c} * pairs;
    if (begin >= have) return {};
    const unsigned count = static_cast<unsigned>(have - begin < pairs ? have - begin : pairs);
    return {begin, count, bases, c, chunks};
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
      if (chunk_start[mid] <= c)
        lo = mid;
      else
        hi = mid;
    }
    const unsigned local = (c - chunk_start[lo]) * k_partition_chunk;
    const unsigned left = outer_totals[lo] - local;
    return {std::uint64_t{outer_bases[lo]} + local,
            left < k_partition_chunk ? left : k_partition_chunk,
            sub_bases + std::uint64_t{lo} * subs, std::uint64_t{c} * subs, 1};
  }
};

/// One block per chunk: the chunk's count per region, into the offsets matrix.
template <class RegionOf, class Chunks, class Source>
__global__ void __launch_bounds__(k_block)
    chunk_histogram(RegionOf region_of, Chunks chunks, Source in, std::uint32_t regions,
                    unsigned* counts) {
  __shared__ unsigned hist[k_max_regions];
  const chunk_span span = chunks(blockIdx.x);
  if (span.count == 0) return;  // past the pairs: no scan reads this row
  for (unsigned r = threadIdx.x; r < regions; r += blockDim.x) hist[r] = 0;
  __syncthreads();
  for (unsigned local = threadIdx.x; local < span.count; local += k_block)
    atomicAdd(&hist[region_of(in.key_at(span.begin + local))], 1u);
  __syncthreads();
  for (unsigned r = threadIdx.x; r < regions; r += blockDim.x)
    counts[span.cell + r * span.stride] = hist[r];
}

/// One block per region: exclusive prefix of the region's column over chunks (in place), and the
/// region's total. With n_now, only the chunks that hold its first *n_now pairs.
static __global__ void __launch_bounds__(k_block)
    column_scan(unsigned* counts, std::uint32_t chunks, std::uint32_t regions, unsigned* totals,
                const unsigned long long* n_now = nullptr) {
  const std::uint32_t stride = chunks;  // region-major (flat_chunks)
  if (n_now)
    chunks = static_cast<std::uint32_t>(
        std::min<unsigned long long>(chunks, (*n_now + k_partition_chunk - 1) / k_partition_chunk));
  const unsigned r = blockIdx.x;
  unsigned carry = 0;
  for (std::uint32_t base = 0; base < chunks; base += k_block) {
    const std::uint32_t c = base + threadIdx.x;
    const unsigned v = c < chunks ? counts[std::uint64_t{r} * stride + c] : 0;
    unsigned all = 0;
    const unsigned before = block_exclusive_scan<k_block>(v, &all);
    if (c < chunks) counts[std::uint64_t{r} * stride + c] = carry + before;
    carry += all;
  }
  if (threadIdx.x == 0) totals[r] = carry;
}

/// One block: region bases (exclusive scan of the totals, at most k_max_regions) and, for a
/// nested partition, where each region's chunks of the second pass start (regions + 1 entries).
static __global__ void __launch_bounds__(k_block)
    region_bases(const unsigned* totals, std::uint32_t regions, unsigned* bases,
                 unsigned* chunk_start) {
  unsigned carry = 0, chunk_carry = 0;
  for (std::uint32_t base = 0; base < regions; base += k_block) {
    const std::uint32_t r = base + threadIdx.x;
    const unsigned v = r < regions ? totals[r] : 0;
    unsigned all = 0, chunks_all = 0;
    const unsigned before = block_exclusive_scan<k_block>(v, &all);
    const unsigned chunks_before =
        block_exclusive_scan<k_block>((v + k_partition_chunk - 1) / k_partition_chunk, &chunks_all);
    if (r < regions) {
      bases[r] = carry + before;
      if (chunk_start) chunk_start[r] = chunk_carry + chunks_before;
    }
    carry += all;
    chunk_carry += chunks_all;
  }
  if (chunk_start && threadIdx.x == 0) chunk_start[regions] = chunk_carry;
}

/// Nested pass, one block per region: each sub-region's column over the region's chunks (in
/// place), its total, and its base (the region's base + the sub-regions before it).
static __global__ void __launch_bounds__(k_block)
    nested_column_scan(unsigned* counts, const unsigned* chunk_start, const unsigned* outer_bases,
                       std::uint32_t subs, unsigned* sub_totals, unsigned* sub_bases) {
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
        for (unsigned i = 0; i < 8; ++i)
          v[i] = c + i < end ? counts[std::uint64_t{c + i} * subs + sub] : 0;
#pragma unroll
        for (unsigned i = 0; i < 8; ++i) {
          if (c + i < end) counts[std::uint64_t{c + i} * subs + sub] = total;
          total += v[i];
        }
      }
      sub_totals[std::uint64_t{r} * subs + sub] = total;
    }
    unsigned all = 0;
    const unsigned before = block_exclusive_scan<k_block>(total, &all);
    if (sub < subs) sub_bases[std::uint64_t{r} * subs + sub] = carry + before;
    carry += all;
  }
}

/// One block per chunk: a counting sort of the chunk's pairs by region in shared memory, then each
/// region's run is copied to bases[r] + offset[c][r] by consecutive threads (coalesced stores).
/// A chunk (k_chunk_pairs) is 32 KiB of pairs of either width.
template <class RegionOf, class Chunks, class Source, class Sink>
__global__ void __launch_bounds__(k_block)
    scatter(RegionOf region_of, Chunks chunks, Source in, std::uint32_t regions,
            const unsigned* offsets, Sink out) {
  using K = typename Source::key;
  using V = typename Source::value;
  constexpr unsigned pairs = k_chunk_pairs<K, V>;
  constexpr unsigned items = pairs / k_block;  // pairs a thread holds: 16 of 32 bits, 8 of 64
  __shared__ K sk[pairs];
  __shared__ V sv[pairs];
  __shared__ unsigned short sr[pairs];
  __shared__ unsigned start[k_max_regions];  // first position of region r in the sorted chunk
  __shared__ unsigned fill[k_max_regions];   // counts, then next free position
  const chunk_span span = chunks(blockIdx.x);
  if (span.count == 0) return;
  for (unsigned r = threadIdx.x; r < regions; r += blockDim.x) fill[r] = 0;
  __syncthreads();
  K k[items];
  V v[items];
  unsigned short reg[items];
#pragma unroll
  for (unsigned j = 0; j < items; ++j) {
    const unsigned local = j * k_block + threadIdx.x;
    if (local < span.count) {
      in.load(span.begin + local, k[j], v[j]);
      reg[j] = static_cast<unsigned short>(region_of(k[j]));
      atomicAdd(&fill[reg[j]], 1u);
    }
  }
  __syncthreads();
  {  // exclusive scan of at most 512 counts, two a thread (one thread walking them all held the
     // block for about 512 dependent steps of shared memory)
    static_assert(k_max_regions == 2 * k_block, "two regions a thread");
    const unsigned r0 = 2 * threadIdx.x, r1 = r0 + 1;
    const unsigned c0 = r0 < regions ? fill[r0] : 0, c1 = r1 < regions ? fill[r1] : 0;
    unsigned all = 0;
    const unsigned before = block_exclusive_scan<k_block>(c0 + c1, &all);
    if (r0 < regions) start[r0] = fill[r0] = before;
    if (r1 < regions) start[r1] = fill[r1] = before + c0;
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < items; ++j) {
    const unsigned local = j * k_block + threadIdx.x;
    if (local < span.count) {
      const unsigned pos = atomicAdd(&fill[reg[j]], 1u);
      sk[pos] = k[j];
      sv[pos] = v[j];
      sr[pos] = reg[j];
    }
  }
  __syncthreads();
  for (unsigned p = threadIdx.x; p < span.count; p += blockDim.x) {
    const unsigned r = sr[p];
    const unsigned dst = span.bases[r] + offsets[span.cell + r * span.stride] + (p - start[r]);
    out.store(dst, sk[p], sv[p]);
  }
}

}  // namespace partition_kernels

/// @brief Writes the n pairs (n < 2^32) grouped by region into the scratch (reserved for n pairs
/// and `regions` regions); order within a region follows the input, chunk by chunk.
template <class RegionOf, class K, class V>
void partition_by_region(RegionOf region_of, std::uint32_t regions, const K* keys, const V* values,
                         std::uint64_t n, basic_partition_scratch<K, V>& scratch, stream_view s) {
  using namespace partition_kernels;
  const auto stream = static_cast<cudaStream_t>(s.handle);
  constexpr std::uint32_t pairs = k_chunk_pairs<K, V>;
  const auto chunks = static_cast<std::uint32_t>((n + pairs - 1) / pairs);
  unsigned* counts = scratch.offsets.data();
  unsigned* totals = counts + std::uint64_t{chunks} * regions;
  unsigned* bases = totals + regions;
  const basic_split_source<K, V> in{keys, values};
  chunk_histogram<<<chunks, k_block, 0, stream>>>(
      region_of, flat_chunks{n, chunks, nullptr, nullptr, pairs}, in, regions, counts);
  column_scan<<<regions, k_block, 0, stream>>>(counts, chunks, regions, totals);
  region_bases<<<1, k_block, 0, stream>>>(totals, regions, bases, nullptr);
  scatter<<<chunks, k_block, 0, stream>>>(
      region_of, flat_chunks{n, chunks, bases, nullptr, pairs}, in, regions, counts,
      basic_split_sink<K, V>{scratch.keys.data(), scratch.values.data()});
  HS_CUDA_CHECK_LAUNCH();
}

/// @brief Groups the n pairs (n < 2^32, from `in`: a split_source or a word_source) by (region_of,
/// sub_of): a pass by region into the view's middle words, then one by sub-region within each
/// region into its output words. Group (r, u) then holds output words [group_bases[r * subs +
/// u], + group_totals[...]) (nested_view). With n_now, only the first *n_now pairs (at most n,
/// counted on the device by work queued before) are grouped: no host wait between the two.
template <class RegionOf, class SubOf, class Source>
void partition_nested(RegionOf region_of, std::uint32_t regions, SubOf sub_of, std::uint32_t subs,
                      Source in, std::uint64_t n, const unsigned long long* n_now,
                      const nested_view& v, stream_view s) {
  using namespace partition_kernels;
  const auto stream = static_cast<cudaStream_t>(s.handle);
  chunk_histogram<<<v.chunks, k_block, 0, stream>>>(
      region_of, flat_chunks{n, v.chunks, nullptr, n_now}, in, regions, v.counts);
  column_scan<<<regions, k_block, 0, stream>>>(v.counts, v.chunks, regions, v.outer_totals, n_now);
  region_bases<<<1, k_block, 0, stream>>>(v.outer_totals, regions, v.outer_bases, v.chunk_start);
  scatter<<<v.chunks, k_block, 0, stream>>>(region_of,
                                            flat_chunks{n, v.chunks, v.outer_bases, n_now}, in,
                                            regions, v.counts, word_sink{v.mid_words});
  const nested_chunks inner{v.chunk_start, v.outer_totals, v.outer_bases,
                            v.group_bases, regions,        subs};
  const word_source mid{v.mid_words};
  chunk_histogram<<<v.inner_chunks, k_block, 0, stream>>>(sub_of, inner, mid, subs, v.counts);
  nested_column_scan<<<regions, k_block, 0, stream>>>(v.counts, v.chunk_start, v.outer_bases, subs,
                                                      v.group_totals, v.group_bases);
  scatter<<<v.inner_chunks, k_block, 0, stream>>>(sub_of, inner, mid, subs, v.counts,
                                                  word_sink{v.out_words});
  HS_CUDA_CHECK_LAUNCH();
}

}  // namespace hs::detail
