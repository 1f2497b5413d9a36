// How a tile reads and writes the hive's memory: a bucket as the tile holds it (bucket_view), the
// words' relaxed loads, stores and CAS, the metadata words' loads and atomics at their L2 eviction
// priority, bucket loads, and the slot searches over a loaded bucket. Apart from the operations
// (hive_ops.cuh) because every one of them, and the eviction paths, stand on these.
#pragma once
#include <cstdint>

#include "core/common/warp_tile.cuh"
#include "core/hive/hive_ref.hpp"

namespace hs::hive {

/// @brief A bucket as a tile holds it in registers: lane l holds slots [lW, lW + W), W = S / T,
/// read as 16-byte pairs. (Interleaving the pairs across lanes, so that each load instruction
/// covers whole sectors, measured no faster on the H200 and costs lookups 12 registers.)
template <int S, int T>
struct bucket_view {
  static constexpr int W = S / T;
  static_assert(W == 1 || W % 2 == 0, "a lane holds one slot or whole pairs");
  word_type w[W];
  /// The word j of this lane (j uniform but not a constant: selects without indexing registers).
  __device__ word_type at(int j) const {
    word_type r = w[0];
#pragma unroll
    for (int i = 1; i < W; ++i) r = j == i ? w[i] : r;
    return r;
  }
  __device__ static int slot_of(unsigned lane, int j) { return int(lane) * W + j; }
  __device__ static unsigned lane_of(int slot) { return unsigned(slot / W); }
  __device__ static int index_of(int slot) { return slot % W; }
};

__device__ inline word_type load_word(const word_type* p) {
  word_type w;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
  return w;
}
__device__ inline void store_word(word_type* p, word_type w) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(w) : "memory");
}
__device__ inline word_type cas_word(word_type* p, word_type expected, word_type desired) {
  return atomicCAS(reinterpret_cast<unsigned long long*>(p), expected, desired);
}
// The metadata words go through the L2 at the eviction priority evict_last (sm_80 and up): a
// bucket's 128-byte line and its word's line are the two random lines an insert touches, and the
// words, 1/16 of the buckets' bytes, are the ones read again soonest (every operation on a bucket
// starts with its word). H100: session fills +2-3% to load 0.5 and +0-2% past it, the Hive
// paper's mixed batches +0.4-4.7%; the
// buckets' lines at evict_first, or an L2 set aside for persisting lines, were slower
// (README.md, Tried and dropped). Elsewhere the plain loads and atomics.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define HS_HIVE_META_HINT 1
#else
#define HS_HIVE_META_HINT 0
#endif
__device__ inline std::uint64_t meta_policy() {
  std::uint64_t p = 0;
#if HS_HIVE_META_HINT
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
#endif
  return p;
}
__device__ inline meta_word load_meta(const hive_ref& r, std::uint64_t b) {
#if HS_HIVE_META_HINT
  meta_word w;
  asm volatile("ld.relaxed.gpu.global.L2::cache_hint.u64 %0, [%1], %2;"
               : "=l"(w)
               : "l"(r.bucket_meta + b), "l"(meta_policy())
               : "memory");
  return w;
#else
  return load_word(r.bucket_meta + b);
#endif
}
/// The lock half alone (a 32-bit load: one register, not two, where only the lock word is needed).
__device__ inline std::uint32_t load_lock(const hive_ref& r, std::uint64_t b) {
  std::uint32_t v;
  const auto* p = reinterpret_cast<const std::uint32_t*>(r.bucket_meta + b) + 1;
#if HS_HIVE_META_HINT
  asm volatile("ld.relaxed.gpu.global.L2::cache_hint.u32 %0, [%1], %2;"
               : "=r"(v)
               : "l"(p), "l"(meta_policy())
               : "memory");
#else
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
#endif
  return v;
}
#if HS_HIVE_META_HINT
// One atomic on a metadata word (r, b, v of the function it ends), at the words' eviction
// priority; OP and TYPE are the PTX operation and type.
#define HS_HIVE_META_ATOMIC(OP, TYPE)                                                     \
  meta_word old;                                                                          \
  asm volatile("atom.relaxed.gpu.global." OP ".L2::cache_hint." TYPE " %0, [%1], %2, %3;" \
               : "=l"(old)                                                                \
               : "l"(r.bucket_meta + b), "l"(v), "l"(meta_policy())                       \
               : "memory");                                                               \
  return old
