// An insert's bounded eviction (step 3, lane 0 alone): the path found before anything moves
// (find_path), run backwards under each bucket's lock (run_path), and recorded in the ring
// (record_path). Apart from the insert's other steps (hive_insert_steps.cuh): a rare path with its
// own data, eviction_path.
#pragma once
#include <cstdint>

#include "core/hive/hive_op_parts.cuh"

namespace hs::hive {

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

}  // namespace hs::hive
