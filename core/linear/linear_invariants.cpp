// Linear-probing invariants in O(capacity + n log n): one walk around the table that remembers the
// last empty slot decides reachability of every key; a radix sort finds duplicates.
#include "core/linear/linear_invariants.hpp"

#include <algorithm>

#include "core/common/duplicate_keys.hpp"
#include "core/common/format.hpp"

namespace hs::linear {

namespace {

/// "0x0000002a", as the window writes keys (at least 8 hex digits).
std::string hex(std::uint64_t k) { return key_text(k, key_radix::hex); }

/// Every key within reach_bound of its home region's word (the walk a lookup makes).
template <class Hash, class W>
void check_reach(std::span<const W> slots, std::span<const std::uint32_t> reach,
                 std::uint32_t longest, invariant_report& r) {
  using I = index_of_t<W>;
  if (reach.size() != reach_regions(slots.size())) {
    r.problems.push_back(strprintf("%zu reach words for %zu slots, where %llu are kept",
                                   reach.size(), slots.size(),
                                   (unsigned long long)reach_regions(slots.size())));
    ++r.violations;
    return;
  }
  const auto mask = static_cast<I>(slots.size() - 1);
  for (std::uint64_t i = 0; i < slots.size(); ++i) {
    const auto s = static_cast<I>(i);
    const W w = slots[s];
    if (classify(w) != slot_state::live && classify(w) != slot_state::erased) continue;
    const I home = home_slot<Hash>(slot_key(w), mask);
    const std::uint32_t d = slot_displacement<Hash>(s, w, mask);
    const std::uint32_t bound = reach_bound(reach[home >> k_reach_region_log2], longest);
    if (d <= bound) continue;
    if (r.problems.size() < 16)
      r.problems.push_back(
          strprintf("key %s lies %u slots from its home %llu, past its "
                    "region's reach %u: lookups would miss it",
                    hex(slot_key(w)).c_str(), d, static_cast<unsigned long long>(home), bound));
    ++r.violations;
  }
}

template <class Hash, class W>
void check_with(std::span<const W> slots, invariant_report& r) {
  using I = index_of_t<W>;
  using K = key_of_t<W>;
  const auto mask = static_cast<I>(slots.size() - 1);
  auto problem = [&](std::string msg) {
    if (r.problems.size() < 16) r.problems.push_back(std::move(msg));
    ++r.violations;
  };

  // Start the walk just after an empty slot so that "the last empty slot" is always known.
  std::uint64_t start = 0;
  bool any_empty = false;
  for (std::uint64_t s = 0; s < slots.size(); ++s)
    if (is_empty_slot(slots[s])) {
      start = s + 1;
      any_empty = true;
      break;
    }
  std::uint64_t last_empty_step =
      0;  // walk step of the last empty slot (step 0 = the one before start)
  std::vector<K> keys;
  keys.reserve(slots.size());
  for (std::uint64_t step = 1; step <= slots.size(); ++step) {
    const auto s = static_cast<I>((start + step - 1) & mask);
    const W w = slots[s];
    switch (classify(w)) {
      case slot_state::empty: last_empty_step = step; continue;
      case slot_state::tombstone: ++r.tombstones; continue;
      case slot_state::live: ++r.live; break;
      case slot_state::erased: ++r.erased; break;
    }
    const std::uint32_t d = slot_displacement<Hash>(s, w, mask);
    r.displacement_sum += d;
    r.max_displacement = std::max(r.max_displacement, d);
    keys.push_back(slot_key(w));
    if constexpr (probe_of<Hash>::type::is_double) {
      // Along the key's own probe sequence, every slot before it must be taken.
      const K k = slot_key(w);
      const I home = home_slot<Hash>(k, mask);
      for (std::uint32_t i = 0; i < d; ++i)
        if (is_empty_slot(slots[probe_slot<Hash>(home, k, i, mask)])) {
          problem(strprintf(
              "key %s in slot %llu (probe %u) is unreachable: its probe %u, slot %llu, is empty",
              hex(k).c_str(), static_cast<unsigned long long>(s), d, i,
              static_cast<unsigned long long>(probe_slot<Hash>(home, k, i, mask))));
          break;
        }
    } else if (any_empty && step - last_empty_step <= d) {
      problem(
          strprintf("key %s in slot %llu is unreachable: an empty slot lies between it and "
                    "its home slot %llu",
                    hex(slot_key(w)).c_str(), static_cast<unsigned long long>(s),
                    static_cast<unsigned long long>((s - d) & mask)));
    }
  }
  for (K k : duplicated_keys(keys))
    problem(strprintf("key %s is stored more than once", hex(k).c_str()));
}

}  // namespace

std::string invariant_report::describe() const {
  if (ok()) return "invariants hold";
  std::string s = std::to_string(violations) + " invariant violation(s):";
  for (const auto& p : problems) s += "\n  " + p;
  return s;
}

template <class W>
invariant_report check_invariants(std::span<const W> slots, hash_kind hash,
                                  const table_stats* stats, linear_delete_mode mode,
                                  probe_policy probe, std::span<const std::uint32_t> reach) {
  invariant_report r;
  dispatch_probing(hash, probe, [&](auto h) {
    check_with<decltype(h)>(slots, r);
    if (stats && !reach.empty()) check_reach<decltype(h)>(slots, reach, stats->max_displacement, r);
  });
  if (mode == linear_delete_mode::tombstone && r.erased) {
    r.problems.push_back(
        strprintf("%llu keys hold an erased value, which tombstone mode never leaves",
                  static_cast<unsigned long long>(r.erased)));
    ++r.violations;
  }
  if (stats) {
    auto expect = [&](const char* what, std::uint64_t got, std::uint64_t want) {
      if (got != want) {
        if (r.problems.size() < 16)
          r.problems.push_back(strprintf("%s: the slots hold %llu but stats report %llu", what,
                                         static_cast<unsigned long long>(got),
                                         static_cast<unsigned long long>(want)));
        ++r.violations;
      }
    };
    expect("live keys", r.live, stats->live);
    expect("erased keys", r.erased, stats->erased);
    expect("tombstones", r.tombstones, stats->tombstones);
    expect("occupied slots", r.live + r.erased + r.tombstones, stats->occupied);
    expect("capacity", slots.size(), stats->capacity);
    if (r.max_displacement > stats->max_displacement) {
      r.problems.push_back(
          strprintf("a key lies %u slots from home but the recorded probe bound is "
                    "%u: lookups would miss it",
                    r.max_displacement, stats->max_displacement));
      ++r.violations;
    }
  }
  return r;
}

template invariant_report check_invariants(std::span<const slot_word>, hash_kind,
                                           const table_stats*, linear_delete_mode, probe_policy,
                                           std::span<const std::uint32_t>);
template invariant_report check_invariants(std::span<const wide_slot>, hash_kind,
                                           const table_stats*, linear_delete_mode, probe_policy,
                                           std::span<const std::uint32_t>);

}  // namespace hs::linear
