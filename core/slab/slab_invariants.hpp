// The slab family's invariant checker, run on a slab_image from either backend: every list ends
// (no dangling pointer, no cycle); every key lies in its own bucket's list; the allocator's bitmaps
// agree exactly with the slabs reachable from the buckets (no leak, no slab in two lists); unique
// mode holds no key twice and fills each list in order; multi mode leaves no tombstone; and after
// FLUSH every list has the fewest slabs that hold its live pairs.
#pragma once
#include <string>
#include <vector>

#include "core/slab/slab_image.hpp"
#include "core/table/table.hpp"

namespace hs::slab {

struct invariant_report {
  std::vector<std::string> problems;  ///< the first few violations, each a sentence
  std::uint64_t violations = 0;
  std::uint64_t live = 0, deleted = 0, chained = 0;
  bool ok() const { return violations == 0; }
  std::string describe() const;
};

struct invariant_options {
  const table_stats* stats = nullptr;  ///< counts to agree with
  bool flushed = false;                ///< expect minimal lists without deleted pairs
};

invariant_report check_invariants(const slab_image& img, const invariant_options& opt = {});

}  // namespace hs::slab
