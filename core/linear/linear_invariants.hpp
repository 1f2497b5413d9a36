// The linear family's invariant checker, run on a copy of the slots (from either backend):
// every key reachable from its home slot without crossing an empty slot (tombstones are walked
// past), no key twice, the recorded longest probe (and each region's reach) bounding every key's
// displacement, counts
// agreeing with the table's stats, and in tombstone mode no key left with an erased value.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "core/common/hash.hpp"
#include "core/linear/linear_layout.hpp"
#include "core/table/table.hpp"

namespace hs::linear {

struct invariant_report {
  std::vector<std::string> problems;  ///< the first few violations, each a sentence
  std::uint64_t violations = 0;       ///< all violations found
  std::uint64_t live = 0, erased = 0, tombstones = 0;
  std::uint64_t displacement_sum = 0;
  std::uint32_t max_displacement = 0;
  bool ok() const { return violations == 0; }
  std::string describe() const;
};

/// @brief Checks the slots; with `stats`, also that its counts and probe bound agree; with `reach`
/// (a GPU table's reach words, linear_layout.hpp) and `stats`, that every key lies within its home
/// region's bound, where lookups stop. For slots of either width (linear_invariants.cpp
/// instantiates both).
template <class W>
invariant_report check_invariants(std::span<const W> slots, hash_kind hash,
                                  const table_stats* stats = nullptr,
                                  linear_delete_mode mode = linear_delete_mode::value,
                                  probe_policy probe = probe_policy::linear,
                                  std::span<const std::uint32_t> reach = {});
/// @brief The same for a vector of slots (a span of W cannot be deduced from it).
template <class W>
invariant_report check_invariants(const std::vector<W>& slots, hash_kind hash,
                                  const table_stats* stats = nullptr,
                                  linear_delete_mode mode = linear_delete_mode::value,
                                  probe_policy probe = probe_policy::linear,
                                  std::span<const std::uint32_t> reach = {}) {
  return check_invariants(std::span<const W>(slots), hash, stats, mode, probe, reach);
}

}  // namespace hs::linear
