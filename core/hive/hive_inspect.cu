// Inspection kernels of the hive family: counts and live pairs.
#include <cuda_runtime.h>

#include <algorithm>

#include "core/common/cuda_check.hpp"
#include "core/hive/hive_launch.hpp"

namespace hs::hive {

namespace {

constexpr int k_block = 256;
cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }
unsigned grid_for(std::uint64_t threads) {
  return static_cast<unsigned>(std::min<std::uint64_t>((threads + k_block - 1) / k_block, 8192));
}

// A thread per bucket (grid-stride), then per stash slot: live words counted.
__global__ void census_kernel(hive_ref r, unsigned long long* out) {
  unsigned long long live = 0;
  const std::uint64_t n = r.geo.buckets();
  for (std::uint64_t b = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; b < n; b += std::uint64_t{gridDim.x} * blockDim.x) {
    int used = 0;
    for (int s = 0; s < r.slots; ++s) used += r.words[b * r.slots + s] != k_empty_word;
    live += used;
  }
  std::uint32_t stashed = 0;
  const unsigned long long tail = *r.stash_tail;
  const std::uint64_t used = tail < r.stash_capacity ? tail : r.stash_capacity;
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < used; i += std::uint64_t{gridDim.x} * blockDim.x)
    stashed += r.stash[i] != k_empty_word;
  if (live) atomicAdd(out, live);
  if (stashed) atomicAdd(out + 1, static_cast<unsigned long long>(stashed));
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

}  // namespace

void launch_census(const hive_ref& t, unsigned long long* out, stream_view s) {
  census_kernel<<<grid_for(t.geo.buckets()), k_block, 0, cuda(s)>>>(t, out);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_retrieve(const hive_ref& t, key_type* keys, value_type* values, std::uint64_t room,
                     unsigned long long* count, stream_view s) {
  HS_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned long long), cuda(s)));
  retrieve_kernel<<<grid_for(t.geo.buckets() * t.slots), k_block, 0, cuda(s)>>>(t, keys, values, room, count);
  HS_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hs::hive
