// The hive table's operations for one tile of T lanes (the Hive paper, III-E/F and IV-A/B): a
// bucket of S slots is read by the whole tile, lane l holding slots [l*W, l*W + W); decisions come
// from ballots, so the lanes stay together. T = 32 with S = 32 is the paper's warp, one slot per
// lane.
//
// Concurrency rules (each one a comment below where it acts):
// - A slot is claimed through its bucket's free mask (one atomicAnd); the claimer then publishes
//   the word. A slot whose bit is taken but whose word is still empty is a claim in flight (or a
//   delete finishing, or a slot an eviction reserved): step 1 waits for it to settle, and a lost
//   claim starts the insert over. Together these keep two inserts of one key from storing it
//   twice when nothing is deleted meanwhile.
// - An eviction finds its whole path first (read only), then moves entries backwards from the
//   free end: each entry is written to its new slot before the old one is replaced by a move
//   marker (the key with the reserved empty value), under the old bucket's lock, whose unlock
//   also counts the move in the bucket's lock word. An operation that meets a marker of its key
//   looks again; one that finds its key nowhere compares the move counts of its candidates with
//   what they were before it looked, and looks again if a key moved meanwhile. So no lookup,
//   delete or replace misses a key an eviction is moving.
#pragma once
#include <cstdint>

#include "core/common/warp_tile.cuh"
#include "core/hive/hive_launch.hpp"

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

/// @brief A key's candidate buckets as the kernels carry them (32-bit: at most 2^29 buckets).
struct dev_candidates {
  std::uint32_t b[k_max_hashes];
};

// teach-region hive-candidates
__device__ inline dev_candidates dev_candidates_of(const hive_ref& r, key_type k) {
  const candidates c = candidates_of(r.hashes, r.geo, k);  // [teach:candidates]
  dev_candidates d;
#pragma unroll
  for (int i = 0; i < k_max_hashes; ++i) d.b[i] = static_cast<std::uint32_t>(c.b[i]);
  return d;
}
// teach-region-end

/// @brief Lane 0: the lock words (eviction lock, hint, move count) of a key's candidates from
/// `first` on. A scan that reads the candidates one after another, in order, needs only those
/// after the first: a key moving forward in that order is met (its copy is written before the
/// original goes), so only moves out of a later candidate can hide it.
struct lock_snapshot {
  std::uint32_t w[k_max_hashes] = {};
};
__device__ inline lock_snapshot snapshot_locks(const hive_ref& r, const dev_candidates& c,
                                               int first) {
  lock_snapshot s;
#pragma unroll
  for (int i = 0; i < k_max_hashes; ++i)
    if (i >= first && i < r.hashes.count) s.w[i] = load_lock(r, c.b[i]);
  return s;
}
/// @brief True (on every lane) when an eviction moved something out of a candidate (from `first`
/// on) since `before` was taken, or holds its lock now: a miss seen meanwhile may be a key in
/// transit.
__device__ inline bool moved_between(const hive_ref& r, const lock_snapshot& before,
                                     const lock_snapshot& now, int first) {
  bool moved = false;
#pragma unroll
  for (int i = 0; i < k_max_hashes; ++i)
    moved |= i >= first && i < r.hashes.count &&
             (((now.w[i] ^ before.w[i]) & ~k_unwatched_bits) != 0 || (now.w[i] & k_lock_bit));
  return moved;
}
template <int T>
__device__ bool moved_since(const warp_tile<T>& t, const hive_ref& r, const dev_candidates& c,
                            const lock_snapshot& before, int first) {
  bool moved = false;
  if (t.lane == 0) moved = moved_between(r, before, snapshot_locks(r, c, first), first);
  return t.shfl(moved, 0);
}

struct op_result {
  op_status status = op_status::none;
  value_type value = k_empty;
  insert_step step = insert_step::replace;
};

/// @brief Whether the stash may hold k: stashed words exist and a candidate's hint is non-zero.
template <int T>
__device__ bool stash_may_hold(const warp_tile<T>& t, const hive_ref& r, const dev_candidates& c,
                               bool stash_used) {
  if (!stash_used) return false;
  std::uint32_t hint = 0;
  if (t.lane == 0) hint = stash_hint(load_lock(r, c.b[0]));
  return t.shfl(hint, 0) != 0;
}

/// @brief Position of k in the stash, or -1 (every lane).
template <int T>
__device__ long long stash_find(const warp_tile<T>& t, const hive_ref& r, key_type k) {
  // One read for the tile: lanes reading the tail apart could loop different counts round a ballot.
  unsigned long long tail = 0;
  if (t.lane == 0) tail = load_word(reinterpret_cast<const word_type*>(r.stash_tail));
  tail = t.shfl(tail, 0);
  const unsigned long long used = tail < r.stash_capacity ? tail : r.stash_capacity;
  for (unsigned long long base = 0; base < used; base += T) {
    const unsigned long long i = base + t.lane;
    const bool hit = i < used && key_of(load_word(r.stash + i)) == k;
    const unsigned b = t.ballot(hit);
    if (b) return static_cast<long long>(base + __ffs(b) - 1);
  }
  return -1;
}

