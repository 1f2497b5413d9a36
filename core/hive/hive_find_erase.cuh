// A tile's lookup (find_op) and delete (erase_op) outside the first pass, each watching for keys
// in transit (hive_ops.cuh's header gives the rules). Apart from the inserts (hive_ops.cuh,
// hive_insert_steps.cuh): neither needs anything of theirs.
#pragma once
#include <cstdint>

#include "core/hive/hive_op_parts.cuh"

namespace hs::hive {

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

}  // namespace hs::hive
