// Inspection kernels of the slab family: one warp per bucket walks its list (lane l reads word l,
// the paper's layout), reducing per warp before touching global counters.
#include <cuda_runtime.h>

#include <algorithm>

#include "core/common/bucket_strip.cuh"
#include "core/common/cuda_check.hpp"
#include "core/common/device.hpp"
#include "core/common/device_histogram.hpp"
#include "core/common/warp_reduce.cuh"
#include "core/slab/slab_alloc.cuh"
#include "core/slab/slab_launch.hpp"

namespace hs::slab {

namespace {

constexpr int k_block = 256;
constexpr unsigned k_full = 0xffffffffu;

cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }

unsigned warp_grid(std::uint64_t warps) {
  static const int sms = [] {
    auto g = query_gpu();
    return g ? g->sm_count : 80;
  }();
  const std::uint64_t needed = (warps * 32 + k_block - 1) / k_block;
  return static_cast<unsigned>(std::clamp<std::uint64_t>(needed, 1, std::uint64_t(sms) * 16));
}

/// Calls f(word, position) for each slab of bucket b, on every lane (lane l holds word l).
template <class F>
__device__ void walk_bucket(const slab_ref& t, std::uint64_t b, F&& f) {
  const unsigned lane = threadIdx.x & 31u;
  const std::uint32_t* slab = t.base + b * k_slab_words;
  for (std::uint32_t pos = 0;; ++pos) {
    const std::uint32_t word = *reinterpret_cast<const volatile std::uint32_t*>(slab + lane);
    f(word, pos);
    const std::uint32_t next = __shfl_sync(k_full, word, k_next_word);
    if (next == k_null_address) return;
    slab = pool_slab(t.pool, next);
  }
}

__device__ bool key_lane() {
  return (threadIdx.x & 1u) == 0 && (threadIdx.x & 31u) < 2 * k_slab_pairs;
}

__global__ void census_kernel(slab_ref t, unsigned long long* out) {
  unsigned long long live = 0, tomb = 0, chained = 0;
  unsigned longest = 0;
  for (std::uint64_t b = grid_warp_id(); b < t.buckets; b += grid_warp_count()) {
    unsigned slabs = 0;
    walk_bucket(t, b, [&](std::uint32_t w, std::uint32_t) {
      ++slabs;
      live += __popc(__ballot_sync(k_full, key_lane() && is_live_key(w)));
      tomb += __popc(__ballot_sync(k_full, key_lane() && w == k_tombstone));
    });
    chained += slabs - 1;
    longest = max(longest, slabs);
  }
  if ((threadIdx.x & 31u) == 0) {
    if (live) atomicAdd(out + 0, live);
    if (tomb) atomicAdd(out + 1, tomb);
    if (chained) atomicAdd(out + 2, chained);
    atomicMax(out + 3, static_cast<unsigned long long>(longest));
  }
}

__global__ void count_allocated_kernel(pool_ref pool, unsigned long long* out) {
  const std::uint64_t per_super = std::uint64_t{pool.blocks_per_super} * k_bitmap_words;
  const std::uint64_t words = per_super * pool.super_blocks;
  unsigned n = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < words;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    n += __popc(pool.bitmaps[i / per_super][i % per_super]);
  n = warp_sum(n);
  if ((threadIdx.x & 31u) == 0 && n) atomicAdd(out, static_cast<unsigned long long>(n));
}

/// Adds `count` samples of value d (lane 0 of a warp calls it).
__device__ void histogram_add(device_histogram* h, std::uint32_t d, unsigned long long count) {
  if (!count) return;
  atomicAdd(&h->counts[probe_bin(d)], count);
  atomicAdd(&h->total, count);
  atomicAdd(&h->sum, count * d);
  atomicMax(&h->max, d);
}

// The few smallest values take nearly all samples: they are counted in registers first.
constexpr int k_local = 4;

__global__ void histograms_kernel(slab_ref t, device_histogram* lengths,
                                  device_histogram* positions) {
  unsigned long long len_local[k_local] = {}, pos_local[k_local] = {};
  const bool lane0 = (threadIdx.x & 31u) == 0;
  for (std::uint64_t b = grid_warp_id(); b < t.buckets; b += grid_warp_count()) {
    unsigned slabs = 0;
    walk_bucket(t, b, [&](std::uint32_t w, std::uint32_t pos) {
      ++slabs;
      if (!positions) return;
      const unsigned live = __popc(__ballot_sync(k_full, key_lane() && is_live_key(w)));
#pragma unroll
      for (int i = 0; i < k_local; ++i) pos_local[i] += pos == static_cast<unsigned>(i) ? live : 0;
      if (lane0 && pos >= k_local) histogram_add(positions, pos, live);
    });
#pragma unroll
    for (int i = 0; i < k_local; ++i) len_local[i] += slabs == static_cast<unsigned>(i + 1);
    if (lane0 && lengths && slabs > k_local) histogram_add(lengths, slabs, 1);
  }
  if (!lane0) return;
  for (int i = 0; i < k_local; ++i) {
    if (lengths) histogram_add(lengths, i + 1, len_local[i]);
    if (positions) histogram_add(positions, i, pos_local[i]);
  }
}

__device__ std::uint32_t list_length(const slab_ref& t, std::uint64_t b) {
  std::uint32_t n = 1;
  for (std::uint32_t a = t.base[b * k_slab_words + k_next_word]; a != k_null_address; ++n)
    a = *reinterpret_cast<const volatile std::uint32_t*>(pool_slab(t.pool, a) + k_next_word);
  return n;
}

__global__ void strip_kernel(slab_ref t, bucket_strip_query q, float* sum_max) {
  strip_pixels(q, t.buckets, [&](std::uint64_t b) { return list_length(t, b); }, sum_max);
}

__global__ void occupancy_kernel(slab_ref t, occupancy_query q) {
  const std::uint64_t pixels = std::uint64_t{q.width} * q.height;
  const std::uint64_t slots = std::uint64_t{t.buckets} * k_slab_pairs;
  for (std::uint64_t p = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; p < pixels;
       p += std::uint64_t{gridDim.x} * blockDim.x) {
    std::uint64_t lo, hi;
    pixel_slot_range(q, p, lo, hi);
    hi = hi < slots ? hi : slots;
    occupancy_pixel px;
    if (lo >= hi) {
      px.mean_displacement = k_no_slot;
    } else {
      unsigned live = 0, tomb = 0;
      double chained = 0;
      std::uint64_t bucket = ~0ull;
      std::uint32_t len = 1;
      for (std::uint64_t s = lo; s < hi; ++s) {
        if (s / k_slab_pairs != bucket) {
          bucket = s / k_slab_pairs;
          len = list_length(t, bucket);
        }
        const std::uint32_t k = t.base[bucket * k_slab_words + 2 * (s % k_slab_pairs)];
        live += is_live_key(k);
        tomb += k == k_tombstone;
        chained += len - 1;
      }
      const auto n = static_cast<float>(hi - lo);
      px.live = live / n;
      px.tombstone = tomb / n;
      px.mean_displacement = static_cast<float>(chained / (hi - lo));
    }
    q.out[p] = px;
  }
}

__global__ void copy_chain_kernel(slab_ref t, std::uint32_t bucket, std::uint32_t limit,
                                  std::uint32_t* words, std::uint32_t* addresses,
                                  unsigned long long* total) {
  const unsigned lane = threadIdx.x & 31u;
  std::uint32_t address = slab_record::k_base_address;
  const std::uint32_t* slab = t.base + std::uint64_t{bucket} * k_slab_words;
  unsigned long long n = 0;
  for (;; ++n) {
    const std::uint32_t w = *reinterpret_cast<const volatile std::uint32_t*>(slab + lane);
    if (n < limit) {
      words[n * k_slab_words + lane] = w;
      if (lane == 0) addresses[n] = address;
    }
    address = __shfl_sync(k_full, w, k_next_word);
    if (address == k_null_address) break;
    slab = pool_slab(t.pool, address);
  }
  if (lane == 0) *total = n + 1;
}

__global__ void block_fill_kernel(pool_ref pool, std::uint16_t* out) {
  const std::uint64_t blocks = std::uint64_t{pool.super_blocks} * pool.blocks_per_super;
  for (std::uint64_t b = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; b < blocks;
       b += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint32_t* bm = pool_bitmap(pool, static_cast<std::uint32_t>(b));
    unsigned n = 0;
    for (std::uint32_t i = 0; i < k_bitmap_words; ++i) n += __popc(bm[i]);
    out[b] = static_cast<std::uint16_t>(n);
  }
}

__global__ void retrieve_kernel(slab_ref t, key_type* keys, value_type* values, std::uint64_t room,
                                unsigned long long* count) {
  const unsigned lane = threadIdx.x & 31u;
  for (std::uint64_t b = grid_warp_id(); b < t.buckets; b += grid_warp_count())
    walk_bucket(t, b, [&](std::uint32_t w, std::uint32_t) {
      const std::uint32_t value = __shfl_down_sync(k_full, w, 1);
      const bool live = key_lane() && is_live_key(w);
      const unsigned m = __ballot_sync(k_full, live);
      if (!m) return;
      unsigned long long at = 0;
      if (lane == 0) at = atomicAdd(count, static_cast<unsigned long long>(__popc(m)));
      at = __shfl_sync(k_full, at, 0) + __popc(m & ((1u << lane) - 1u));
      if (live && at < room) {
        keys[at] = w;
        values[at] = value;
      }
    });
}

}  // namespace

