// Block-wide exclusive scan of one unsigned per thread (a partition's offsets, the ranks
// of a bulk insert's rounds), with warp shuffles and one shared array of warp totals.
#pragma once

namespace hs {

/// @brief Exclusive prefix of v over the block's Threads threads (all of them call, uniformly);
/// *all gets the block's total. Synchronizes the block twice.
template <unsigned Threads>
__device__ unsigned block_exclusive_scan(unsigned v, unsigned* all) {
  static_assert(Threads % 32 == 0 && Threads <= 1024, "whole warps");
  __shared__ unsigned warp_sums[Threads / 32];
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32;
  unsigned incl = v;
  for (unsigned off = 1; off < 32; off <<= 1) {
    const unsigned up = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += up;
  }
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  unsigned before = 0, sum = 0;
  for (unsigned w = 0; w < Threads / 32; ++w) {
    before += w < warp ? warp_sums[w] : 0;
    sum += warp_sums[w];
  }
  __syncthreads();  // warp_sums is reused by the next call
  *all = sum;
  return before + incl - v;
}

}  // namespace hs
