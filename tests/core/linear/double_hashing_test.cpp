// Double hashing as the linear family's probing policy, on the CPU model: the probe sequence
// reaches every slot and its index is recovered from a slot; keys are found, never stored twice,
// tombstones reused, a full table answers failed_full; probes are shorter than linear probing's;
// the checker follows each key's own probe sequence.
#include <algorithm>
#include <set>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/linear/linear_invariants.hpp"
#include "core/linear/linear_model.hpp"
#include "core/linear/linear_slots.hpp"
#include "core/linear/linear_trace.hpp"
#include "core/table/family_registry.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using namespace hs::linear;
using Catch::Matchers::ContainsSubstring;
using dh = probed<murmur3_hash, double_hashing>;

namespace {
table_config config(std::uint64_t capacity, probe_policy p, hash_kind h = hash_kind::murmur3,
                    linear_delete_mode mode = linear_delete_mode::value) {
  table_config c;
  c.capacity = capacity;
  c.hash = h;
  c.linear.probe = p;
  c.linear.deletes = mode;
  return c;
}
double mean_probe(table& t) {
  inspect_request r;
  r.probe_histogram = true;
  inspect_result out;
  t.inspect(r, out, {});
  return out.histogram.mean();
}
}  // namespace

TEST_CASE(
    "a double-hashing probe reads sector by sector, reaches every slot, and a slot gives back its "
    "probe index",
    "[linear][double]") {
  const std::uint32_t mask = 1023;
  for (key_type k : test::random_keys(50, 5)) {
    const std::uint32_t home = home_slot<dh>(k, mask);
    std::set<std::uint32_t> seen;
    for (std::uint32_t i = 0; i < 1024; ++i) {
      const std::uint32_t s = probe_slot<dh>(home, k, i, mask);
      seen.insert(s);
      CHECK(probe_index<dh>(s, home, k, mask) == i);
    }
    CHECK(seen.size() == 1024);
    CHECK(double_hashing::step(k) % 2 == 1);
    // A probe reads the home slot's aligned sector first, from the home slot on, wrapping inside
    // it.
    for (std::uint32_t i = 0; i < double_hashing::width; ++i)
      CHECK(probe_slot<dh>(home, k, i, mask) == ((home & ~3u) | ((home + i) & 3u)));
    // and the next sector lies a step of sectors further on.
    CHECK((probe_slot<dh>(home, k, double_hashing::width, mask) >> 2) ==
          (((home >> 2) + double_hashing::step(k)) & 255));
  }
  CHECK(probe_slot<murmur3_hash>(1020, 7, 5, mask) == 1);  // a bare hash probes linearly, wrapping
}

TEST_CASE(
    "double hashing stores and finds every key; probes are shorter than linear probing's at load "
    "0.9",
    "[linear][double]") {
  const auto keys = test::random_keys(3686, 11);  // load 0.9 of 4096
  const auto values = test::random_values(keys.size(), 12);
  auto lin = make_table(config(4096, probe_policy::linear));
  auto dbl = make_table(config(4096, probe_policy::double_hash));
  test::insert(*lin, keys, values);
  const auto st = test::insert(*dbl, keys, values);
  CHECK(std::count(st.begin(), st.end(), op_status::inserted) == static_cast<long>(keys.size()));
  const auto f = test::find(*dbl, keys);
  CHECK(std::count(f.status.begin(), f.status.end(), op_status::found) ==
        static_cast<long>(keys.size()));
  CHECK(f.values == values);
  CHECK(describe(family::linear).check_invariants(*dbl, {}) == "");
  const double ml = mean_probe(*lin), md = mean_probe(*dbl);
  CAPTURE(ml, md);
  CHECK(md < 0.5 * ml);  // clusters broken up
}

TEST_CASE("double hashing breaks the pile-up of keys that share a home slot", "[linear][double]") {
  std::vector<key_type> keys;
  for (key_type i = 1; i <= 1000; ++i) keys.push_back(i * 4096 + 5);  // identity hash: all home 5
  const std::vector<value_type> values(keys.size(), 3);
  auto lin = make_table(config(4096, probe_policy::linear, hash_kind::identity));
  auto dbl = make_table(config(4096, probe_policy::double_hash, hash_kind::identity));
  test::insert(*lin, keys, values);
  test::insert(*dbl, keys, values);
  CHECK(mean_probe(*lin) > 400);
  // The home sector takes 4 of them; the others leave it by steps of their own, most of them
  // finding room in the first sector they reach (probe indices 4 to 7).
  CHECK(mean_probe(*dbl) < 2 * double_hashing::width);
  CHECK(describe(family::linear).check_invariants(*dbl, {}) == "");
}

