// Inspection kernels of the hive family: counts, live pairs, and what the views draw (occupancy
// pixels, candidate-index and bucket-fill histograms, the bucket strip) as hive_image_inspect
// defines them for the CPU model.
#include <cuda_runtime.h>

#include <algorithm>

#include "core/common/bucket_strip.cuh"
#include "core/common/cuda_check.hpp"
#include "core/common/warp_reduce.cuh"
#include "core/hive/hive_launch.hpp"

namespace hs::hive {

namespace {

constexpr int k_block = 256;
cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }
unsigned grid_for(std::uint64_t threads) {
  return static_cast<unsigned>(std::min<std::uint64_t>((threads + k_block - 1) / k_block, 8192));
}

// Live entries counted from the buckets' free masks (a bucket's taken slots are its slots less its
// free bits: the invariant checker holds the masks to the words), then the stash, grid-stride, one
// atomic per block of at most 1024. Reading the masks is 8 bytes a bucket instead of 8 a slot: on
// 2^24 slots the flat count of words took 123 us at 46% of DRAM (ncu), a quarter of a
// contraction, which counts the keys before it decides how many buckets to merge; then 65 us, as
// its 65,536 warps each added to one counter. (A thread per bucket reading its words one by one,
// with an atomic each, had taken 1.7 ms.)
__global__ void census_kernel(hive_ref r, unsigned long long* out) {
  const std::uint64_t first = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  unsigned long long live = 0, stashed = 0;
  const std::uint64_t buckets = r.geo.buckets();
  const std::uint32_t slots_mask = all_free(r.slots);
  for (std::uint64_t b = first; b < buckets; b += stride)
    live += static_cast<unsigned>(r.slots - __popc(mask_of(r.bucket_meta[b]) & slots_mask));
  const unsigned long long tail = *r.stash_tail;
  const std::uint64_t used = tail < r.stash_capacity ? tail : r.stash_capacity;
  for (std::uint64_t i = first; i < used; i += stride) stashed += r.stash[i] != k_empty_word;
  live = block_sum<k_block>(live);
  stashed = block_sum<k_block>(stashed);
  if (threadIdx.x == 0) {
    if (live) atomicAdd(out, live);
    if (stashed) atomicAdd(out + 1, stashed);
  }
}

__global__ void retrieve_kernel(hive_ref r, key_type* keys, value_type* values, std::uint64_t room,
                                unsigned long long* count) {
  const std::uint64_t slots = r.geo.buckets() * r.slots;
  const unsigned long long tail = *r.stash_tail;
  const std::uint64_t stashed = tail < r.stash_capacity ? tail : r.stash_capacity;
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < slots + stashed;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const word_type w = i < slots ? r.words[i] : r.stash[i - slots];
    if (w == k_empty_word) continue;
    const unsigned long long at = atomicAdd(count, 1ull);
    if (at < room) {
      keys[at] = key_of(w);
      values[at] = value_of(w);
    }
  }
}

constexpr unsigned k_full = 0xffffffffu;

__device__ int index_at(const hive_ref& r, std::uint64_t slot, word_type w) {
  return candidate_index(candidates_of(r.hashes, r.geo, key_of(w)), slot / r.slots);
}

__device__ int bucket_fill(const hive_ref& r, std::uint64_t b) {
  int n = 0;
  for (int s = 0; s < r.slots; ++s) n += r.words[b * r.slots + s] != k_empty_word;
  return n;
}

// A warp per pixel, its lanes striding over the pixel's slots.
__global__ void occupancy_kernel(hive_ref r, occupancy_query q) {
  const std::uint64_t pixels = std::uint64_t{q.width} * q.height, slots = r.geo.buckets() * r.slots;
  const unsigned lane = threadIdx.x & 31u;
  for (std::uint64_t p = grid_warp_id(); p < pixels; p += grid_warp_count()) {
    std::uint64_t lo, hi;
    pixel_slot_range(q, p, lo, hi);
    hi = hi < slots ? hi : slots;
    float live = 0, index = 0;
    for (std::uint64_t s = lo + lane; s < hi; s += 32) {
      const word_type w = r.words[s];
      if (w == k_empty_word) continue;
      live += 1;
      index += static_cast<float>(index_at(r, s, w));
    }
    for (int o = 16; o; o /= 2) {
      live += __shfl_xor_sync(k_full, live, o);
      index += __shfl_xor_sync(k_full, index, o);
    }
    if (lane) continue;
    occupancy_pixel px;
    if (lo >= hi) {
      px.mean_displacement = k_no_slot;
    } else {
      px.live = live / static_cast<float>(hi - lo);
      px.mean_displacement = live > 0 ? index / live : 0.f;
    }
    q.out[p] = px;
  }
}

