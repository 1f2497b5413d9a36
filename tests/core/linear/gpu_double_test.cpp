// [gpu] Double hashing on the GPU against the model: random keys with and without statuses,
// keys piled on one home slot, duplicates in a batch, tombstones, a full table and mixed batches.
// Placement depends on the order of concurrent inserts under double hashing, so the tables are
// compared by contents, counts and their invariants (each key reachable along its own probes).
#include <algorithm>
#include <set>

#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include "core/table/family_registry.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;

namespace {
struct double_pair {
  std::unique_ptr<table> gpu, model;
  double_pair(std::uint64_t capacity, hash_kind h,
              linear_delete_mode mode = linear_delete_mode::value) {
    table_config c;
    c.capacity = capacity;
    c.hash = h;
    c.linear.deletes = mode;
    c.linear.probe = probe_policy::double_hash;
    model = make_table(c);
    c.backend = backend::gpu;
    gpu = make_table(c);
  }
  void check() {
    CHECK(describe(family::linear).check_invariants(*gpu, {}) == "");
    CHECK(test::contents(*gpu) == test::contents(*model));
    const table_stats g = gpu->stats({}), m = model->stats({});
    CHECK(g.live == m.live);
    CHECK(g.erased == m.erased);
    CHECK(g.failed_full == m.failed_full);
    // How many tombstones remain is placement: two inserts whose walks pass one tombstone race for
    // it, and the loser takes the next free slot, an empty one if no other tombstone lies before
    // it. The counts still add up (the checker also counts the slots themselves).
    CHECK(g.live + g.erased + g.tombstones == g.occupied);
  }
};
long count(const std::vector<op_status>& s, op_status x) {
  return std::count(s.begin(), s.end(), x);
}
}  // namespace

TEST_CASE("double hashing: random keys agree with the model, with and without statuses",
          "[gpu][linear][double]") {
  test::require_gpu();
  const std::uint64_t capacity = GENERATE(1u << 12, 1u << 20);
  CAPTURE(capacity);
  double_pair p(capacity, hash_kind::murmur3);
  const auto keys = test::random_keys(capacity * 9 / 10, 71);
  const auto values = test::random_values(keys.size(), 72);
  const std::size_t half = keys.size() / 2;
  const std::vector<key_type> a(keys.begin(), keys.begin() + half),
      b(keys.begin() + half, keys.end());
  const std::vector<value_type> va(values.begin(), values.begin() + half),
      vb(values.begin() + half, values.end());
  CHECK(test::insert(*p.gpu, a, va) == test::insert(*p.model, a, va));
  auto kb = test::to_space(memory_space::device, b);  // no statuses: the grouped path may run
  auto vbd = test::to_space(memory_space::device, vb);
  p.gpu->insert(kb.cspan(), vbd.cspan(), {}, {});
  test::insert(*p.model, b, vb);
  p.check();
  const auto f = test::find(*p.gpu, keys);
  CHECK(count(f.status, op_status::found) == static_cast<long>(keys.size()));
  CHECK(f.values == values);
  const auto miss = test::find(*p.gpu, test::random_keys(1000, 73));
  CHECK(miss.status == test::find(*p.model, test::random_keys(1000, 73)).status);
}

TEST_CASE("double hashing: keys piled on one home slot, and duplicates in a batch",
          "[gpu][linear][double]") {
  test::require_gpu();
  double_pair p(1u << 12, hash_kind::identity);
  std::vector<key_type> pile;
  for (key_type i = 1; i <= 2000; ++i) pile.push_back(i * 4096 + 17);
  CHECK(test::insert(*p.gpu, pile, std::vector<value_type>(pile.size(), 4)) ==
        test::insert(*p.model, pile, std::vector<value_type>(pile.size(), 4)));
  p.check();
  std::vector<key_type> dups(512, 99991);
  std::vector<value_type> dv(512);
  for (std::size_t i = 0; i < dv.size(); ++i) dv[i] = static_cast<value_type>(i);
  const auto st = test::insert(*p.gpu, dups, dv);
  CHECK(count(st, op_status::inserted) == 1);
  CHECK(count(st, op_status::replaced) == 511);
  const auto all = test::contents(*p.gpu);
  CHECK(std::count_if(all.begin(), all.end(), [](const auto& kv) { return kv.first == 99991; }) ==
        1);
  CHECK(describe(family::linear).check_invariants(*p.gpu, {}) == "");
}

