// A host copy of a hive table: buckets, free masks, lock words (stash hints), the used part of
// the stash, and the geometry. The CPU model keeps its state in one; the GPU table downloads one
// for tests; the invariant checker and the CPU backend's inspection read one.
#pragma once
#include <cstdint>
#include <vector>

#include "core/hive/hive_layout.hpp"

namespace hs::hive {

struct hive_image {
  int slots = 32;
  hash_policy hashes;
  geometry geo;
  std::vector<word_type> words;      ///< geo.buckets() * slots (more may be allocated)
  std::vector<std::uint32_t> masks;  ///< per bucket
  std::vector<std::uint32_t> locks;  ///< per bucket: lock bit and stash hint
  std::vector<word_type> stash;      ///< stash_capacity slots; the first `stash_used` handed out
  std::uint64_t stash_used = 0;

  word_type* bucket(std::uint64_t b) { return words.data() + b * slots; }
  const word_type* bucket(std::uint64_t b) const { return words.data() + b * slots; }
  candidates candidates_of(key_type k) const { return hive::candidates_of(hashes, geo, k); }
  std::uint64_t live_in_buckets() const;
  std::uint64_t live_in_stash() const;
};

}  // namespace hs::hive