__device__ void add_to(device_histogram* h, std::uint32_t v, unsigned long long n) {
  if (!n) return;
  atomicAdd(&h->counts[v], n);
  atomicAdd(&h->total, n);
  atomicAdd(&h->sum, n * v);
  atomicMax(&h->max, v);
}

// A warp reads 32 consecutive words, which are 32 / slots whole buckets (slots is 8, 16 or 32):
// a ballot per candidate index and one per warp for the fill, so a shared-memory atomic is taken
// per warp and index, and per bucket for its fill (a thread per bucket took one per live slot),
// then one global atomic per value and block.
__global__ void histograms_kernel(hive_ref r, device_histogram* index, device_histogram* fill) {
  __shared__ unsigned long long by_index[k_max_hashes], by_fill[33];
  for (int i = threadIdx.x; i < 33; i += blockDim.x) by_fill[i] = 0;
  if (threadIdx.x < k_max_hashes) by_index[threadIdx.x] = 0;
  __syncthreads();
  const std::uint64_t words = r.geo.buckets() * r.slots;
  const unsigned lane = threadIdx.x & 31u, slots = static_cast<unsigned>(r.slots);
  for (std::uint64_t base = grid_warp_id() * 32; base < words; base += grid_warp_count() * 32) {
    const std::uint64_t at = base + lane;
    const word_type w = at < words ? r.words[at] : k_empty_word;
    const bool live = w != k_empty_word;
    if (index) {
      const int i = live ? index_at(r, at, w) : -1;
      for (int c = 0; c < k_max_hashes; ++c) {
        const unsigned m = __ballot_sync(k_full, i == c);
        if (lane == 0 && m) atomicAdd(&by_index[c], static_cast<unsigned long long>(__popc(m)));
      }
    }
    if (fill) {
      const unsigned m = __ballot_sync(k_full, live);
      if (lane % slots == 0 && at < words) {  // the bucket's first lane
        const unsigned mine = slots == 32 ? k_full : ((1u << slots) - 1u) << lane;
        atomicAdd(&by_fill[__popc(m & mine)], 1ull);
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = 0; index && i < k_max_hashes; ++i) add_to(index, i, by_index[i]);
    for (int i = 0; fill && i <= r.slots; ++i) add_to(fill, i, by_fill[i]);
  }
}

__global__ void strip_kernel(hive_ref r, bucket_strip_query q, float* out) {
  strip_pixels(q, r.geo.buckets(), [&](std::uint64_t b) { return bucket_fill(r, b); }, out);
}

}  // namespace

void launch_occupancy(const hive_ref& t, const occupancy_query& q, stream_view s) {
  const std::uint64_t pixels = std::uint64_t{q.width} * q.height;
  if (!pixels) return;
  occupancy_kernel<<<grid_for(pixels * 32), k_block, 0, cuda(s)>>>(t, q);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_histograms(const hive_ref& t, device_histogram* index, device_histogram* fill,
                       stream_view s) {
  histograms_kernel<<<grid_for(t.geo.buckets() * t.slots), k_block, 0, cuda(s)>>>(t, index, fill);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_strip(const hive_ref& t, const bucket_strip_query& q, float* out, stream_view s) {
  if (!q.width) return;
  strip_kernel<<<grid_for(std::uint64_t{q.width} * 32), k_block, 0, cuda(s)>>>(t, q, out);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_census(const hive_ref& t, unsigned long long* out, stream_view s) {
  const unsigned grid =
      std::min(grid_for(std::max<std::uint64_t>(t.geo.buckets(), t.stash_capacity)), 1024u);
  census_kernel<<<grid, k_block, 0, cuda(s)>>>(t, out);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_retrieve(const hive_ref& t, key_type* keys, value_type* values, std::uint64_t room,
                     unsigned long long* count, stream_view s) {
  HS_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned long long), cuda(s)));
  retrieve_kernel<<<grid_for(t.geo.buckets() * t.slots), k_block, 0, cuda(s)>>>(t, keys, values,
                                                                                room, count);
  HS_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hs::hive