/// @brief SEARCH (WCME): the first match in the candidates in order, then the stash, watching
/// for keys in transit. (Lookups no write can overlap run quiet_find_kernel instead.)
// teach-region hive-find-op
template <int S, int T>
__device__ op_result find_op(const warp_tile<T>& t, const hive_ref& r, key_type k,
                             const dev_candidates& c, bool stash_used) {
  for (bool again = true; again;) {
    again = false;
    lock_snapshot before;
    if (t.lane == 0) before = snapshot_locks(r, c, 1);
#pragma unroll
    for (int i = 0; i < k_max_hashes; ++i) {
      if (again || i >= r.hashes.count || (i > 0 && c.b[i] == c.b[i - 1])) continue;
      const auto v = load_bucket<S, T>(t, r.words + std::uint64_t{c.b[i]} * S);  // [teach:read]
      // [teach:match]
      const int p = first_slot(t, v, [k](word_type w, int) { return key_of(w) == k; });
      if (p < 0) continue;  // [teach:next]
      const word_type w = word_at(t, v, p);
      if (!is_marker(w)) return {op_status::found, value_of(w)};  // [teach:found]
      again = true;  // the key is moving: its copy is already in another candidate
    }
    if (!again && moved_since(t, r, c, before, 1)) again = true;  // not found, but something moved
  }
  if (stash_may_hold(t, r, c, stash_used)) {  // [teach:stash]
    const long long at = stash_find(t, r, k);
    if (at >= 0) {
      const word_type w = load_word(r.stash + at);
      if (key_of(w) == k) return {op_status::found, value_of(w)};  // [teach:stash_found]
    }
  }
  return {op_status::missing, k_empty};  // [teach:missing]
}
// teach-region-end

/// @brief DELETE (WCME): the elected lane CASes the word to empty, then frees its bit; a stashed
/// key's word is emptied in the stash.
// teach-region hive-erase-op
template <int S, int T>
__device__ op_result erase_op(const warp_tile<T>& t, const hive_ref& r, key_type k,
                              const dev_candidates& c, bool stash_used) {
  for (bool again = true; again;) {
    again = false;
    lock_snapshot before;
    if (t.lane == 0) before = snapshot_locks(r, c, 1);
#pragma unroll
    for (int i = 0; i < k_max_hashes; ++i) {
      if (again || i >= r.hashes.count || (i > 0 && c.b[i] == c.b[i - 1])) continue;
      word_type* bucket = r.words + std::uint64_t{c.b[i]} * S;
      for (;;) {
        const auto v = load_bucket<S, T>(t, bucket);  // [teach:read]
        // [teach:match]
        const int p = first_slot(t, v, [k](word_type w, int) { return key_of(w) == k; });
        if (p < 0) break;  // [teach:next]
        const word_type old = word_at(t, v, p);
        if (is_marker(old)) {  // the key is moving: look again from the first candidate
          again = true;
          break;
        }
        bool ok = false;
        if (t.lane == 0 && cas_word(bucket + p, old, k_empty_word) == old) {  // [teach:cas]
          meta_free(r, c.b[i], meta_word{1} << p);                            // [teach:free_bit]
          ok = true;
        }
        if (t.shfl(ok, 0)) return {op_status::erased, k_empty};  // [teach:erased]
        // the word changed under us (a replace, or a move by an eviction): look again
      }
    }
    if (!again && moved_since(t, r, c, before, 1)) again = true;  // not found, but something moved
  }
  if (stash_may_hold(t, r, c, stash_used)) {  // [teach:stash]
    for (;;) {
      const long long at = stash_find(t, r, k);
      if (at < 0) break;
      bool ok = false;
      if (t.lane == 0) {
        const word_type old = load_word(r.stash + at);
        if (key_of(old) == k && cas_word(r.stash + at, old, k_empty_word) == old) {
          meta_add(r, c.b[0], lock_part(0u - k_stash_hint_unit));
          atomicAdd(r.stash_live, ~0ull);  // minus one
          ok = true;
        }
      }
      if (t.shfl(ok, 0)) return {op_status::erased, k_empty};  // [teach:stash_erased]
    }
  }
  return {op_status::missing, k_empty};  // [teach:missing]
}
// teach-region-end

/// @brief Per-tile tallies of instrumented events, added to the device counters once per thread.
/// Packed, so they hold few registers through the kernel: a thread counts its own operation in
/// the first pass and, as lane 0, its tile's in the others (at most 2 T + 1 <= 65 inserts), and a
/// move and a lock at most once per hop of its tile's eviction paths (at most 32 x 8 x 32 each).
struct tallies {
  std::uint32_t steps = 0;        ///< inserts completed by step 1..4, 8 bits each
  std::uint32_t moves_locks = 0;  ///< moves in the low 16 bits, locks in the high
  std::uint32_t restarts = 0;
  /// Counts an insert completed by step s.
  __device__ void count_step(insert_step s) { steps += 1u << (8 * (static_cast<int>(s) - 1)); }
  __device__ void count_move() { moves_locks += 1u; }
  __device__ void count_lock() { moves_locks += 1u << 16; }
  __device__ std::uint32_t step(int i) const { return (steps >> (8 * i)) & 0xffu; }
  __device__ std::uint32_t moves() const { return moves_locks & 0xffffu; }
  __device__ std::uint32_t locks() const { return moves_locks >> 16; }
};

