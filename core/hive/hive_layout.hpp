// The hive layout of the Hive paper, shared by kernels, the CPU model, the invariant checker and
// the views: buckets of S packed 64-bit words (key in the low half, value in the high half; all
// ones = empty), one 32-bit free mask per bucket (bit i set = slot i free), one lock word per
// bucket (bit 0 the eviction lock; bits 1-14 count stashed keys whose first candidate is this
// bucket: lookups skip the stash unless a candidate's count is non-zero; bit 15 an insert's intent
// to evict or stash a key whose first candidate this is; bit 16 the away bit, set before any key
// whose first candidate this is gets placed in another bucket and kept until the table is
// cleared, so while it is clear such a key can only be here; bits 17-31 count moves out of the
// bucket, so an operation that found nothing can tell a key moved while it looked), and the
// linear-hashing geometry that maps a hash to a bucket at every point of a resize round.
#pragma once
#include <cstdint>

#include "core/common/host_device.hpp"
#include "core/common/types.hpp"
#include "core/hive/hive_hash.hpp"

namespace hs::hive {

using word_type = std::uint64_t;
inline constexpr word_type k_empty_word = ~word_type{0};
inline constexpr int k_max_hashes = 3;
inline constexpr int k_max_eviction_depth = 32;  ///< a path is held one hop per lane of a warp
inline constexpr std::uint32_t k_lock_bit = 1u;
inline constexpr std::uint32_t k_stash_hint_unit =
    2u;  ///< lock word: stashed-key count in bits 1-14
inline constexpr std::uint32_t k_hint_bits = 0x7ffeu;
inline constexpr std::uint32_t k_intent_bit =
    0x8000u;  ///< lock word: an insert evicting or stashing a key
              ///< whose first candidate this is
inline constexpr std::uint32_t k_away_bit = 1u << 16;  ///< lock word: a key whose first candidate
                                                       ///< this is may be in another bucket
inline constexpr std::uint32_t k_version_unit =
    1u << 17;  ///< lock word: moves out of the bucket, bits 17-31
/// Lock-word bits an operation's watch ignores: they change without moving anything it looks for.
inline constexpr std::uint32_t k_unwatched_bits = k_hint_bits | k_intent_bit | k_away_bit;
HS_HD std::uint32_t stash_hint(std::uint32_t lock_word) { return (lock_word & k_hint_bits) >> 1; }

/// @brief The GPU table keeps a bucket's free mask and lock word together in one 64-bit word (mask
/// in the low half): one load, one sector, gives an operation both, and the claim's atomic on it
/// returns the bucket's move count with the mask. Every atomic on it is 64-bit, so atomics on
/// either half never race as different-sized accesses. The CPU model and images keep two arrays.
using meta_word = std::uint64_t;
HS_HD std::uint32_t mask_of(meta_word m) { return static_cast<std::uint32_t>(m); }
HS_HD std::uint32_t lock_of(meta_word m) { return static_cast<std::uint32_t>(m >> 32); }
HS_HD meta_word make_meta(std::uint32_t mask, std::uint32_t lock) {
  return meta_word{mask} | (meta_word{lock} << 32);
}
/// @brief Lock-word bits (or a lock-word addend) placed in the high half.
HS_HD meta_word lock_part(std::uint32_t lock_bits) { return meta_word{lock_bits} << 32; }

HS_HD word_type pack(key_type k, value_type v) { return word_type{k} | (word_type{v} << 32); }
HS_HD key_type key_of(word_type w) { return static_cast<key_type>(w); }
HS_HD value_type value_of(word_type w) { return static_cast<value_type>(w >> 32); }
HS_HD std::uint32_t all_free(int slots) { return slots == 32 ? 0xffffffffu : (1u << slots) - 1u; }

/// @brief Placement (step 2): a key goes to its first candidate while that bucket has at least
/// this many free slots, else to the candidate with the most. Mostly-first placement keeps most
/// away bits clear, so most inserts read one bucket; the floor keeps some balance, without which
/// first candidates fill early and send inserts to the eviction path. Measured on the H200 (16
/// slots, 2^25, a fill to 0.9): 81% of the inserts read one bucket; the price is more evictions
/// near full (6% of the inserts at 0.91, against 0.65% when every key went to the emptier).
HS_HD int first_choice_floor(int slots) { return slots / 4; }
/// @brief The candidate step 2 claims in, from each candidate's free slots; -1 when all are full.
/// (Constant indices only, once unrolled: the counts stay in registers on the device.)
HS_HD int placement_of(const int (&free_slots)[k_max_hashes], int count, int slots) {
  if (free_slots[0] >= first_choice_floor(slots)) return 0;
  int best = -1, most = 0;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int i = 0; i < k_max_hashes; ++i)
    if (i < count && free_slots[i] > most) best = i, most = free_slots[i];
  return best;
}

