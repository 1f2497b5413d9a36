// Inspection kernels of the linear family. They read the slots with coalesced 16-byte loads and
// reduce per warp before touching global counters, so a sample of a 1 GiB table costs about one
// pass over its memory.
#include "core/linear/linear_inspect.hpp"

#include "core/common/cuda_check.hpp"
#include "core/common/device.hpp"
#include "core/common/warp_reduce.cuh"
#include "core/linear/linear_ref.cuh"

namespace hs::linear::detail {

namespace {

constexpr int k_block = 256;

cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }

/// Enough blocks to fill the GPU for grid-stride loops, never more than the work needs.
unsigned grid_for(std::uint64_t items) {
  static const int sms = [] {
    auto g = query_gpu();
    return g ? g->sm_count : 80;
  }();
  const std::uint64_t needed = (items + k_block - 1) / k_block;
  const std::uint64_t cap = static_cast<std::uint64_t>(sms) * 8;
  return static_cast<unsigned>(needed < cap ? (needed ? needed : 1) : cap);
}

/// Two consecutive slots, the first aligned to two (linear_ref.cuh's load_two, plain loads).
__device__ __forceinline__ void read_two(const slot_word* p, slot_word& w0, slot_word& w1) {
  const ulonglong2 v = *reinterpret_cast<const ulonglong2*>(p);
  w0 = v.x;
  w1 = v.y;
}
__device__ __forceinline__ void read_two(const wide_slot* p, wide_slot& w0, wide_slot& w1) {
  w0 = p[0];
  w1 = p[1];
}

template <class W>
__global__ void census_kernel(const W* slots, std::uint64_t pairs, unsigned long long* out) {
  unsigned live = 0, erased = 0, tomb = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < pairs;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    W pair[2];
    read_two(slots + 2 * i, pair[0], pair[1]);
    for (const W& w : pair) {
      const slot_state st = classify(w);
      live += st == slot_state::live;
      erased += st == slot_state::erased;
      tomb += st == slot_state::tombstone;
    }
  }
  live = warp_sum(live);
  erased = warp_sum(erased);
  tomb = warp_sum(tomb);
  if ((threadIdx.x & 31) == 0) {
    if (live) atomicAdd(&out[0], static_cast<unsigned long long>(live));
    if (erased) atomicAdd(&out[1], static_cast<unsigned long long>(erased));
    if (tomb) atomicAdd(&out[2], static_cast<unsigned long long>(tomb));
  }
}

// The census and, in the same read of the slots, where clusters start (bit s % 32 of word s / 32):
// each warp takes 32 consecutive slots at a time, so the loads are coalesced and a word is one
// ballot; the slot before a warp's first is the previous lane's or one more (cached) load. A warp
// takes four such words at once, their loads in flight together: with one at a time the pass
// waited on DRAM and read the slots at 45% of its bandwidth (ncu, 2^27 slots).
template <class W>
__global__ void census_starts_kernel(const W* slots, std::uint64_t capacity,
                                     unsigned long long* out, std::uint32_t* starts) {
  using I = index_of_t<W>;
  constexpr int k_words = 4;
  unsigned live = 0, erased = 0, tomb = 0;
  const auto mask = static_cast<I>(capacity - 1);
  const unsigned lane = threadIdx.x & 31;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * (blockDim.x / 32);
  const std::uint64_t chunks = (capacity + 31) / 32;
  for (std::uint64_t g = (blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x) / 32;
       g * k_words < chunks; g += warps) {
    W w[k_words];
#pragma unroll
    for (int j = 0; j < k_words; ++j) {
      const std::uint64_t i = (g * k_words + j) * 32 + lane;
      w[j] = i < capacity ? slots[i] : slot_traits<W>::empty();
    }
    // The slot before the first of the four words, for lane 0.
    W before =
        lane == 0 ? slots[(static_cast<I>(g * k_words * 32) - 1) & mask] : slot_traits<W>::empty();
#pragma unroll
    for (int j = 0; j < k_words; ++j) {
      const std::uint64_t c = g * k_words + j, i = c * 32 + lane;
      const slot_state st = classify(w[j]);
      live += st == slot_state::live;
      erased += st == slot_state::erased;
      tomb += st == slot_state::tombstone;
      // Only whether the slot before is occupied matters: its key goes round the warp.
      const auto prev_key_in_warp = __shfl_up_sync(0xffffffffu, slot_key(w[j]), 1);
      const bool prev_occupied =
          lane ? prev_key_in_warp != key_limits<key_of_t<W>>::empty : occupies(before);
      const unsigned word =
          __ballot_sync(0xffffffffu, i < capacity && occupies(w[j]) && !prev_occupied);
      if (lane == 0 && c < chunks) starts[c] = word;
      before = shfl_slot(0xffffffffu, w[j], 31);  // the next word's slot before its first
    }
  }
  live = warp_sum(live);
  erased = warp_sum(erased);
  tomb = warp_sum(tomb);
  if (lane == 0) {
    if (live) atomicAdd(&out[0], static_cast<unsigned long long>(live));
    if (erased) atomicAdd(&out[1], static_cast<unsigned long long>(erased));
    if (tomb) atomicAdd(&out[2], static_cast<unsigned long long>(tomb));
  }
}