inline constexpr int k_claim_lost = -1, k_claim_moved = -2;

/// @brief Claims the lowest free slot of bucket b (one of k's candidates) through its mask (WABC):
/// lane 0 issues one atomicAnd on the bucket's metadata word; the old mask says whether the bit
/// was still ours to take (k_claim_lost: another tile took it first). The insert's watch is
/// folded in: the atomic returns b's move count with the mask, and the other candidates' counts
/// are read while it is in flight (one round trip for both). If a key moved out of a candidate
/// since `before`, the slot is given back unwritten (k_claim_moved): the scan may have missed the
/// key. A claim outside the first candidate sets its away bit, by the atomic that also reads its
/// lock word.
// teach-region hive-claim-slot
template <int T>
__device__ int claim_slot_watched(const warp_tile<T>& t, const hive_ref& r, const dev_candidates& c,
                                  std::uint32_t b, std::uint32_t mask,
                                  const lock_snapshot& before) {
  const int slot = __ffs(mask) - 1;  // [teach:lowest_free]
  int got = k_claim_lost;
  if (t.lane == 0) {
    const meta_word bit = meta_word{1} << slot;
    const meta_word old = meta_and(r, b, ~bit);  // [teach:atomic_and]
    lock_snapshot now;
#pragma unroll
    for (int i = 0; i < k_max_hashes; ++i)
      if (i < r.hashes.count)
        now.w[i] = c.b[i] == b ? lock_of(old)
                   : i == 0    ? lock_of(meta_or(r, c.b[0], lock_part(k_away_bit)))
                               : lock_of(load_meta(r, c.b[i]));
    const bool moved = moved_between(r, before, now, 0);
    const bool mine = (old & bit) != 0;
    if (mine && moved) meta_or(r, b, bit);
    got = moved ? k_claim_moved : mine ? slot : k_claim_lost;  // [teach:won]
  }
  return t.shfl(got, 0);
}
// teach-region-end

/// @brief A fixed-depth eviction path found before anything moves (lane 0 only; the arrays live
/// in local memory, touched only on this rare path).
struct eviction_path {
  std::uint32_t bucket[k_max_eviction_depth];
  std::uint8_t slot[k_max_eviction_depth];
  word_type word[k_max_eviction_depth];
  int length = 0;
  std::uint32_t dest = 0;  ///< the bucket with a free slot the last entry moves to
  std::uint32_t leaves_first =
      0;  ///< bit d: hop d moves its entry out of that key's first candidate
};

/// @brief Lane 0: walks from one of k's buckets, taking a pseudo-random victim in each (one not
/// yet on the path, with another candidate) and stepping to that candidate,
/// until a bucket has a free slot (true) or the depth is spent, a victim slot is found empty, or
/// a bucket holds no movable victim (false).
template <int S>
__device__ bool find_path(const hive_ref& r, key_type k, const dev_candidates& c, int attempt,
                          eviction_path& path) {
  // Selected, not indexed: an index into c would put the candidates in local memory for every
  // operation of the kernel, not just this rare one.
  const std::uint32_t start = victim_mix(k, r.seed, attempt, 63) % r.hashes.count;
  std::uint32_t cur = start == 0 ? c.b[0] : start == 1 ? c.b[1] : c.b[2];
  for (int d = 0; d < r.depth; ++d) {
    const int first = victim_mix(k, r.seed, attempt, d) % S;
    int slot = -1;
    word_type w = k_empty_word;
    std::uint64_t alt = k_no_bucket;
    for (int tries = 0; tries < S && alt == k_no_bucket; ++tries) {
      slot = (first + tries) % S;
      bool on_path = false;
      for (int e = 0; e < d; ++e) on_path |= path.bucket[e] == cur && path.slot[e] == slot;
      if (on_path) continue;
      w = load_word(r.words + std::uint64_t{cur} * S + slot);
      // Empty (freed, a claim in flight) or a marker (another path moving through): start over.
      if (w == k_empty_word || is_marker(w)) return false;
      const candidates vc = candidates_of(r.hashes, r.geo, key_of(w));
      alt = alternate_of(vc, cur);
      if (vc.b[0] == cur)
        path.leaves_first |= 1u << d;
      else
        path.leaves_first &= ~(1u << d);
    }
    if (alt == k_no_bucket) return false;
    path.bucket[d] = cur;
    path.slot[d] = static_cast<std::uint8_t>(slot);
    path.word[d] = w;
    path.length = d + 1;
    if (mask_of(load_meta(r, alt)) & all_free(S)) {
      path.dest = static_cast<std::uint32_t>(alt);
      return true;
    }
    cur = static_cast<std::uint32_t>(alt);
  }
  return false;
}

