// [gpu] Rehash and resize on the GPU keep exactly the live key-value set, drop every dead slot,
// and (with fresh inserts only) fill exactly the slots the model fills.
#include <catch2/generators/catch_generators.hpp>

#include "core/common/error.hpp"
#include "tests/core/linear/gpu_support_linear.hpp"

using namespace hs;

namespace {

// The same inserts, then erases, on the GPU table and on the model.
void insert_then_erase(test::linear_pair& p, const std::vector<key_type>& keys,
                       const std::vector<value_type>& vals, const std::vector<key_type>& gone) {
  for (auto* t : {static_cast<table*>(p.gpu.get()), static_cast<table*>(&p.model)}) {
    test::insert(*t, keys, vals);
    test::erase(*t, gone);
  }
}

// Rehashes both to each capacity in turn; the GPU keeps exactly the model's pairs, no dead slot,
// and the model's occupied slots.
void rehash_both(test::linear_pair& p, std::initializer_list<std::uint64_t> capacities) {
  const auto before = test::contents(p.model);
  for (std::uint64_t cap : capacities) {
    CAPTURE(cap);
    p.gpu->rehash(cap, {});
    p.model.rehash(cap, {});
    CHECK(test::contents(*p.gpu) == before);
    CHECK(p.gpu->stats({}).occupied == before.size());
    p.check_same_contents();
  }
}

}  // namespace

TEST_CASE("rehash and resize preserve the exact key-value set", "[gpu][linear][rehash]") {
  test::require_gpu();
  const linear_delete_mode mode =
      GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  const hash_kind hash = GENERATE(hash_kind::murmur3, hash_kind::knuth);
  CAPTURE(to_string(mode), to_string(hash));
  const std::uint64_t capacity = 1u << 18;
  test::linear_pair p(capacity, hash, test::group_of(1), mode);
  const auto keys = test::random_keys(static_cast<std::size_t>(capacity * 0.7), 111);
  const auto vals = test::random_values(keys.size(), 112);
  std::vector<key_type> gone;
  for (std::size_t i = 0; i < keys.size(); i += 3) gone.push_back(keys[i]);
  for (auto* t : {static_cast<table*>(p.gpu.get()), static_cast<table*>(&p.model)}) {
    test::insert(*t, keys, vals);
    test::erase(*t, gone);
  }
  const auto before = test::contents(*p.gpu);
  REQUIRE(before == test::contents(p.model));
  for (std::uint64_t cap : {capacity, capacity * 2, capacity, capacity / 2}) {
    CAPTURE(cap);
    p.gpu->rehash(cap, {});
    p.model.rehash(cap, {});
    CHECK(p.gpu->capacity() == cap);
    CHECK(test::contents(*p.gpu) == before);
    const table_stats st = p.gpu->stats({});
    CHECK(st.erased + st.tombstones == 0);
    p.check_same_contents();  // invariants, contents, and the same occupied slots as the model
  }
  CHECK_THROWS_AS(p.gpu->rehash(capacity / 8, {}), user_error);  // 0.47 * 2^18 keys in 2^15 slots
  CHECK(test::contents(*p.gpu) == before);                       // unchanged after the refusal
  SECTION("the rebuilt table keeps working") {
    const auto more = test::random_keys(keys.size() + 5000, 111);
    const std::vector<key_type> extra(more.begin() + static_cast<std::ptrdiff_t>(keys.size()),
                                      more.end());
    const auto ev = test::random_values(extra.size(), 113);
    CHECK(test::insert(*p.gpu, extra, ev) == test::insert(p.model, extra, ev));
    CHECK(test::contents(*p.gpu) == test::contents(p.model));
  }
}

