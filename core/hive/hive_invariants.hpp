// The hive family's invariant checker, run on a hive_image from either backend: every key lies in
// one of its candidate buckets (under the geometry of the moment) or in the stash, never twice;
// free masks agree exactly with the slots; no bucket lock is held between batches; the stash
// hints count exactly the stashed keys of each first-candidate bucket; a key outside its first
// candidate has that bucket's away bit set.
#pragma once
#include <string>
#include <vector>

#include "core/hive/hive_image.hpp"
#include "core/table/table.hpp"

namespace hs::hive {

struct invariant_report {
  std::vector<std::string> problems;  ///< the first few violations, each a sentence
  std::uint64_t violations = 0;
  std::uint64_t live = 0, stashed = 0;
  bool ok() const { return violations == 0; }
  std::string describe() const;
};

/// @brief Checks the image; `stats` (optional) must agree with what the image holds.
invariant_report check_invariants(const hive_image& img, const table_stats* stats = nullptr);

}  // namespace hs::hive