TEST_CASE("double hashing: tombstone churn keeps every key once and agrees with the model",
          "[gpu][linear][double][tombstone]") {
  test::require_gpu();
  double_pair p(1u << 16, hash_kind::murmur3, linear_delete_mode::tombstone);
  const auto keys = test::random_keys(50000, 81);
  const auto values = test::random_values(keys.size(), 82);
  CHECK(test::insert(*p.gpu, keys, values) == test::insert(*p.model, keys, values));
  for (int cycle = 0; cycle < 6; ++cycle) {
    const std::vector<key_type> gone(keys.begin() + cycle * 5000,
                                     keys.begin() + (cycle + 1) * 5000);
    CHECK(test::erase(*p.gpu, gone) == test::erase(*p.model, gone));
    const auto back =
        test::insert(*p.gpu, keys, values);  // the erased come back, the rest are replaced
    CHECK(back == test::insert(*p.model, keys, values));
    p.check();
    CHECK(p.gpu->stats({}).tombstones <= 5000u * (cycle + 1));  // at most the erases made them
  }
}

TEST_CASE(
    "double hashing: 32 threads inserting each key into a table half tombstones store it once",
    "[gpu][linear][double][tombstone]") {
  test::require_gpu();
  double_pair p(1u << 16, hash_kind::murmur3, linear_delete_mode::tombstone);
  const auto old =
      test::random_keys(49152, 95);  // load 0.75, two thirds erased: half the slots tombstones
  test::insert(*p.gpu, old, test::random_values(old.size(), 96));
  test::erase(*p.gpu, std::vector<key_type>(old.begin(), old.begin() + 32768));
  REQUIRE(p.gpu->stats({}).tombstones == 32768u);
  std::vector<key_type> fresh;  // 2000 keys none of the old ones
  const std::set<key_type> before(old.begin(), old.end());
  for (key_type k : test::random_keys(4000, 97))
    if (fresh.size() < 2000 && !before.count(k)) fresh.push_back(k);
  std::vector<key_type> keys;
  std::vector<value_type> values;
  for (int copy = 0; copy < 32; ++copy)  // copy-major: the 32 inserts of a key sit 2000 apart
    for (std::size_t i = 0; i < fresh.size(); ++i) {
      keys.push_back(fresh[i]);
      values.push_back(static_cast<value_type>(copy * 100000 + i));
    }
  const auto st = test::insert(*p.gpu, keys, values);
  CHECK(count(st, op_status::inserted) == 2000);
  CHECK(count(st, op_status::replaced) == 2000 * 31);
  CHECK(describe(family::linear).check_invariants(*p.gpu, {}) ==
        "");  // no key twice, each reachable
  CHECK(test::contents(*p.gpu).size() == 2000 + 16384);
  const auto f = test::find(*p.gpu, fresh);
  CHECK(count(f.status, op_status::found) == 2000);
  for (std::size_t i = 0; i < fresh.size(); ++i)
    CHECK(f.values[i] % 100000 == i);  // one of its 32 values
}

TEST_CASE("double hashing: a full table refuses exactly the excess; mixed batches agree",
          "[gpu][linear][double]") {
  test::require_gpu();
  double_pair p(1u << 14, hash_kind::murmur3);
  const auto keys = test::random_keys((1u << 14) + 3000, 91);
  const auto st = test::insert(*p.gpu, keys, test::random_values(keys.size(), 92));
  CHECK(count(st, op_status::inserted) == (1u << 14));
  CHECK(count(st, op_status::failed_full) == 3000);
  CHECK(describe(family::linear).check_invariants(*p.gpu, {}) == "");
  double_pair m(1u << 14, hash_kind::murmur3);
  const auto base = test::random_keys(8000, 93);
  test::insert(*m.gpu, base, std::vector<value_type>(base.size(), 1));
  test::insert(*m.model, base, std::vector<value_type>(base.size(), 1));
  std::vector<op_kind> kinds;
  std::vector<key_type> ks;
  std::vector<value_type> vs;
  const auto fresh = test::random_keys(12000, 94);
  for (std::size_t i = 0; i < 4000; ++i) {  // distinct keys per kind: no order between them matters
    kinds.push_back(op_kind::insert), ks.push_back(fresh[8000 + i]), vs.push_back(7);
    kinds.push_back(op_kind::find), ks.push_back(base[i]), vs.push_back(0);
    kinds.push_back(op_kind::erase), ks.push_back(base[4000 + i]), vs.push_back(0);
  }
  const auto g = test::apply(*m.gpu, kinds, ks, vs), md = test::apply(*m.model, kinds, ks, vs);
  CHECK(g.status == md.status);
  CHECK(g.values == md.values);
  m.check();
}