TEST_CASE("maintain grows, shrinks and rehashes on the GPU", "[gpu][linear][rehash]") {
  test::require_gpu();
  auto t = test::make(backend::gpu, 1u << 16);
  maintenance_policy pol{0.7, 0.1, 0.2};
  const auto keys = test::random_keys(60000, 114);
  test::insert(*t, std::vector<key_type>(keys.begin(), keys.begin() + 50000),
               test::random_values(50000, 1));
  const auto g = t->maintain(pol, {});
  CHECK(g.what == maintenance_result::action::grow);
  CHECK(t->capacity() == (1u << 17));
  test::erase(*t, std::vector<key_type>(keys.begin(), keys.begin() + 30000));  // 30000 dead of 2^17
  const auto r = t->maintain(pol, {});
  CHECK(r.what == maintenance_result::action::rehash);
  CHECK(r.live == 20000);
  CHECK(t->stats({}).erased == 0);
  test::erase(*t, std::vector<key_type>(keys.begin() + 30000, keys.begin() + 45000));
  // 5000 live in 2^17 (load 0.038): shrink, although only 11% of the slots are dead.
  CHECK(t->maintain(pol, {}).what == maintenance_result::action::shrink);
  CHECK(t->capacity() == (1u << 16));
  CHECK(t->stats({}).erased == 0);
  const auto left = test::contents(*t);
  CHECK(left.size() == 5000);
}

TEST_CASE(
    "rehash in place of a large churned table rebuilds cluster by cluster; a table with no empty "
    "slot still rehashes",
    "[gpu][linear][rehash]") {
  test::require_gpu();
  const linear_delete_mode mode =
      GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  CAPTURE(to_string(mode));
  SECTION(
      "2^22 slots at 0.75 occupied, a third of it dead, in place, grown and shrunk by 2 and by 4") {
    const std::uint64_t capacity = 1u << 22;
    test::linear_pair p(capacity, hash_kind::murmur3, test::group_of(1), mode);
    const auto keys = test::random_keys(capacity * 3 / 4, 121);
    const auto vals = test::random_values(keys.size(), 122);
    std::vector<key_type> gone;
    for (std::size_t i = 0; i < keys.size(); i += 3) gone.push_back(keys[i]);
    insert_then_erase(p, keys, vals, gone);
    // In place, grown by 2 and by 4, shrunk by 4 and by 2 (all through windows).
    rehash_both(p, {capacity, capacity * 2, capacity * 8, capacity * 2, capacity});
  }
  SECTION(
      "keys piled on one home slot: one cluster over many windows of 1024, grown and shrunk by 2 "
      "and by 4") {
    const std::uint64_t capacity = 1u << 16;
    test::linear_pair p(capacity, hash_kind::identity, test::group_of(1), mode);
    std::vector<key_type> keys;
    // Home 1000; growth splits them between the copies. Shrinking folds them back onto one or
    // two windows: far more keys wait than the shrink's buffer holds, so it rebuilds key by key.
    for (key_type k = 1; keys.size() < 12000; ++k) keys.push_back(k * (1u << 16) + 1000);
    const auto more = test::random_keys(20000, 125);
    keys.insert(keys.end(), more.begin(), more.end());
    const auto vals = test::random_values(keys.size(), 126);
    std::vector<key_type> gone;
    for (std::size_t i = 0; i < keys.size(); i += 4) gone.push_back(keys[i]);
    insert_then_erase(p, keys, vals, gone);
    REQUIRE(p.gpu->stats({}).max_displacement > 3 * 1024);
    rehash_both(p, {capacity * 2, capacity * 8, capacity * 2, capacity});
  }
  SECTION("every slot occupied (live or dead): rehash inserts the live keys again") {
    const std::uint64_t capacity = 1u << 12;
    test::linear_pair p(capacity, hash_kind::murmur3, test::group_of(1), mode);
    const auto keys = test::random_keys(capacity, 123);
    const auto vals = test::random_values(keys.size(), 124);
    insert_then_erase(p, keys, vals, std::vector<key_type>(keys.begin(), keys.begin() + 1000));
    REQUIRE(p.gpu->stats({}).occupied == capacity);
    p.gpu->rehash(capacity, {});
    p.model.rehash(capacity, {});
    CHECK(test::contents(*p.gpu) == test::contents(p.model));
    CHECK(p.gpu->stats({}).occupied == capacity - 1000);
    p.check_same_contents();
  }
}