/// @brief Lane 0: executes a path backwards. Each hop, under the source bucket's lock, checks the
/// entry is still there, writes it to the slot ahead (claimed, or left by the previous hop with a
/// marker and still marked taken), fences, and replaces the original with a move marker by CAS;
/// a hop that finds its entry changed undoes its copy and gives the slot ahead back, empty.
/// Returns the slot (bucket * S + slot) left for the newcomer, or ~0 when the path broke.
template <int S>
__device__ std::uint64_t run_path(const hive_ref& r, const eviction_path& path, tallies& tl) {
  std::uint32_t m = mask_of(load_meta(r, path.dest)) & all_free(S);
  int free_slot = -1;
  while (m) {
    const int s = __ffs(m) - 1;
    const std::uint32_t old = mask_of(meta_and(r, path.dest, ~(meta_word{1} << s)));
    if ((old >> s) & 1u) {
      free_slot = s;
      break;
    }
    m = old & all_free(S);
  }
  if (free_slot < 0) return ~0ull;
  std::uint64_t ahead = std::uint64_t{path.dest} * S + free_slot;
  for (int d = path.length - 1; d >= 0; --d) {
    const std::uint32_t b = path.bucket[d];
    const std::uint64_t from = std::uint64_t{b} * S + path.slot[d];
    const word_type w = path.word[d];
    // A victim leaving its first candidate sets that bucket's away bit with the lock, before it
    // moves.
    const std::uint32_t away = (path.leaves_first >> d) & 1u ? k_away_bit : 0u;
    while (lock_of(meta_or(r, b, lock_part(k_lock_bit | away))) & k_lock_bit) __nanosleep(32);
    tl.count_lock();
    bool moved = false, give_back = true;
    if (load_word(r.words + from) == w) {
      store_word(r.words + ahead, w);
      __threadfence();  // the copy is visible before the original goes
      if (cas_word(r.words + from, w, move_marker(key_of(w))) == w) {
        moved = true;
      } else {
        // Changed meanwhile: take the copy back. If even the copy changed (a delete or replace
        // found it first), the slot is no longer ours to empty: leave it as they left it.
        give_back = cas_word(r.words + ahead, w, k_empty_word) == w;
      }
    }
    __threadfence();
    meta_add(
        r, b,
        lock_part(k_version_unit - k_lock_bit));  // unlock, and count the move (even a failed one)
    if (!moved) {
      if (give_back) {
        store_word(r.words + ahead, k_empty_word);  // it may still hold the previous hop's marker
        __threadfence();
        meta_or(r, ahead / S, meta_word{1} << (ahead % S));  // give the slot ahead back
      }
      return ~0ull;
    }
    tl.count_move();
    ahead = from;  // holds a marker, still marked taken: the next hop (or the newcomer) fills it
  }
  return ahead;
}

/// @brief Records a path in the ring (instrumentation on).
template <int S>
__device__ void record_path(const hive_ref& r, key_type k, const eviction_path& path) {
  const unsigned long long at = atomicAdd(r.path_head, 1ull) % k_path_ring;
  path_record& rec = r.paths[at];
  rec.length = static_cast<std::uint32_t>(path.length);
  rec.newcomer = k;
  rec.dest = path.dest;
  for (int d = 0; d < path.length; ++d) {
    rec.bucket[d] = path.bucket[d];
    rec.moved[d] = key_of(path.word[d]);
  }
}

inline constexpr int k_insert_attempts = 8;

/// @brief What step 1 of an insert found.
enum class scan_outcome : std::uint8_t { replaced, again, absent };

