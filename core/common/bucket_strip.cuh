// The bucket strip on the GPU, shared by the inspections of tables of buckets: a warp per pixel,
// its lanes sharing the pixel's buckets (inspection.hpp, strip_pixel_buckets), then a warp-wide sum
// and maximum.
#pragma once
#include <cstdint>

#include "core/common/sample_parts.hpp"

namespace hs {

/// @brief The grid's warps, numbered across blocks.
__device__ inline std::uint64_t grid_warp_id() {
  return (blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x) / 32;
}
__device__ inline std::uint64_t grid_warp_count() {
  return std::uint64_t{gridDim.x} * (blockDim.x / 32);
}

/// @brief Every pixel of q: sum_max[2p] the mean and sum_max[2p + 1] the largest measure(b) over
/// its buckets (every lane of the grid calls; the grid needs no particular size).
template <class MeasureOf>
__device__ void strip_pixels(const bucket_strip_query& q, std::uint64_t buckets, MeasureOf measure,
                             float* sum_max) {
  const unsigned lane = threadIdx.x & 31u;
  for (std::uint64_t p = grid_warp_id(); p < q.width; p += grid_warp_count()) {
    const bucket_range r = strip_pixel_buckets(q, buckets, p);
    if (r.lo == r.hi) return;  // the same for every pixel
    float sum = 0, mx = 0;
    for (std::uint64_t b = r.lo + lane; b < r.hi; b += 32) {
      const auto m = static_cast<float>(measure(b));
      sum += m;
      mx = fmaxf(mx, m);
    }
    for (int o = 16; o; o /= 2) {
      sum += __shfl_xor_sync(0xffffffffu, sum, o);
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
    }
    if (lane == 0) {
      sum_max[2 * p] = sum / static_cast<float>(r.hi - r.lo);
      sum_max[2 * p + 1] = mx;
    }
  }
}

}  // namespace hs