void launch_census(const slab_ref& t, unsigned long long* out, stream_view s) {
  census_kernel<<<warp_grid(t.buckets), k_block, 0, cuda(s)>>>(t, out);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_count_allocated(const slab_ref& t, unsigned long long* out, stream_view s) {
  const std::uint64_t words =
      std::uint64_t{t.pool.super_blocks} * t.pool.blocks_per_super * k_bitmap_words;
  count_allocated_kernel<<<warp_grid(words / 32 + 1), k_block, 0, cuda(s)>>>(t.pool, out);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_chain_histograms(const slab_ref& t, void* lengths, void* positions, stream_view s) {
  if (lengths) HS_CUDA_CHECK(cudaMemsetAsync(lengths, 0, sizeof(device_histogram), cuda(s)));
  if (positions) HS_CUDA_CHECK(cudaMemsetAsync(positions, 0, sizeof(device_histogram), cuda(s)));
  histograms_kernel<<<warp_grid(t.buckets), k_block, 0, cuda(s)>>>(
      t, static_cast<device_histogram*>(lengths), static_cast<device_histogram*>(positions));
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_strip(const slab_ref& t, const bucket_strip_query& q, float* sum_max, stream_view s) {
  HS_CUDA_CHECK(cudaMemsetAsync(sum_max, 0, sizeof(float) * 2 * q.width, cuda(s)));
  strip_kernel<<<warp_grid(q.width), k_block, 0, cuda(s)>>>(t, q, sum_max);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_occupancy(const slab_ref& t, const occupancy_query& q, stream_view s) {
  const std::uint64_t pixels = std::uint64_t{q.width} * q.height;
  occupancy_kernel<<<warp_grid(pixels / 32 + 1), k_block, 0, cuda(s)>>>(t, q);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_copy_chain(const slab_ref& t, std::uint32_t bucket, std::uint32_t limit,
                       std::uint32_t* out_words, std::uint32_t* out_addresses,
                       unsigned long long* total, stream_view s) {
  copy_chain_kernel<<<1, 32, 0, cuda(s)>>>(t, bucket, limit, out_words, out_addresses, total);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_block_fill(const slab_ref& t, std::uint16_t* out, stream_view s) {
  const std::uint64_t blocks = std::uint64_t{t.pool.super_blocks} * t.pool.blocks_per_super;
  block_fill_kernel<<<warp_grid(blocks / 32 + 1), k_block, 0, cuda(s)>>>(t.pool, out);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_retrieve_all(const slab_ref& t, key_type* keys, value_type* values, std::uint64_t room,
                         unsigned long long* count, stream_view s) {
  HS_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned long long), cuda(s)));
  retrieve_kernel<<<warp_grid(t.buckets), k_block, 0, cuda(s)>>>(t, keys, values, room, count);
  HS_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hs::slab