/// @brief Step 1 of an insert: the key in a candidate bucket (replaced there), or in the stash?
/// All candidates are read at once (one round trip, not one per bucket). Claims in flight are
/// waited out (again), so a concurrent insert of the same key is seen once it publishes; a move
/// marker of the key restarts the pass; so does a move out of a candidate while it
/// looked (the caller checks that, with `before`, as it claims). The free masks read here serve
/// step 2.
template <int S, int T>
__device__ scan_outcome scan_for_insert(const warp_tile<T>& t, const hive_ref& r, key_type k,
                                        word_type fresh, const dev_candidates& c, bool stash_used,
                                        lock_snapshot& before,
                                        std::uint32_t (&masks)[k_max_hashes]) {
  bool again = false;
  const bool second = r.hashes.count > 1 && c.b[1] != c.b[0];
  // Lane 0 reads the candidates' metadata words first: their lock halves are the watch's `before`
  // (parallel loads keep no order: every candidate is watched), their masks serve the in-flight
  // check and step 2.
  std::uint32_t m0 = 0, m1 = 0;
  if (t.lane == 0) {
    const meta_word q0 = load_meta(r, c.b[0]);
    const meta_word q1 = second ? load_meta(r, c.b[1]) : q0;
    before.w[0] = lock_of(q0);
    before.w[1] = lock_of(q1);
    if (r.hashes.count > 2) before.w[2] = lock_of(load_meta(r, c.b[2]));
    m0 = mask_of(q0);
    m1 = second ? mask_of(q1) : 0u;
  }
  // One candidate as loaded: replaced there (true), or its free mask noted, `again` set when the
  // key is moving or a claim is in flight.
  // mi: the bucket's free mask, on every lane.
  const auto examine = [&](int i, const bucket_view<S, T>& v, std::uint32_t mi) {
    const int p = first_slot(t, v, [k](word_type w, int) { return key_of(w) == k; });
    if (p >= 0) {
      const word_type old = word_at(t, v, p);
      bool ok = false;
      if (!is_marker(old) && t.lane == 0)
        ok = cas_word(r.words + std::uint64_t{c.b[i]} * S + p, old, fresh) == old;
      if (t.shfl(ok, 0)) return true;
      again = true;  // moving, or changed under us: read everything again
      return false;
    }
    if (first_slot(t, v, [mi](word_type w, int sl) {
          return w == k_empty_word && !((mi >> sl) & 1u);
        }) >= 0)
      again = true;
    masks[i] = mi & all_free(S);
    return false;
  };
#pragma unroll
  for (int i = 0; i < k_max_hashes; ++i) masks[i] = 0;
  {  // The first two candidates in one round trip; registers are kept for two buckets only.
    bucket_view<S, T> v0 = load_bucket<S, T>(t, r.words + std::uint64_t{c.b[0]} * S), v1{};
    if (second) v1 = load_bucket<S, T>(t, r.words + std::uint64_t{c.b[1]} * S);
    m0 = t.shfl(m0, 0);
    m1 = t.shfl(m1, 0);
    // The common case, neither bucket holding the key or a claim in flight, costs one ballot;
    // anything else is examined slot by slot.
    bool notable = false;
#pragma unroll
    for (int j = 0; j < S / T; ++j) {
      const unsigned bit = 1u << bucket_view<S, T>::slot_of(t.lane, j);
      notable |= key_of(v0.w[j]) == k || (v0.w[j] == k_empty_word && !(m0 & bit));
      notable |= second && (key_of(v1.w[j]) == k || (v1.w[j] == k_empty_word && !(m1 & bit)));
    }
    if (t.ballot(notable)) {
      if (examine(0, v0, m0)) return scan_outcome::replaced;
      if (second && !again && examine(1, v1, m1)) return scan_outcome::replaced;
    } else {
      masks[0] = m0 & all_free(S);
      if (second) masks[1] = m1 & all_free(S);
    }
  }
  if (!again && r.hashes.count > 2 && c.b[2] != c.b[1] && c.b[2] != c.b[0]) {
    const auto v2 = load_bucket<S, T>(t, r.words + std::uint64_t{c.b[2]} * S);
    std::uint32_t m2 = 0;
    if (t.lane == 0) m2 = mask_of(load_meta(r, c.b[2]));
    if (examine(2, v2, t.shfl(m2, 0))) return scan_outcome::replaced;
  }
  if (again) return scan_outcome::again;
  if (stash_may_hold(t, r, c, stash_used)) {
    const long long at = stash_find(t, r, k);
    if (at >= 0) {
      bool ok = false;
      if (t.lane == 0) {
        const word_type old = load_word(r.stash + at);
        ok = key_of(old) == k && cas_word(r.stash + at, old, fresh) == old;
      }
      return t.shfl(ok, 0) ? scan_outcome::replaced : scan_outcome::again;
    }
  }
  return scan_outcome::absent;
}

// teach-region hive-first-pass
/// @brief What a tile found in one operation's first candidate, for that operation's own thread:
/// the key's slot and the word there, and whether a claim was in flight (a slot taken in the
/// thread's free mask whose word was still empty).
struct first_look {
  int match = -1;
  word_type old = k_empty_word;
  bool in_flight = false;
};

/// @brief The first pass of every operation, run by every tile of a warp at once (the whole warp
/// converged): a tile reads the first candidates of G of its operations together (G * S / T <= 16
/// words a lane in flight), then hands each operation's thread what its bucket held. `mask` is
/// the thread's own free mask of its first candidate, read by the thread beside its tile's loads.
/// Reading one operation's bucket after another, with the decision's atomic in between, had a
/// warp wait 2 T round trips a pass (ncu on a session's batches: L2 45% and DRAM 36% busy, the
/// warps stalled on the loads).
template <int S, int T>
__device__ first_look look_in_first(const warp_tile<T>& t, const hive_ref& r, bool eligible,
                                    key_type k, std::uint32_t c0, std::uint32_t mask) {
  constexpr int W = S / T;
  constexpr int G = T * W <= 16 ? T : (16 / W > 1 ? 16 / W : 1);
  using view = bucket_view<S, T>;
  first_look mine;
#pragma unroll
  for (int g = 0; g < T; g += G) {
    view v[G];
#pragma unroll
    for (int j = 0; j < G; ++j) {  // every load first: no ballot or shuffle waits on one
      const std::uint32_t b = t.shfl_all(c0, g + j);
      if (t.shfl_all(eligible, g + j))
        v[j] = load_bucket<S, T>(t, r.words + std::uint64_t{b} * S);  // [teach:read]
      else
        v[j] = view{};
    }
#pragma unroll
    for (int j = 0; j < G; ++j) {
      const int src = g + j;
      const key_type sk = t.shfl_all(k, src);
      const std::uint32_t sm = t.shfl_all(mask, src);
      unsigned hit = 0;
      bool flight = false;
#pragma unroll
      for (int w = 0; w < W; ++w) {
        hit |= key_of(v[j].w[w]) == sk ? 1u << w : 0u;
        flight |= v[j].w[w] == k_empty_word && !((sm >> view::slot_of(t.lane, w)) & 1u);
      }
      const unsigned hits = t.ballot_all(hit != 0);  // [teach:ballot]
      const bool any_flight = t.ballot_all(flight) != 0;
      const unsigned at = hits ? unsigned(__ffs(hits) - 1) : 0u;  // a bucket holds a key once
      const unsigned h = t.shfl_all(hit, static_cast<int>(at));
      const int idx = h ? __ffs(h) - 1 : 0;
      const word_type old = t.shfl_all(v[j].at(idx), static_cast<int>(at));
      if (t.lane == static_cast<unsigned>(src)) {
        mine.match = hits ? view::slot_of(at, idx) : -1;
        mine.old = old;
        mine.in_flight = any_flight;
      }
    }
  }
  return mine;
}

