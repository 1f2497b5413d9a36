// The CPU model in tombstone mode (Reusing Deleted Slots): erase leaves a tombstone, inserts reuse
// the first tombstone of the probe, and never store a key a second time.
#include <algorithm>

#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include "core/common/error.hpp"
#include "core/linear/linear_invariants.hpp"
#include "core/linear/linear_model.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using namespace hs::linear;

namespace {
linear_model tombstone_model(std::uint64_t capacity, hash_kind h = hash_kind::identity) {
  table_config cfg;
  cfg.capacity = capacity;
  cfg.hash = h;
  cfg.linear.deletes = linear_delete_mode::tombstone;
  return linear_model(cfg);
}
}  // namespace

TEST_CASE("erase leaves a tombstone that probes walk past", "[linear][model][tombstone]") {
  auto m = tombstone_model(16);
  m.insert_one(5, 50);
  m.insert_one(21, 210);  // home 5: lands in slot 6
  CHECK(m.erase_one(5) == op_status::erased);
  CHECK(slot_key(m.slots()[5]) == k_tombstone);
  CHECK(slot_value(m.slots()[5]) == k_empty);
  value_type v = 0;
  CHECK(m.find_one(21, v) == op_status::found);  // behind the tombstone
  CHECK(v == 210);
  CHECK(m.find_one(5, v) == op_status::missing);
  const table_stats st = m.stats({});
  CHECK(st.tombstones == 1);
  CHECK(st.erased == 0);
  CHECK(st.live == 1);
}

TEST_CASE("inserts reuse the first tombstone of their probe", "[linear][model][tombstone]") {
  auto m = tombstone_model(16);
  m.insert_one(5, 50);
  m.insert_one(6, 60);
  m.erase_one(5);
  m.erase_one(6);
  CHECK(m.insert_one(37, 370) == op_status::inserted);  // home 5: the tombstone in slot 5
  CHECK(slot_key(m.slots()[5]) == 37);
  CHECK(slot_key(m.slots()[6]) == k_tombstone);
  CHECK(m.stats({}).occupied == 2);  // reuse takes no new slot
}

TEST_CASE(
    "a key behind a tombstone is overwritten, not stored twice (the Reusing Deleted Slots "
    "article's flaw)",
    "[linear][model][tombstone]") {
  auto m = tombstone_model(16);
  m.insert_one(5, 50);    // slot 5
  m.insert_one(21, 210);  // home 5, slot 6
  m.erase_one(5);         // slot 5 becomes a tombstone, in front of key 21
  // Reusing Deleted Slots would claim slot 5 for key 21 and leave the old copy in slot 6.
  CHECK(m.insert_one(21, 211) == op_status::replaced);
  CHECK(slot_key(m.slots()[5]) == k_tombstone);
  CHECK(slot_key(m.slots()[6]) == 21);
  CHECK(slot_value(m.slots()[6]) == 211);
  CHECK(check_invariants(m.slots(), hash_kind::identity, nullptr, linear_delete_mode::tombstone)
            .ok());
}

TEST_CASE("a table of only tombstones still takes every key", "[linear][model][tombstone]") {
  auto m = tombstone_model(64, hash_kind::murmur3);
  const auto keys = test::random_keys(64, 3);
  for (key_type k : keys) CHECK(m.insert_one(k, 1) == op_status::inserted);
  CHECK(m.insert_one(7777, 1) == op_status::failed_full);
  for (key_type k : keys) CHECK(m.erase_one(k) == op_status::erased);
  CHECK(m.stats({}).tombstones == 64);
  const auto more = test::random_keys(200, 4);
  for (std::size_t i = 100; i < 164; ++i) CHECK(m.insert_one(more[i], 2) == op_status::inserted);
  CHECK(m.insert_one(more[170], 2) == op_status::failed_full);
  const table_stats st = m.stats({});
  CHECK(st.live == 64);
  CHECK(check_invariants(m.slots(), hash_kind::murmur3, &st, linear_delete_mode::tombstone).ok());
}

TEST_CASE("rehash keeps exactly the live pairs and drops the dead slots",
          "[linear][model][rehash]") {
  const linear_delete_mode mode =
      GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  CAPTURE(to_string(mode));
  table_config cfg;
  cfg.capacity = 1u << 12;
  cfg.linear.deletes = mode;
  linear_model m(cfg);
  const auto keys = test::random_keys(3000, 5);
  for (std::size_t i = 0; i < keys.size(); ++i) m.insert_one(keys[i], static_cast<value_type>(i));
  for (std::size_t i = 0; i < keys.size(); i += 2) m.erase_one(keys[i]);
  const auto before = test::contents(m);
  for (std::uint64_t cap :
       {std::uint64_t{1} << 12, std::uint64_t{1} << 13, std::uint64_t{1} << 11}) {
    m.rehash(cap, {});
    CHECK(m.capacity() == cap);
    CHECK(test::contents(m) == before);
    const table_stats st = m.stats({});
    CHECK(st.erased + st.tombstones == 0);
    CHECK(st.occupied == before.size());
    CHECK(check_invariants(m.slots(), cfg.hash, &st, mode).ok());
  }
  CHECK_THROWS_AS(m.rehash(1u << 10, {}), user_error);  // 1500 keys do not fit in 1024 slots
  CHECK(test::contents(m) == before);                   // and the table is unchanged
}

TEST_CASE("maintain grows, shrinks and rehashes at its thresholds", "[linear][model][rehash]") {
  auto t = test::make(backend::cpu, 1u << 10);
  maintenance_policy p;
  p.grow_above = 0.7;
  p.shrink_below = 0.1;
  p.rehash_above = 0.2;
  const auto keys = test::random_keys(900, 6);
  test::insert(*t, std::vector<key_type>(keys.begin(), keys.begin() + 700),
               test::random_values(700, 1));
  CHECK(t->maintain(p, {}).what == maintenance_result::action::none);  // load 0.68
  test::insert(*t, std::vector<key_type>(keys.begin() + 700, keys.end()),
               test::random_values(200, 2));
  const maintenance_result g = t->maintain(p, {});
  CHECK(g.what == maintenance_result::action::grow);
  CHECK(t->capacity() == (1u << 11));
  test::erase(*t, std::vector<key_type>(keys.begin(), keys.begin() + 500));  // 500 erased: 24% dead
  const maintenance_result r = t->maintain(p, {});
  CHECK(r.what == maintenance_result::action::rehash);
  CHECK(r.dropped == 500);
  CHECK(t->stats({}).erased == 0);
  test::erase(*t,
              std::vector<key_type>(keys.begin() + 500, keys.begin() + 820));  // 80 left: load 0.04
  CHECK(t->maintain(p, {}).what == maintenance_result::action::shrink);
  CHECK(t->capacity() == (1u << 10));
  CHECK(test::contents(*t).size() == 80);
}
