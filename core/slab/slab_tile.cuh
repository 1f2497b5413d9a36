// Warp-cooperative work sharing (SlabHash, IV-A) over a tile of T threads that reads a slab
// together: T = 32 is the paper's warp, one word per lane; T = 16 or 8 give each lane 2 or 4 words
// (8- or 16-byte loads), T = 4 or 2 give each lane 8 or 16 words (two or four 16-byte loads), so
// one warp works on 2, 4, 8 or 16 operations at once: more slab reads in flight per warp. Lane l
// holds words [l*W, l*W + W); pair p is key word 2p and value word 2p+1.
#pragma once
#include <cstdint>

#include "core/common/warp_tile.cuh"
#include "core/slab/slab_layout.hpp"

namespace hs::slab {

template <int T>
using slab_tile = warp_tile<T>;

/// @brief One lane's share of a slab.
template <int W>
struct slab_words {
  std::uint32_t w[W];
  /// The word j of this lane (j uniform but not a constant: selects without indexing registers).
  __device__ std::uint32_t at(int j) const {
    std::uint32_t r = w[0];
#pragma unroll
    for (int i = 1; i < W; ++i) r = j == i ? w[i] : r;
    return r;
  }
};

/// @brief Reads a slab at GPU scope (L2): other warps change slabs while this one works.
template <int T>
__device__ slab_words<32 / T> read_slab(const slab_tile<T>& t, const std::uint32_t* slab) {
  slab_words<32 / T> s;
  const std::uint32_t* p = slab + t.lane * (32 / T);
  if constexpr (T == 32) {
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(s.w[0]) : "l"(p) : "memory");
  } else if constexpr (T == 16) {
    asm volatile("ld.relaxed.gpu.global.v2.u32 {%0, %1}, [%2];"
                 : "=r"(s.w[0]), "=r"(s.w[1])
                 : "l"(p)
                 : "memory");
  } else {
#pragma unroll
    for (int h = 0; h < 32 / T; h += 4)
      asm volatile("ld.relaxed.gpu.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(s.w[h]), "=r"(s.w[h + 1]), "=r"(s.w[h + 2]), "=r"(s.w[h + 3])
                   : "l"(p + h)
                   : "memory");
  }
  return s;
}

/// @brief Fills a slab with empty pairs and a null next pointer (a freshly allocated slab).
template <int T>
__device__ void write_empty_slab(const slab_tile<T>& t, std::uint32_t* slab) {
  std::uint32_t* p = slab + t.lane * (32 / T);
  if constexpr (T == 32)
    *p = k_empty;
  else if constexpr (T == 16)
    *reinterpret_cast<uint2*>(p) = make_uint2(k_empty, k_empty);
  else
#pragma unroll
    for (int h = 0; h < 32 / T; h += 4)
      *reinterpret_cast<uint4*>(p + h) = make_uint4(k_empty, k_empty, k_empty, k_empty);
}

/// @brief Word `word` of the slab, on every lane.
template <int T>
__device__ std::uint32_t word_of(const slab_tile<T>& t, const slab_words<32 / T>& s, int word) {
  constexpr int W = 32 / T;
  return t.shfl(s.at(word % W), word / W);
}

/// @brief Bits j of this lane's pairs whose key satisfies pred.
template <int T, class Pred>
__device__ unsigned lane_matches(const slab_tile<T>& t, const slab_words<32 / T>& s, Pred pred) {
  constexpr int W = 32 / T;
  if constexpr (W == 1) {
    return (t.lane & 1u) == 0 && t.lane < 2 * k_slab_pairs && pred(s.w[0]) ? 1u : 0u;
  } else {
    unsigned m = 0;
#pragma unroll
    for (int j = 0; j < W / 2; ++j)
      if (t.lane * (W / 2) + j < k_slab_pairs && pred(s.w[2 * j])) m |= 1u << j;
    return m;
  }
}

/// @brief The first pair (lowest index) whose key satisfies pred, or -1; the same on every lane.
template <int T, class Pred>
__device__ int first_pair(const slab_tile<T>& t, const slab_words<32 / T>& s, Pred pred) {
  constexpr int W = 32 / T;
  const unsigned local = lane_matches(t, s, pred);
  const unsigned b = t.ballot(local != 0);
  if (!b) return -1;
  const int src = __ffs(b) - 1;
  if constexpr (W == 1)
    return src / 2;
  else
    return src * (W / 2) + __ffs(t.shfl(local, src)) - 1;
}

/// @brief How many pairs' keys satisfy pred; the same on every lane.
template <int T, class Pred>
__device__ unsigned count_pairs(const slab_tile<T>& t, const slab_words<32 / T>& s, Pred pred) {
  constexpr int W = 32 / T;
  const unsigned local = lane_matches(t, s, pred);
  unsigned n = 0;
#pragma unroll
  for (int j = 0; j < (W == 1 ? 1 : W / 2); ++j) n += __popc(t.ballot((local >> j) & 1u));
  return n;
}

}  // namespace hs::slab
