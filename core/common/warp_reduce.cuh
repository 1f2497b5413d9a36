// Warp- and block-wide reductions with shuffles (no sm_80-only intrinsics, so the compute_75 PTX
// builds).
#pragma once
#include <cstdint>

namespace hs {

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;  // complete in lane 0
}

template <class T>
__device__ __forceinline__ T warp_max(T v) {
  for (int off = 16; off > 0; off >>= 1) {
    T o = __shfl_down_sync(0xffffffffu, v, off);
    v = o > v ? o : v;
  }
  return v;  // complete in lane 0
}

/// Sum over a block of Threads threads (a multiple of 32), complete in thread 0; every thread of
/// the block must call it. Callable again at once (it synchronizes before returning).
template <unsigned Threads, class T>
__device__ T block_sum(T v) {
  static_assert(Threads % 32 == 0 && Threads <= 1024, "whole warps");
  __shared__ T part[Threads / 32];
  v = warp_sum(v);
  if ((threadIdx.x & 31u) == 0) part[threadIdx.x / 32] = v;
  __syncthreads();
  T total = 0;
  if (threadIdx.x < 32) total = warp_sum(threadIdx.x < Threads / 32 ? part[threadIdx.x] : T{0});
  __syncthreads();
  return total;
}

}  // namespace hs