/// @brief The first pass's decision, by the operation's own thread (every thread of the warp its
/// own atomic at once): what its first candidate c0 held decides the common cases of every kind.
/// The key there (not a move marker): a lookup has found it, a delete empties the word by CAS and
/// frees its bit, an insert replaces the word by CAS. The key absent and no claim in flight: while
/// c0 has its away bit clear and no stashed keys, the key can only be there. So an insert (where
/// `claim_ok`) claims c0's lowest free slot when c0 has at least first_choice_floor(S) free
/// (placement_of would choose it): one atomicAnd on its metadata word (WABC), which is also the
/// watch: any change of c0's lock word since `q` was read (a move out, the lock, an intent, a
/// hint, the away bit) gives the slot back. And a lookup or delete is a miss when c0's lock word,
/// read again after the bucket, says no key whose first candidate is c0 went elsewhere (the away
/// bit, set before any such key leaves, and the stash hints). Anything else (a marker, a lost CAS
/// or claim, a claim in flight, keys gone elsewhere) returns op_status::none: the later passes
/// take the operation, untouched.
template <int S>
__device__ op_result decide_first(const hive_ref& r, op_kind kind, key_type k, value_type val,
                                  std::uint32_t c0, meta_word q, const first_look& f,
                                  bool claim_ok) {
  word_type* bucket = r.words + std::uint64_t{c0} * S;
  if (f.match >= 0) {                                                       // [teach:match]
    if (is_marker(f.old)) return {};                                        // [teach:moving]
    if (kind == op_kind::find) return {op_status::found, value_of(f.old)};  // [teach:found]
    const word_type now = kind == op_kind::erase ? k_empty_word : pack(k, val);
    if (cas_word(bucket + f.match, f.old, now) != f.old) return {};  // [teach:cas]
    // [teach:replaced]
    if (kind == op_kind::insert) return {op_status::replaced, k_empty, insert_step::replace};
    meta_free(r, c0, meta_word{1} << f.match);  // [teach:free_bit]
    return {op_status::erased, k_empty};        // [teach:erased]
  }
  if (f.in_flight) return {};  // [teach:in_flight]
  constexpr std::uint32_t k_elsewhere = k_lock_bit | k_hint_bits | k_intent_bit | k_away_bit;
  if (kind == op_kind::insert) {
    const std::uint32_t free = mask_of(q) & all_free(S);
    // [teach:room]
    if (!claim_ok || __popc(free) < first_choice_floor(S) || (lock_of(q) & k_elsewhere)) return {};
    const int slot = __ffs(free) - 1;  // [teach:lowest_free]
    const meta_word bit = meta_word{1} << slot;
    const meta_word old = meta_and(r, c0, ~bit);  // [teach:atomic_and]
    const bool mine = (old & bit) != 0, changed = lock_of(old) != lock_of(q);
    if (mine && changed) meta_or(r, c0, bit);
    if (!mine || changed) return {};
    store_word(bucket + slot, pack(k, val));  // [teach:store]
    return {op_status::inserted, k_empty, insert_step::claim};
  }
  constexpr std::uint32_t k_gone = k_away_bit | k_hint_bits;
  if ((lock_of(q) & k_gone) || (load_lock(r, c0) & k_gone)) return {};  // [teach:away]
  return {op_status::missing, k_empty};                                 // [teach:missing]
}
// teach-region-end

