// The invariant checker accepts real tables and catches each kind of planted violation.
#include <catch2/catch_test_macros.hpp>

#include "core/linear/linear_invariants.hpp"
#include "core/linear/linear_model.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using namespace hs::linear;

namespace {
std::vector<slot_word> filled(std::uint64_t capacity, std::size_t n, table_stats& st) {
  table_config cfg;
  cfg.capacity = capacity;
  linear_model m(cfg);
  const auto keys = test::random_keys(n, 21);
  for (std::size_t i = 0; i < n; ++i) m.insert_one(keys[i], static_cast<value_type>(i));
  for (std::size_t i = 0; i < n; i += 7) m.erase_one(keys[i]);
  st = m.stats({});
  return {m.slots().begin(), m.slots().end()};
}
}  // namespace

TEST_CASE("a table built by the model satisfies the invariants", "[linear][invariants]") {
  table_stats st;
  const auto slots = filled(4096, 3800, st);
  const invariant_report r = check_invariants(slots, hash_kind::murmur3, &st);
  INFO(r.describe());
  CHECK(r.ok());
  CHECK(r.live == st.live);
  CHECK(r.erased > 0);
}

TEST_CASE("the checker finds planted violations", "[linear][invariants]") {
  table_stats st;
  auto slots = filled(1024, 900, st);
  SECTION("a key stored twice") {
    std::size_t a = 0;
    while (!holds_key(slots[a])) ++a;
    std::size_t b = a + 1;
    while (slots[b % slots.size()] != k_empty_slot) ++b;
    slots[b % slots.size()] = slots[a];
    CHECK_FALSE(check_invariants(slots, hash_kind::murmur3).ok());
  }
  SECTION("an empty slot between a key and its home") {
    // Find a key displaced by at least one slot and empty the slot before it.
    const auto mask = static_cast<std::uint32_t>(slots.size() - 1);
    bool planted = false;
    for (std::uint32_t s = 0; s < slots.size() && !planted; ++s) {
      if (holds_key(slots[s]) && slot_displacement<murmur3_hash>(s, slots[s], mask) >= 1) {
        slots[(s - 1) & mask] = k_empty_slot;
        planted = true;
      }
    }
    REQUIRE(planted);
    const invariant_report r = check_invariants(slots, hash_kind::murmur3);
    CHECK_FALSE(r.ok());
    CHECK(r.describe().find("unreachable") != std::string::npos);
  }
  SECTION("counts that disagree with the stats") {
    st.live += 1;
    CHECK_FALSE(check_invariants(slots, hash_kind::murmur3, &st).ok());
  }
  SECTION("a probe bound shorter than a key's displacement") {
    st.max_displacement = 0;
    const invariant_report r = check_invariants(slots, hash_kind::murmur3, &st);
    CHECK_FALSE(r.ok());
  }
}

TEST_CASE("the reach check accepts exact reach words and catches a low one",
          "[linear][invariants]") {
  table_stats st;
  const auto slots = filled(4096, 4000, st);  // load 0.98: keys lie past k_reach_near
  // Each region's exact reach, as a GPU table records it: displacements past k_reach_near only.
  std::vector<std::uint32_t> reach(reach_regions(slots.size()), 0);
  const auto mask = static_cast<std::uint32_t>(slots.size() - 1);
  std::uint32_t far = 0, far_home = 0;
  for (std::uint32_t s = 0; s < slots.size(); ++s) {
    if (!holds_key(slots[s])) continue;
    const std::uint32_t home = home_slot<murmur3_hash>(slot_key(slots[s]), mask);
    const std::uint32_t d = displacement(s, home, mask);
    std::uint32_t& word = reach[home >> k_reach_region_log2];
    if (d > k_reach_near && d > word) word = d;
    if (d > far) far = d, far_home = home;
  }
  REQUIRE(far > k_reach_near);
  const auto checked = [&] {
    return check_invariants(slots, hash_kind::murmur3, &st, linear_delete_mode::value,
                            probe_policy::linear, reach);
  };
  CHECK(checked().ok());
  reach[far_home >> k_reach_region_log2] = far - 1;  // one slot short of the farthest key
  const invariant_report r = checked();
  CHECK(r.violations == 1);
  CHECK(r.describe().find("past its region's reach") != std::string::npos);
  reach.pop_back();
  CHECK(checked().describe().find("reach words") != std::string::npos);
}
