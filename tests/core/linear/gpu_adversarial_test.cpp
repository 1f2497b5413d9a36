// [gpu] Adversarial input: every key on one home slot, sequential keys, duplicates within a
// batch, reserved keys, and a table driven past full.
#include <algorithm>
#include <set>

#include <catch2/generators/catch_generators.hpp>

#include "tests/core/linear/gpu_support_linear.hpp"

using namespace hs;

TEST_CASE("keys that all share one home slot form one long run", "[gpu][linear]") {
  test::require_gpu();
  const int group = GENERATE(1, 4, 8);
  const std::uint64_t capacity = 1u << 12;
  test::linear_pair p(capacity, hash_kind::identity, group);
  std::vector<key_type> keys;
  for (std::uint32_t i = 1; i <= 3000; ++i)
    keys.push_back(i * static_cast<std::uint32_t>(capacity) + 17);
  const auto values = test::random_values(keys.size(), 5);
  CHECK(test::insert(*p.gpu, keys, values) == test::insert(p.model, keys, values));
  p.check_same_contents();
  CHECK(p.gpu->stats({}).max_displacement == 2999);
  const auto g = test::find(*p.gpu, keys);
  CHECK(std::count(g.status.begin(), g.status.end(), op_status::found) == 3000);
}

TEST_CASE("sequential keys under the identity hash fill consecutive slots", "[gpu][linear]") {
  test::require_gpu();
  test::linear_pair p(1u << 14, hash_kind::identity, GENERATE(1, 4));
  std::vector<key_type> keys(10000);
  for (std::uint32_t i = 0; i < keys.size(); ++i) keys[i] = i;
  const auto values = test::random_values(keys.size(), 9);
  test::insert(*p.gpu, keys, values);
  test::insert(p.model, keys, values);
  p.check_same_contents();
  CHECK(p.gpu->stats({}).max_displacement == 0);
}

TEST_CASE("duplicates within a batch leave one copy holding one of their values", "[gpu][linear]") {
  test::require_gpu();
  test::linear_pair p(1u << 12, hash_kind::murmur3, GENERATE(1, 4, 8));
  std::vector<key_type> keys;
  std::vector<value_type> values;
  for (int copy = 0; copy < 64; ++copy)
    for (key_type k : {11u, 12u, 13u, 0xabcdefu}) {
      keys.push_back(k);
      values.push_back(static_cast<value_type>(copy * 100 + k % 97));
    }
  const auto st = test::insert(*p.gpu, keys, values);
  CHECK(std::count(st.begin(), st.end(), op_status::inserted) == 4);
  CHECK(std::count(st.begin(), st.end(), op_status::replaced) == 252);
  const auto contents = test::contents(*p.gpu);
  REQUIRE(contents.size() == 4);
  for (auto [k, v] : contents) {
    std::set<value_type> candidates;
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == k) candidates.insert(values[i]);
    CHECK(candidates.count(v) == 1);
  }
  const table_stats gst = p.gpu->stats({});
  CHECK(gst.occupied == 4);
  CHECK(linear::check_invariants(linear::copy_slots(*p.gpu), hash_kind::murmur3, &gst).ok());
}

TEST_CASE("reserved keys and values are rejected with a status", "[gpu][linear]") {
  test::require_gpu();
  test::linear_pair p(1024, hash_kind::murmur3, GENERATE(1, 4));
  const std::vector<key_type> keys{5, k_empty, k_tombstone, 6, 7};
  const std::vector<value_type> values{1, 2, 3, k_empty, 4};
  const auto st = test::insert(*p.gpu, keys, values);
  CHECK(st == test::insert(p.model, keys, values));
  CHECK(st[1] == op_status::rejected_key);
  CHECK(st[2] == op_status::rejected_key);
  CHECK(st[3] == op_status::rejected_value);
  CHECK(st[4] == op_status::inserted);
  const auto f = test::find(*p.gpu, {k_empty, 5});
  CHECK(f.status == test::find(p.model, {k_empty, 5}).status);
  CHECK(f.status[0] == op_status::rejected_key);
  CHECK(f.status[1] == op_status::found);
  CHECK(p.gpu->stats({}).rejected[int(op_kind::insert)] == 3);
  CHECK(p.gpu->stats({}).rejected[int(op_kind::find)] == 1);
  CHECK(p.gpu->stats({}).rejected_total() == p.model.stats({}).rejected_total());
  p.check_same_contents();
}

TEST_CASE("a table driven past full reports failed_full for exactly the excess", "[gpu][linear]") {
  test::require_gpu();
  const int group = GENERATE(1, 4, 8);
  const std::uint64_t capacity = GENERATE(16u, 1u << 16);
  CAPTURE(group, capacity);
  test::linear_pair p(capacity, hash_kind::murmur3, group);
  const auto keys = test::random_keys(capacity + capacity / 4, 77);
  const auto values = test::random_values(keys.size(), 78);
  SECTION("in one batch") {
    const auto st = test::insert(*p.gpu, keys, values);
    CHECK(static_cast<std::uint64_t>(std::count(st.begin(), st.end(), op_status::inserted)) ==
          capacity);
    CHECK(static_cast<std::uint64_t>(std::count(st.begin(), st.end(), op_status::failed_full)) ==
          capacity / 4);
    const table_stats s = p.gpu->stats({});
    CHECK(s.occupied == capacity);
    CHECK(s.failed_full == capacity / 4);
    CHECK(linear::check_invariants(linear::copy_slots(*p.gpu), hash_kind::murmur3, &s).ok());
  }
  SECTION("filled exactly, then more in later batches") {
    const std::vector<key_type> first(keys.begin(),
                                      keys.begin() + static_cast<std::ptrdiff_t>(capacity));
    const std::vector<value_type> vfirst(values.begin(),
                                         values.begin() + static_cast<std::ptrdiff_t>(capacity));
    test::insert(*p.gpu, first, vfirst);
    test::insert(p.model, first, vfirst);
    p.check_same_contents();
    const std::vector<key_type> rest(keys.begin() + static_cast<std::ptrdiff_t>(capacity),
                                     keys.end());
    const auto st = test::insert(*p.gpu, rest, std::vector<value_type>(rest.size(), 1));
    CHECK(static_cast<std::uint64_t>(std::count(st.begin(), st.end(), op_status::failed_full)) ==
          rest.size());
    SECTION("present keys still update, and misses terminate") {
      const auto again = test::insert(*p.gpu, {first[3]}, {999});
      CHECK(again[0] == op_status::replaced);
      const auto f = test::find(*p.gpu, {first[3], rest[0]});
      CHECK(f.values[0] == 999);
      CHECK(f.status[1] == op_status::missing);
    }
  }
}