#endif
/// Atomics on a bucket's metadata word; each returns the word before.
__device__ inline meta_word meta_and(const hive_ref& r, std::uint64_t b, meta_word v) {
#if HS_HIVE_META_HINT
  HS_HIVE_META_ATOMIC("and", "b64");
#else
  return atomicAnd(reinterpret_cast<unsigned long long*>(r.bucket_meta + b), v);
#endif
}
__device__ inline meta_word meta_or(const hive_ref& r, std::uint64_t b, meta_word v) {
#if HS_HIVE_META_HINT
  HS_HIVE_META_ATOMIC("or", "b64");
#else
  return atomicOr(reinterpret_cast<unsigned long long*>(r.bucket_meta + b), v);
#endif
}
__device__ inline meta_word meta_add(const hive_ref& r, std::uint64_t b, meta_word v) {
#if HS_HIVE_META_HINT
  HS_HIVE_META_ATOMIC("add", "u64");
#else
  return atomicAdd(reinterpret_cast<unsigned long long*>(r.bucket_meta + b), v);
#endif
}
/// Frees slots of a bucket (sets their bits) without reading the word back: a reduction the
/// thread does not wait for, as atomicOr with its result unused compiles to (the atom above would
/// hold the thread for the word).
__device__ inline void meta_free(const hive_ref& r, std::uint64_t b, meta_word bits) {
#if HS_HIVE_META_HINT
  asm volatile(
      "red.relaxed.gpu.global.or.L2::cache_hint.b64 [%0], %1, %2;" ::"l"(r.bucket_meta + b),
      "l"(bits), "l"(meta_policy())
      : "memory");
#else
  atomicOr(reinterpret_cast<unsigned long long*>(r.bucket_meta + b), bits);
#endif
}
#undef HS_HIVE_META_ATOMIC
#undef HS_HIVE_META_HINT

/// @brief Reads a bucket at GPU scope (other tiles change it while this one works).
template <int S, int T>
__device__ bucket_view<S, T> load_bucket(const warp_tile<T>& t, const word_type* bucket) {
  constexpr int W = S / T;
  bucket_view<S, T> v;
  if constexpr (W == 1) {
    v.w[0] = load_word(bucket + t.lane);
  } else {
#pragma unroll
    for (int h = 0; h < W; h += 2) {
      const word_type* p = bucket + t.lane * W + h;
      asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];"
                   : "=l"(v.w[h]), "=l"(v.w[h + 1])
                   : "l"(p)
                   : "memory");
    }
  }
  return v;
}

/// @brief Reads a bucket that nothing writes while this kernel runs (a quiet lookup batch: every
/// write to the table completed before it, and none starts until it ends): plain loads, which the
/// compiler may schedule freely. Lookups after a fill to 0.9 on 2^25 slots (H200): 25.4 G/s, the
/// same as L2-only loads (__ldcg, 25.2); GPU-scope relaxed loads cost 7% in a bare lookup kernel.
template <int S, int T>
__device__ bucket_view<S, T> load_bucket_settled(const warp_tile<T>& t, const word_type* bucket) {
  constexpr int W = S / T;
  bucket_view<S, T> v;
  if constexpr (W == 1) {
    v.w[0] = bucket[t.lane];
  } else {
#pragma unroll
    for (int h = 0; h < W; h += 2) {
      const ulonglong2 pair = *reinterpret_cast<const ulonglong2*>(bucket + t.lane * W + h);
      v.w[h] = pair.x;
      v.w[h + 1] = pair.y;
    }
  }
  return v;
}

/// @brief A slot whose word satisfies pred(word, slot), or -1; the same on every lane. Which
/// one, when several do, is the first in lane order (lane, then word): callers ask for a key's
/// slot (a bucket holds a key at most once) or whether any slot qualifies. One ballot and one
/// shuffle: a ballot per word would add convergence points the scheduler waits at.
template <int S, int T, class Pred>
__device__ int first_slot(const warp_tile<T>& t, const bucket_view<S, T>& v, Pred pred) {
  constexpr int W = S / T;
  using view = bucket_view<S, T>;
  unsigned local = 0;
#pragma unroll
  for (int j = 0; j < W; ++j)
    if (pred(v.w[j], view::slot_of(t.lane, j))) local |= 1u << j;
  const unsigned b = t.ballot(local != 0);
  if (!b) return -1;
  const int src = __ffs(b) - 1;
  return view::slot_of(unsigned(src), __ffs(t.shfl(local, src)) - 1);
}

template <int S, int T>
__device__ word_type word_at(const warp_tile<T>& t, const bucket_view<S, T>& v, int slot) {
  using view = bucket_view<S, T>;
  return t.shfl(v.at(view::index_of(slot)), view::lane_of(slot));
}

}  // namespace hs::hive
