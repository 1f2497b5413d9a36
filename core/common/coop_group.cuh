// A group of G threads cooperating on one operation (G = 1 is a plain thread). Wraps the
// cooperative-groups tile so that kernels can be written once for every group size.
#pragma once
#include <cooperative_groups.h>

namespace hs {

template <int G>
struct coop_group {
  static_assert(G == 2 || G == 4 || G == 8 || G == 16 || G == 32,
                "group size must be a power of two <= 32");
  cooperative_groups::thread_block_tile<G> tile;
  __device__ unsigned rank() const { return tile.thread_rank(); }
  __device__ unsigned ballot(bool p) const { return tile.ballot(p); }
  template <class T>
  __device__ T shfl(T v, unsigned src) const {
    return tile.shfl(v, src);
  }
};

template <>
struct coop_group<1> {
  __device__ unsigned rank() const { return 0; }
  __device__ unsigned ballot(bool p) const { return p ? 1u : 0u; }
  template <class T>
  __device__ T shfl(T v, unsigned) const {
    return v;
  }
};

/// @brief The group of the calling thread: consecutive threads of the block, G at a time.
template <int G>
__device__ coop_group<G> this_group() {
  if constexpr (G == 1) {
    return {};
  } else {
    return {cooperative_groups::tiled_partition<G>(cooperative_groups::this_thread_block())};
  }
}

}  // namespace hs
