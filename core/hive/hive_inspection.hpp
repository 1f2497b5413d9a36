// What an inspection of a hive table gives beyond the common parts: the bucket fill, the stash's
// words, the recent eviction paths; and what a sample asks for to get them.
#pragma once
#include <cstdint>
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

struct hive_inspect_request {
  bool bucket_fill = false;         ///< histogram of live slots per bucket
  bool stash = false;               ///< the stash's live words
  std::uint32_t stash_limit = 512;  ///< most stash words to copy
  bool paths = false;               ///< the recent eviction paths (instrumented)
};

struct hive_inspect_result {
  hs::probe_histogram bucket_fill;   ///< live slots per bucket, 0..slots
  std::vector<stash_entry> stash;    ///< live stash words, oldest first (at most stash_limit)
  std::vector<eviction_path> paths;  ///< the recent eviction paths, oldest first
};

}  // namespace hs
