// The steps of an insert after the common pass (insert_op in hive_ops.cuh runs them): step 1's
// scan of every candidate and the stash (scan_for_insert), the watched claim (claim_slot_watched,
// claim_and_store), the key's insert intent, the eviction (evict_and_store) and the stash
// (stash_insert). Apart from hive_ops.cuh so that each file stays one subject.
#pragma once
#include <cstdint>

#include "core/hive/hive_evict.cuh"
#include "core/hive/hive_launch.hpp"
#include "core/hive/hive_op_parts.cuh"

namespace hs::hive {

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

/// @brief What step 1 of an insert found.
enum class scan_outcome : std::uint8_t { replaced, again, absent };

/// @brief Step 1's first reads, by lane 0 (scan_for_insert): the candidates' metadata words, their
/// lock halves into `before`, the first two candidates' free masks into m0 and m1 (m1 zero when
/// `second` is false).
template <int T>
__device__ __forceinline__ void read_candidate_meta(const warp_tile<T>& t, const hive_ref& r,
                                                    const dev_candidates& c, bool second,
                                                    lock_snapshot& before, std::uint32_t& m0,
                                                    std::uint32_t& m1) {
  if (t.lane == 0) {
    const meta_word q0 = load_meta(r, c.b[0]);
    const meta_word q1 = second ? load_meta(r, c.b[1]) : q0;
    before.w[0] = lock_of(q0);
    before.w[1] = lock_of(q1);
    if (r.hashes.count > 2) before.w[2] = lock_of(load_meta(r, c.b[2]));
    m0 = mask_of(q0);
    m1 = second ? mask_of(q1) : 0u;
  }
}

/// @brief Step 1's end, once no candidate held the key or a claim in flight (scan_for_insert): k
/// in the stash is replaced there (replaced; again when its word changed meanwhile); absent when
/// the stash does not hold it.
template <int T>
__device__ __forceinline__ scan_outcome replace_in_stash(const warp_tile<T>& t, const hive_ref& r,
                                                         key_type k, word_type fresh,
                                                         const dev_candidates& c, bool stash_used) {
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
  read_candidate_meta(t, r, c, second, before, m0, m1);
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
  return replace_in_stash(t, r, k, fresh, c, stash_used);
}

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

}  // namespace hs::hive
