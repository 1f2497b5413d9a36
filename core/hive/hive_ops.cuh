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
//
// This file holds what the kernels call (hive_kernels.cu): the first pass of every operation
// (look_in_first, decide_first), the common insert (insert_common) and the general insert
// (insert_op); the rest is in the files it includes (hive_access.cuh, hive_op_parts.cuh,
// hive_find_erase.cuh, hive_evict.cuh, hive_insert_steps.cuh).
#pragma once
#include <cstdint>

#include "core/common/warp_tile.cuh"
#include "core/hive/hive_access.cuh"
#include "core/hive/hive_find_erase.cuh"
#include "core/hive/hive_insert_steps.cuh"
#include "core/hive/hive_launch.hpp"
#include "core/hive/hive_op_parts.cuh"

namespace hs::hive {

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

inline constexpr int k_insert_attempts = 8;

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