template <class W>
__global__ void count_occupied_kernel(const W* slots, std::uint64_t pairs, bool tombstones_free,
                                      unsigned long long* out) {
  unsigned n = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < pairs;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    W w0, w1;
    read_two(slots + 2 * i, w0, w1);
    n += tombstones_free ? holds_key(w0) + holds_key(w1) : occupies(w0) + occupies(w1);
  }
  n = warp_sum(n);
  if ((threadIdx.x & 31) == 0 && n) atomicAdd(out, static_cast<unsigned long long>(n));
}

/// One warp per pixel: lanes stride over the pixel's slots, then reduce.
template <class Hash, class W>
__global__ void occupancy_kernel(const W* slots, index_of_t<W> mask, occupancy_query q) {
  const unsigned lane = threadIdx.x & 31;
  const std::uint64_t pixels = std::uint64_t{q.width} * q.height;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * blockDim.x / 32;
  for (std::uint64_t p = (blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x) / 32; p < pixels;
       p += warps) {
    std::uint64_t lo, hi;
    pixel_slot_range(q, p, lo, hi);
    slot_census c;
    for (std::uint64_t s = lo + lane; s < hi; s += 32) {
      const auto slot = static_cast<index_of_t<W>>(s & mask);
      c.add<Hash>(slot, slots[slot], mask);
    }
    c.live = warp_sum(c.live);
    c.erased = warp_sum(c.erased);
    c.tombstone = warp_sum(c.tombstone);
    c.slots = warp_sum(c.slots);
    c.displacement_sum = warp_sum(c.displacement_sum);
    if (lane == 0) q.out[p] = c.to_pixel();
  }
}

template <class Hash, class W>
__global__ void histogram_kernel(const W* slots, std::uint64_t capacity, device_histogram* out) {
  using I = index_of_t<W>;
  __shared__ unsigned bins[k_probe_bins];
  for (unsigned b = threadIdx.x; b < k_probe_bins; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  const auto mask = static_cast<I>(capacity - 1);
  unsigned long long sum = 0;
  unsigned count = 0, max = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < capacity / 2;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    W pair[2];
    read_two(slots + 2 * i, pair[0], pair[1]);
    for (int j = 0; j < 2; ++j) {
      if (!holds_key(pair[j])) continue;
      const std::uint32_t d = slot_displacement<Hash>(static_cast<I>(2 * i + j), pair[j], mask);
      atomicAdd(&bins[probe_bin(d)], 1u);
      sum += d;
      ++count;
      max = d > max ? d : max;
    }
  }
  sum = warp_sum(sum);
  count = warp_sum(count);
  max = warp_max(max);
  if ((threadIdx.x & 31) == 0 && count) {
    atomicAdd(&out->sum, sum);
    atomicAdd(&out->total, static_cast<unsigned long long>(count));
    atomicMax(&out->max, max);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < k_probe_bins; b += blockDim.x)
    if (bins[b]) atomicAdd(&out->counts[b], static_cast<unsigned long long>(bins[b]));
}

