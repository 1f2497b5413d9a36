// Warp-wide reductions with shuffles (no sm_80-only intrinsics, so the compute_75 PTX builds).
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

}  // namespace hs
