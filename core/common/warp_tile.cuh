// A tile of T consecutive lanes of a warp working on one operation together (T = 32: the whole
// warp), with ballots and shuffles confined to the tile. A family that serves its threads'
// operations one at a time, the whole tile on each, runs them on such tiles.
#pragma once

namespace hs {

template <int T>
struct warp_tile {
  static_assert(T == 2 || T == 4 || T == 8 || T == 16 || T == 32,
                "a tile is 2, 4, 8, 16 or 32 lanes");
  unsigned lane;   ///< rank in the tile
  unsigned first;  ///< the tile's first lane in the warp
  unsigned mask;   ///< the tile's lanes in the warp

  __device__ warp_tile() {
    const unsigned wl = threadIdx.x & 31u;
    lane = wl % T;
    first = wl - lane;
    mask = T == 32 ? 0xffffffffu : ((1u << T) - 1u) << first;
  }
  __device__ unsigned ballot(bool p) const {
    const unsigned b = __ballot_sync(mask, p);
    return T == 32 ? b : (b >> first) & ((1u << T) - 1u);
  }
  template <class X>
  __device__ X shfl(X v, int src) const {
    return __shfl_sync(mask, v, src, T);
  }
  // The same, for code that every lane of the warp runs together (all tiles in step): one
  // full-warp instruction, no waiting for the tile's lanes to gather after a divergent branch.
  __device__ unsigned ballot_all(bool p) const {
    const unsigned b = __ballot_sync(0xffffffffu, p);
    return T == 32 ? b : (b >> first) & ((1u << T) - 1u);
  }
  template <class X>
  __device__ X shfl_all(X v, int src) const {
    return __shfl_sync(0xffffffffu, v, src, T);
  }
};

}  // namespace hs