template <class W>
__global__ void retrieve_kernel(const W* slots, std::uint64_t capacity, key_of_t<W>* keys,
                                value_of_t<W>* values, std::uint64_t room,
                                unsigned long long* count) {
  const unsigned lane = threadIdx.x & 31;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  // Every lane of a warp runs the same number of iterations, so the ballots see the whole warp.
  const std::uint64_t first = (blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x) - lane;
  for (std::uint64_t base = first; base < capacity; base += stride) {
    const std::uint64_t s = base + lane;
    const W w = s < capacity ? slots[s] : slot_traits<W>::empty();
    const bool live = classify(w) == slot_state::live;
    const unsigned ballot = __ballot_sync(0xffffffffu, live);
    if (!ballot) continue;
    unsigned long long start = 0;
    if (lane == 0) start = atomicAdd(count, static_cast<unsigned long long>(__popc(ballot)));
    start = __shfl_sync(0xffffffffu, start, 0);
    if (live) {
      const std::uint64_t pos = start + __popc(ballot & ((1u << lane) - 1));
      if (pos < room) {
        keys[pos] = slot_key(w);
        values[pos] = slot_value(w);
      }
    }
  }
}

}  // namespace

template <class W>
void launch_census(const W* slots, std::uint64_t capacity, unsigned long long* out, stream_view s,
                   std::uint32_t* starts) {
  if (starts)
    census_starts_kernel<<<grid_for(capacity), k_block, 0, cuda(s)>>>(slots, capacity, out, starts);
  else
    census_kernel<<<grid_for(capacity / 2), k_block, 0, cuda(s)>>>(slots, capacity / 2, out);
  HS_CUDA_CHECK_LAUNCH();
}

template <class W>
void launch_count_occupied(const W* slots, std::uint64_t capacity, bool tombstones_free,
                           unsigned long long* out, stream_view s) {
  count_occupied_kernel<<<grid_for(capacity / 2), k_block, 0, cuda(s)>>>(slots, capacity / 2,
                                                                         tombstones_free, out);
  HS_CUDA_CHECK_LAUNCH();
}

template <class W>
void launch_occupancy(hash_kind h, probe_policy p, const W* slots, index_of_t<W> mask,
                      const occupancy_query& q, stream_view s) {
  const std::uint64_t threads = std::uint64_t{q.width} * q.height * 32;
  dispatch_probing(h, p, [&](auto hash) {
    occupancy_kernel<decltype(hash), W><<<grid_for(threads), k_block, 0, cuda(s)>>>(slots, mask, q);
  });
  HS_CUDA_CHECK_LAUNCH();
}

template <class W>
void launch_probe_histogram(hash_kind h, probe_policy p, const W* slots, std::uint64_t capacity,
                            device_histogram* out, stream_view s) {
  HS_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(device_histogram), cuda(s)));
  dispatch_probing(h, p, [&](auto hash) {
    histogram_kernel<decltype(hash), W>
        <<<grid_for(capacity / 2), k_block, 0, cuda(s)>>>(slots, capacity, out);
  });
  HS_CUDA_CHECK_LAUNCH();
}

template <class W>
void launch_retrieve_all(const W* slots, std::uint64_t capacity, key_of_t<W>* keys,
                         value_of_t<W>* values, std::uint64_t room, unsigned long long* count,
                         stream_view s) {
  HS_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(*count), cuda(s)));
  retrieve_kernel<<<grid_for(capacity), k_block, 0, cuda(s)>>>(slots, capacity, keys, values, room,
                                                               count);
  HS_CUDA_CHECK_LAUNCH();
}

// Both widths, each entry point.
#define HS_LINEAR_INSPECT(W)                                                               \
  template void launch_census(const W*, std::uint64_t, unsigned long long*, stream_view,   \
                              std::uint32_t*);                                             \
  template void launch_count_occupied(const W*, std::uint64_t, bool, unsigned long long*,  \
                                      stream_view);                                        \
  template void launch_occupancy(hash_kind, probe_policy, const W*, index_of_t<W>,         \
                                 const occupancy_query&, stream_view);                     \
  template void launch_probe_histogram(hash_kind, probe_policy, const W*, std::uint64_t,   \
                                       device_histogram*, stream_view);                    \
  template void launch_retrieve_all(const W*, std::uint64_t, key_of_t<W>*, value_of_t<W>*, \
                                    std::uint64_t, unsigned long long*, stream_view);
HS_LINEAR_INSPECT(slot_word)
HS_LINEAR_INSPECT(wide_slot)
#undef HS_LINEAR_INSPECT

}  // namespace hs::linear::detail