/// @brief The common insert (steps 1 and 2 when nothing is in the way), run by every tile of a
/// warp at once: the whole warp must be here, converged, so the tiles share one instruction
/// stream with no divergent branch round a ballot or shuffle (a tile-by-tile path costs several
/// times the instructions, and the kernel is bound by its latency). Two candidates c0 != c1
/// (`eligible` false otherwise, or when the stash is in use): the key is in neither and neither
/// has a claim in flight, and one has a free slot; then it claims the lowest free slot of the
/// candidate placement_of chooses, watched as in claim_slot_watched (claiming in c1, the atomic
/// that sets c0's away bit reads c0's lock word), and stores the word. True (every lane) when
/// stored; false leaves the operation, untouched, to insert_op.
// teach-region hive-insert-common
template <int S, int T>
__device__ bool insert_common(const warp_tile<T>& t, const hive_ref& r, bool eligible, key_type k,
                              word_type fresh, std::uint32_t c0, std::uint32_t c1) {
  constexpr int W = S / T;
  meta_word q0 = 0, q1 = 0;
  if (t.lane == 0 && eligible) {
    q0 = load_meta(r, c0);
    q1 = load_meta(r, c1);
  }
  bucket_view<S, T> v0{}, v1{};
  if (eligible) {  // no ballot or shuffle inside: tiles may part here
    v0 = load_bucket<S, T>(t, r.words + std::uint64_t{c0} * S);  // [teach:read]
    v1 = load_bucket<S, T>(t, r.words + std::uint64_t{c1} * S);  // [teach:read_second]
  }
  const std::uint32_t m0 = t.shfl_all(mask_of(q0), 0), m1 = t.shfl_all(mask_of(q1), 0);
  bool notable = false;
#pragma unroll
  for (int j = 0; j < W; ++j) {
    const std::uint32_t bit = 1u << bucket_view<S, T>::slot_of(t.lane, j);
    notable |= key_of(v0.w[j]) == k || (v0.w[j] == k_empty_word && !(m0 & bit));
    notable |= key_of(v1.w[j]) == k || (v1.w[j] == k_empty_word && !(m1 & bit));
  }
  const bool clear = t.ballot_all(notable) == 0;  // [teach:ballot]
  const std::uint32_t f0 = m0 & all_free(S), f1 = m1 & all_free(S);
  // placement_of, two candidates:
  // [teach:placement]
  const bool use1 = __popc(f0) < first_choice_floor(S) && __popc(f1) > __popc(f0);
  const std::uint32_t free = use1 ? f1 : f0;
  bool ok = false;
  if (t.lane == 0 && eligible && clear && free != 0) {
    const std::uint32_t b = use1 ? c1 : c0;
    const int slot = __ffs(free) - 1;  // [teach:lowest_free]
    const meta_word bit = meta_word{1} << slot;
    const meta_word old = meta_and(r, b, ~bit);  // [teach:atomic_and]
    const meta_word other = use1 ? meta_or(r, c0, lock_part(k_away_bit)) : load_meta(r, c1);
    const std::uint32_t before_b = lock_of(use1 ? q1 : q0), before_o = lock_of(use1 ? q0 : q1);
    const std::uint32_t now_b = lock_of(old), now_o = lock_of(other);
    const bool moved = (((now_b ^ before_b) | (now_o ^ before_o)) & ~k_unwatched_bits) != 0 ||
                       ((now_b | now_o) & k_lock_bit) != 0;
    const bool mine = (old & bit) != 0;
    if (mine && moved) meta_or(r, b, bit);
    ok = mine && !moved;
    if (ok) store_word(r.words + std::uint64_t{b} * S + slot, fresh);  // [teach:store]
  }
  return t.shfl_all(ok, 0);  // [teach:passed_on]
}
// teach-region-end

/// @brief An insert's intent on its key, a bit of its first candidate's lock word: steps 3 and 4
/// run under it, since two inserts of one key that both found every candidate full would
/// otherwise both evict or stash it.
// teach-region hive-insert-intent
template <int T>
struct insert_intent {
  const warp_tile<T>& t;
  const hive_ref& r;
  const dev_candidates& c;
  bool held = false;

  __device__ __forceinline__ void take() {
    if (t.lane == 0)
      while (lock_of(meta_or(r, c.b[0], lock_part(k_intent_bit))) & k_intent_bit) __nanosleep(32);
    held = true;
  }
  __device__ __forceinline__ void release() {
    if (!held) return;
    __syncwarp(t.mask);
    if (t.lane == 0) {
      __threadfence();  // what was stored is visible before another insert of the key may look
      meta_and(r, c.b[0], ~lock_part(k_intent_bit));
    }
    held = false;
  }
};
// teach-region-end

/// @brief Step 2 of an insert: claim-then-commit in candidate `best` (placement_of's choice; its
/// free mask as step 1 read it), watched since `before` (claim_slot_watched). True (every lane)
/// when the word is stored; false when the claim was lost or a key moved meanwhile.
// teach-region hive-insert-claim
template <int S, int T>
__device__ __forceinline__ bool claim_and_store(const warp_tile<T>& t, const hive_ref& r,
                                                const dev_candidates& c, int best,
                                                const std::uint32_t (&masks)[k_max_hashes],
                                                const lock_snapshot& before, word_type fresh) {
  std::uint32_t b = c.b[0], m = masks[0];
#pragma unroll
  for (int i = 1; i < k_max_hashes; ++i)
    if (best == i) b = c.b[i], m = masks[i];
  const int slot = claim_slot_watched(t, r, c, b, m, before);  // [teach:claim]
  if (slot < 0) return false;
  // [teach:store]
  if (t.lane == 0) store_word(r.words + std::uint64_t{b} * S + slot, fresh);
  return true;
}
// teach-region-end