/// @brief Linear hashing (the Hive paper, IV-C): `round` buckets (a power of two) are addressed by
/// the low bits of a hash; buckets below `split` have been split this round, so they and their
/// partners (b + round) take one more bit. Buckets in use: round + split.
struct geometry {
  std::uint64_t round = 0;
  std::uint64_t split = 0;
  HS_HD std::uint64_t buckets() const { return round + split; }
  HS_HD std::uint64_t address(std::uint32_t h) const {
    const std::uint64_t b = h & (round - 1);
    return b < split ? h & (2 * round - 1) : b;
  }
};

/// @brief A key's candidate buckets (count of them; duplicates possible when two hashes agree).
struct candidates {
  std::uint64_t b[k_max_hashes] = {};
  int count = 0;
};

// Written without loops over runtime indices: on the device those would put the arrays in local
// memory. An unused third candidate repeats the first.
HS_HD candidates candidates_of(const hash_policy& p, const geometry& g, key_type k) {
  candidates c;
  c.count = p.count;
  c.b[0] = g.address(hash_with(p.fns[0], k));
  c.b[1] = g.address(hash_with(p.fns[1], k));
  c.b[2] = p.count > 2 ? g.address(hash_with(p.fns[2], k)) : c.b[0];
  return c;
}

inline constexpr std::uint64_t k_no_bucket = ~std::uint64_t{0};

/// @brief Which of its candidates bucket b is for a key (0: the first); the views' displacement.
HS_HD int candidate_index(const candidates& c, std::uint64_t b) {
  return c.b[0] == b ? 0 : c.b[1] == b ? 1 : 2;
}

/// @brief Where an eviction moves a key found in bucket `from`: its next candidate after `from`
/// (wrapping), so a path cycles through all of a key's buckets; k_no_bucket when all its
/// candidates are `from`.
HS_HD std::uint64_t alternate_of(const candidates& c, std::uint64_t from) {
  std::uint64_t next = k_no_bucket;
  if (from == c.b[0])
    next = c.b[1];
  else if (from == c.b[1])
    next = c.count > 2 ? c.b[2] : c.b[0];
  else if (c.count > 2 && from == c.b[2])
    next = c.b[0];
  if (next == from && c.count > 2) next = from == c.b[2] ? c.b[1] : c.b[2];
  return next == from ? k_no_bucket : next;
}

/// @brief A move marker: the key of a word an eviction has just copied elsewhere, with the
/// reserved empty value. It stands in the old slot until the path's next hop overwrites it, so a
/// lookup that scanned the new bucket before the copy arrived meets the marker and looks again.
HS_HD word_type move_marker(key_type k) { return pack(k, k_empty); }
HS_HD bool is_marker(word_type w) { return w != ~word_type{0} && value_of(w) == k_empty; }

/// @brief The pseudo-random choices of an eviction walk (its start and each victim slot): a mix
/// of the key, a seed, the attempt and the hop.
HS_HD std::uint32_t victim_mix(key_type k, std::uint32_t seed, int attempt, int hop) {
  const murmur3_hash h;
  return h(k ^ h(seed + 0x9e3779b9u * static_cast<std::uint32_t>(attempt * 64 + hop + 1)));
}

/// @brief Which insert step completed an insert (the Hive paper, IV-A), for the step breakdown.
enum class insert_step : std::uint8_t { replace = 1, claim = 2, evict = 3, stash = 4 };

}  // namespace hs::hive
