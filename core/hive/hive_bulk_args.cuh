// What the bulk rounds' placing blocks work with (hive_bulk.cu): the rounds' sizes, a key's
// candidate bucket, the lists a round hands on, a round's arguments (place_args), a block's shared
// state and the fates of its keys. Apart from the blocks' steps (hive_bulk_place.cuh) and the
// host's rounds (hive_bulk.cu), which both use them. Included by hive_bulk.cu alone: its unnamed
// namespace keeps these names to that file, as they were.
#pragma once
#include <algorithm>
#include <cstdint>

#include "core/hive/hive_launch.hpp"

namespace hs::hive {

namespace {

constexpr int k_place_block = 256;
constexpr unsigned k_group_room =
    2048;  // keys a block sorts in shared memory; more: the insert kernels
// A block's groups: 1024 slots in the first round (at 0.9, ~920 keys a block, and the group's
// words fit in shared memory for the presence check); 8192 in later rounds (at most 512 buckets),
// whose keys are fewer (a block per group costs its latency however few keys it has).
constexpr int k_group_slots_log = 10;
constexpr int k_later_slots_log = 13;
constexpr int k_max_group_buckets_log = 9;
constexpr unsigned k_full = 0xffffffffu;

struct candidate_bucket {
  hive_ref r;
  int which;
  __device__ std::uint32_t operator()(key_type k) const {
    return static_cast<std::uint32_t>(r.geo.address(hash_with(fn_at(r.hashes, which), k)));
  }
};

/// A list of words the rounds hand on.
struct word_list {
  word_type* words = nullptr;
  unsigned long long* count = nullptr;
};

enum list_id : int { to_next = 0, to_general = 1 };

struct place_args {
  const word_type* words;  // grouped by the candidate's group of buckets
  const unsigned* group_bases;
  const unsigned* group_totals;
  int group_shift;
  int candidate;     // which of the keys' candidates the round fills
  bool first_round;  // presence checked (later rounds' keys are known absent), away bits set
  int cap;           // fill a bucket up to this many live slots
  word_list
      lists[2];  // to_next: first round, keys past the cap; to_general: for the insert kernels
};

/// What a block knows: its keys sorted by bucket, per position what becomes of it, per bucket
/// its metadata and (when presence must be checked) its words, and what it hands on (positions,
/// staged so that each list costs one global atomic per block, not one per key).
template <int S, bool First>
struct block_state {
  static constexpr unsigned k_buckets = std::min(
      (1u << (First ? k_group_slots_log : k_later_slots_log)) / S, 1u << k_max_group_buckets_log);
  word_type sorted[k_group_room];
  word_type words[First ? 1u << k_group_slots_log
                        : 1];              // the group's slots (buckets with keys to look for)
  unsigned short bucket_at[k_group_room];  // local bucket of each sorted position
  unsigned char fate[k_group_room];
  unsigned short fresh_before[k_group_room + 1];  // new keys before each position (block scan)
  unsigned short staged[2][k_group_room];
  unsigned start[k_buckets + 1];
  unsigned fill[k_buckets];
  std::uint32_t free_mask[k_buckets];
  std::uint32_t lock_word[k_buckets];
  unsigned staged_count[2];
  unsigned long long staged_base[2];
  unsigned tally[2];  // replaced, claimed
};

enum fate_of : unsigned char { fate_drop, fate_replaced, fate_fresh, fate_general };

}  // namespace

}  // namespace hs::hive
