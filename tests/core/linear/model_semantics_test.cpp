// The CPU model's sequential semantics (seeds 000/001): placement, overwrite, erase by value,
// lookups that stop at an empty slot, and rejection of reserved keys and values.
#include <catch2/catch_test_macros.hpp>

#include "core/linear/linear_model.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using namespace hs::linear;

namespace {
linear_model identity_model(std::uint64_t capacity) {
  table_config cfg;
  cfg.capacity = capacity;
  cfg.hash = hash_kind::identity;
  return linear_model(cfg);
}
}  // namespace

TEST_CASE("a key goes to its home slot, and collisions take the next free slot",
          "[linear][model]") {
  auto m = identity_model(16);
  CHECK(m.insert_one(5, 50) == op_status::inserted);
  CHECK(m.insert_one(21, 210) == op_status::inserted);  // home 21 & 15 = 5: taken, goes to 6
  CHECK(m.insert_one(6, 60) == op_status::inserted);    // home 6 taken by 21: goes to 7
  CHECK(slot_key(m.slots()[5]) == 5);
  CHECK(slot_key(m.slots()[6]) == 21);
  CHECK(slot_key(m.slots()[7]) == 6);
  CHECK(slot_value(m.slots()[7]) == 60);
  SECTION("probing wraps around the end of the table") {
    CHECK(m.insert_one(15, 1) == op_status::inserted);
    CHECK(m.insert_one(31, 2) == op_status::inserted);  // home 15 taken: wraps to 0
    CHECK(slot_key(m.slots()[0]) == 31);
    value_type v;
    CHECK(m.find_one(31, v) == op_status::found);
    CHECK(v == 2);
  }
}

TEST_CASE("inserting a present key overwrites its value", "[linear][model]") {
  auto m = identity_model(16);
  CHECK(m.insert_one(3, 30) == op_status::inserted);
  CHECK(m.insert_one(3, 31) == op_status::replaced);
  value_type v = 0;
  CHECK(m.find_one(3, v) == op_status::found);
  CHECK(v == 31);
  CHECK(m.stats({}).live == 1);
}

TEST_CASE("erase empties the value and the key keeps its slot", "[linear][model]") {
  auto m = identity_model(16);
  m.insert_one(4, 40);
  m.insert_one(20, 200);  // home 4: lands in slot 5, behind key 4
  CHECK(m.erase_one(4) == op_status::erased);
  CHECK(slot_key(m.slots()[4]) == 4);
  CHECK(slot_value(m.slots()[4]) == k_empty);
  value_type v = 0;
  CHECK(m.find_one(4, v) == op_status::missing);
  CHECK(v == k_empty);
  SECTION("keys behind an erased key stay reachable") {
    CHECK(m.find_one(20, v) == op_status::found);
    CHECK(v == 200);
  }
  SECTION("erasing twice reports missing") { CHECK(m.erase_one(4) == op_status::missing); }
  SECTION("re-inserting reuses the key's slot and counts as an insert") {
    CHECK(m.insert_one(4, 41) == op_status::inserted);
    CHECK(slot_value(m.slots()[4]) == 41);
    const table_stats st = m.stats({});
    CHECK(st.live == 2);
    CHECK(st.erased == 0);
    CHECK(st.occupied == 2);
  }
  const table_stats st = m.stats({});
  CHECK(st.erased + st.live == st.occupied);
}

TEST_CASE("lookups stop at the first empty slot", "[linear][model]") {
  auto m = identity_model(16);
  m.insert_one(9, 90);
  value_type v;
  CHECK(m.find_one(25, v) == op_status::missing);  // home 9: key 9, then empty slot 10
  CHECK(m.erase_one(25) == op_status::missing);
}

TEST_CASE("the single-operation rule refuses reserved keys and values and counts nothing",
          "[linear][model]") {
  auto m = identity_model(16);
  CHECK(m.insert_one(k_empty, 1) == op_status::rejected_key);
  CHECK(m.insert_one(k_tombstone, 1) == op_status::rejected_key);
  CHECK(m.insert_one(7, k_empty) == op_status::rejected_value);
  value_type v;
  CHECK(m.find_one(k_empty, v) == op_status::rejected_key);
  CHECK(m.erase_one(k_tombstone) == op_status::rejected_key);
  const table_stats st = m.stats({});
  CHECK(st.rejected_total() == 0);  // batches count (tests/core/table/rejected_counts_test.cpp)
  CHECK(st.live == 0);
  CHECK(st.occupied == 0);
}

TEST_CASE("bulk calls match single operations and report statuses", "[linear][model]") {
  auto t = test::make(backend::cpu, 1024);
  const auto keys = test::random_keys(600, 11);
  const auto values = test::random_values(600, 12);
  auto st = test::insert(*t, keys, values);
  for (op_status s : st) CHECK(s == op_status::inserted);
  auto found = test::find(*t, keys);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    CHECK(found.status[i] == op_status::found);
    CHECK(found.values[i] == values[i]);
  }
  const auto map = test::contents(*t);
  CHECK(map.size() == 600);
  CHECK(t->stats({}).live == 600);
}

TEST_CASE("occupancy pixels map one slot each when zoomed in, none past the end",
          "[linear][model][inspect]") {
  auto m = identity_model(16);
  m.insert_one(3, 30);
  m.insert_one(4, 40);
  m.erase_one(4);
  std::vector<occupancy_pixel> px(6 * 4);
  inspect_request req;
  req.occupancy = occupancy_query{0, 16, 6, 4, px.data()};
  inspect_result res;
  m.inspect(req, res, {});
  CHECK(px[3].live == 1.f);
  CHECK(px[4].erased == 1.f);
  CHECK(px[5].live == 0.f);
  CHECK(px[5].mean_displacement == 0.f);
  CHECK(px[15].mean_displacement == 0.f);
  CHECK(px[16].mean_displacement == k_no_slot);  // 24 pixels, 16 slots
  CHECK(px[23].mean_displacement == k_no_slot);
}