/// @brief Step 3 of an insert: lane 0 finds a bounded eviction path from one of k's candidates,
/// runs it, and stores the newcomer in the slot its first hop left. True (every lane) when
/// stored; false when no path was found or the path broke.
// teach-region hive-insert-evict
template <int S, int T>
__device__ __forceinline__ bool evict_and_store(const warp_tile<T>& t, const hive_ref& r,
                                                key_type k, word_type fresh,
                                                const dev_candidates& c, int attempt, tallies& tl) {
  std::uint64_t at = ~0ull;
  if (t.lane == 0) {
    eviction_path path;
    if (find_path<S>(r, k, c, attempt, path)) {  // [teach:find_path]
      // The newcomer takes the first hop's slot: outside its first candidate, that bucket's
      // away bit goes first (run_path fences before the newcomer's word is stored).
      if (path.bucket[0] != c.b[0]) meta_or(r, c.b[0], lock_part(k_away_bit));
      at = run_path<S>(r, path, tl);  // [teach:run_path]
      if (at != ~0ull) {
        store_word(r.words + at, fresh);  // [teach:evicted]
        if (r.instrument) {
          atomicAdd(r.counters + c_path_len0 + path.length, 1ull);
          record_path<S>(r, k, path);
        }
      }
    }
  }
  at = t.shfl(at, 0);
  return at != ~0ull;
}
// teach-region-end

/// @brief Step 4 of an insert: the overflow stash, a ring drained by the next expansion; full:
/// the insert is refused (failed_full) and nothing is stored.
// teach-region hive-insert-stash
template <int T>
__device__ __forceinline__ op_result stash_insert(const warp_tile<T>& t, const hive_ref& r,
                                                  const dev_candidates& c, word_type fresh) {
  unsigned long long pos = 0;
  if (t.lane == 0) {
    pos = atomicAdd(r.stash_tail, 1ull);  // [teach:stash]
    if (pos < r.stash_capacity) {
      store_word(r.stash + pos, fresh);  // [teach:stashed]
      meta_add(r, c.b[0], lock_part(k_stash_hint_unit));
      atomicAdd(r.stash_live, 1ull);
    } else {
      atomicAdd(r.counters + c_pending, 1ull);
    }
  }
  pos = t.shfl(pos, 0);
  if (pos < r.stash_capacity) return {op_status::inserted, k_empty, insert_step::stash};
  return {op_status::failed_full, k_empty, insert_step::stash};  // [teach:full]
}
// teach-region-end

/// @brief INSERT/REPLACE in four steps (the Hive paper, IV-A): replace a present key; claim a free
/// slot in a candidate bucket; evict along a bounded path; stash.
// teach-region hive-insert-op
template <int S, int T>
__device__ op_result insert_op(const warp_tile<T>& t, const hive_ref& r, key_type k, value_type val,
                               const dev_candidates& c, bool stash_used, tallies& tl) {
  const word_type fresh = pack(k, val);
  // Steps 3 and 4 run under the key's insert intent (insert_intent). Under the intent, step 1 is
  // done once more, with a fresh look at the stash (this batch may have stashed the key since it
  // started), before anything is moved.
  insert_intent<T> intent{t, r, c};
  // attempt counts eviction walks that failed; a lost claim only starts over (someone else won).
  for (int attempt = 0;;) {
    bool stash_now = stash_used;
    if (intent.held) {
      if (t.lane == 0) stash_now = load_word(reinterpret_cast<const word_type*>(r.stash_live)) != 0;
      stash_now = t.shfl(stash_now, 0);
    }
    std::uint32_t masks[k_max_hashes];
    lock_snapshot before;
    // [teach:scan]
    const scan_outcome found = scan_for_insert<S, T>(t, r, k, fresh, c, stash_now, before, masks);
    if (found == scan_outcome::replaced) {
      intent.release();
      return {op_status::replaced, k_empty, insert_step::replace};  // [teach:replaced]
    }
    if (found == scan_outcome::again) {
      intent.release();
      __nanosleep(64);
      continue;
    }
    // Step 2: claim-then-commit in the first candidate while it has room enough, else in the one
    // with the most free slots (placement_of). A lost claim means a slot was taken since step 1
    // (maybe by this key): start over.
    int free_slots[k_max_hashes];
#pragma unroll
    for (int i = 0; i < k_max_hashes; ++i) free_slots[i] = __popc(masks[i]);
    const int best = placement_of(free_slots, r.hashes.count, S);  // [teach:placement]
    if (best >= 0) {
      if (intent.held) {  // room appeared meanwhile: claim as any insert does, without the intent
        intent.release();
        continue;
      }
      if (claim_and_store<S, T>(t, r, c, best, masks, before, fresh))
        return {op_status::inserted, k_empty, insert_step::claim};
      if (t.lane == 0) ++tl.restarts;
      continue;
    }
    if (!intent.held) {  // every candidate full: look once more under the intent
      intent.take();
      continue;
    }
    // The scan under the intent may have missed a key in transit.
    if (moved_since(t, r, c, before, 0)) {
      intent.release();
      continue;
    }
    // Step 3: evict along a bounded path.
    if (r.depth > 0 && attempt < k_insert_attempts) {
      if (evict_and_store<S, T>(t, r, k, fresh, c, attempt, tl)) {
        intent.release();
        return {op_status::inserted, k_empty, insert_step::evict};
      }
      if (t.lane == 0) ++tl.restarts;
      if (++attempt < k_insert_attempts) {
        intent.release();
        continue;
      }
    }
    // Step 4: the stash (its word stored, or the insert refused).
    const op_result stashed = stash_insert<T>(t, r, c, fresh);
    intent.release();
    return stashed;
  }
}
// teach-region-end

}  // namespace hs::hive
