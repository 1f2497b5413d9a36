// What an inspection of a hive table gives beyond the common parts: the bucket fill, the stash's
// words, the recent eviction paths, one key's candidate buckets (a traced step); and what a
// sample asks for to get them.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/probe_histogram.hpp"
#include "core/common/types.hpp"

namespace hs {

/// @brief one live word of the overflow stash, at its ring position.
struct stash_entry {
  std::uint64_t position = 0;
  key_type key = k_empty;
  value_type value = k_empty;
};

/// @brief the most moves an eviction path may make (one hop per lane of a warp).
inline constexpr int k_max_eviction_path = 32;

/// @brief one recent eviction path. The newcomer's key, then per hop the bucket a
/// key moved out of and that key; `dest` is the bucket with a free slot the last moved key went to.
struct eviction_path {
  std::uint32_t length = 0;  ///< hops (buckets a key moved out of)
  key_type newcomer = 0;
  std::uint64_t bucket[k_max_eviction_path] = {};
  key_type moved[k_max_eviction_path] = {};  ///< moved[d]: the key moved out of bucket[d] (moved[0]
                                             ///< made room for the newcomer)
  std::uint64_t dest = 0;
};

/// @brief One candidate bucket of a key as an operation will find it (a traced step's before).
struct hive_bucket_before {
  std::uint64_t bucket = 0;
  std::vector<std::uint64_t> words;  ///< the bucket's packed words (key low, value high; ~0 empty)
  std::uint32_t free_mask = 0;       ///< bit i set: slot i free
  std::uint32_t lock = 0;            ///< the lock word (hive_layout.hpp: hints, intent, away bit)
};

/// @brief What an operation on `key` will read: its candidates in order (a repeated candidate
/// repeated), whether the stash holds live words, and where the key sits in it if it does.
struct hive_key_before {
  key_type key = 0;
  std::vector<hive_bucket_before> candidates;
  bool stash_used = false;
  std::optional<std::uint64_t> stash_position;
};

struct hive_inspect_request {
  bool bucket_fill = false;         ///< histogram of live slots per bucket
  bool stash = false;               ///< the stash's live words
  std::uint32_t stash_limit = 512;  ///< most stash words to copy
  bool paths = false;               ///< the recent eviction paths (instrumented)
  std::optional<key_type> key;      ///< a key's candidate buckets and stash (hive_key_before)
};

/// @brief Whether two samples read the hive's part alike: always, since its parts (the bucket
/// fill, the stash, the paths) are read whole whichever slots are shown, and a key's candidates are
/// asked for by a traced step, never by the sampler.
inline bool same_reading(const hive_inspect_request&, const hive_inspect_request&) { return true; }

struct hive_inspect_result {
  hs::probe_histogram bucket_fill;   ///< live slots per bucket, 0..slots
  std::vector<stash_entry> stash;    ///< live stash words, oldest first (at most stash_limit)
  std::vector<eviction_path> paths;  ///< the recent eviction paths, oldest first
  std::optional<hive_key_before> key;
};

}  // namespace hs