TEST_CASE("double hashing with tombstones reuses them and never stores a key twice",
          "[linear][double][tombstone]") {
  auto t = make_table(
      config(2048, probe_policy::double_hash, hash_kind::murmur3, linear_delete_mode::tombstone));
  const auto keys = test::random_keys(1600, 21);
  test::insert(*t, keys, test::random_values(keys.size(), 22));
  test::erase(*t, std::vector<key_type>(keys.begin(), keys.begin() + 800));
  // Present keys again (they may sit behind tombstones) and the erased ones back.
  const auto st = test::insert(*t, keys, std::vector<value_type>(keys.size(), 5));
  CHECK(std::count(st.begin(), st.end(), op_status::replaced) == 800);
  CHECK(std::count(st.begin(), st.end(), op_status::inserted) == 800);
  CHECK(t->stats({}).live == 1600);
  CHECK(describe(family::linear).check_invariants(*t, {}) == "");  // no key twice, each reachable
}

TEST_CASE("a full double-hashing table answers failed_full for exactly the excess",
          "[linear][double]") {
  auto t = make_table(config(64, probe_policy::double_hash));
  const auto keys = test::random_keys(80, 31);
  const auto st = test::insert(*t, keys, test::random_values(keys.size(), 32));
  CHECK(std::count(st.begin(), st.end(), op_status::inserted) == 64);
  CHECK(std::count(st.begin(), st.end(), op_status::failed_full) == 16);
  CHECK(describe(family::linear).check_invariants(*t, {}) == "");
}

TEST_CASE("the checker follows each key's own probe sequence", "[linear][double][invariants]") {
  auto t = make_table(config(256, probe_policy::double_hash));
  const auto keys = test::random_keys(200, 41);
  test::insert(*t, keys, test::random_values(keys.size(), 42));
  auto slots = copy_slots(*t);
  // Empty a slot that some key's probe passes through on its way to where it sits.
  const std::uint32_t mask = 255;
  bool planted = false;
  for (std::uint32_t s = 0; s < 256 && !planted; ++s) {
    if (!holds_key(slots[s]) || slot_displacement<dh>(s, slots[s], mask) == 0) continue;
    const key_type k = slot_key(slots[s]);
    slots[probe_slot<dh>(home_slot<dh>(k, mask), k, 0, mask)] = k_empty_slot;
    planted = true;
  }
  REQUIRE(planted);
  const invariant_report r = check_invariants(slots, hash_kind::murmur3, nullptr,
                                              linear_delete_mode::value, probe_policy::double_hash);
  CHECK_FALSE(r.ok());
  CHECK_THAT(r.describe(), ContainsSubstring("is unreachable: its probe 0"));
}

TEST_CASE(
    "probing is the linear family's: other families ignore it; double hashing with probe groups is "
    "refused",
    "[linear][double]") {
  table_config c = config(1024, probe_policy::double_hash);
  c.family = family::hive;
  CHECK(make_table(c)->config().family == family::hive);  // the linear options ride along unread
  c.family = family::linear;
  c.linear.tuning.group = 4;
  CHECK_THROWS_WITH(make_table(c), ContainsSubstring("group must be 1 or auto"));
}

TEST_CASE("a traced double-hashing insert walks its own probe sequence to where the model puts it",
          "[linear][double][trace]") {
  auto t = make_table(config(512, probe_policy::double_hash));
  test::insert(*t, test::random_keys(450, 51), test::random_values(450, 52));
  for (key_type k : {123456789u, 987654321u, 555555555u}) {
    stepped_op op;
    op.kind = op_kind::insert;
    op.key = k;
    op.value = 1;
    describe(family::linear).trace_before(*t, t->config(), 512, op, {});
    const auto st = test::insert(*t, {k}, {1});
    const probe_walk w = replay_walk(op.probe_before, op.kind, k, st[0], linear_delete_mode::value);
    REQUIRE(w.decided);
    const std::uint32_t home = home_slot<dh>(k, 511);
    for (std::size_t i = 0; i < w.cells.size(); ++i)
      CHECK(w.cells[i].slot == probe_slot<dh>(home, k, i, 511));
    const auto slots = copy_slots(*t);
    CHECK(slot_key(slots[*w.decided]) == k);
  }
}
