// [gpu] Tombstone mode on the GPU against the model: never a key twice, even when a batch inserts
// the same keys from many threads into a table full of tombstones; delete-all then reinsert;
// alternating phases over many cycles; mixed batches run as two phases.
#include <algorithm>
#include <map>
#include <set>

#include <catch2/generators/catch_generators.hpp>

#include "tests/core/linear/gpu_support_linear.hpp"

using namespace hs;

namespace {
linear_tuning one_thread() { return test::group_of(1); }

test::linear_pair tombstone_pair(std::uint64_t capacity, hash_kind h = hash_kind::murmur3) {
  return test::linear_pair(capacity, h, one_thread(), linear_delete_mode::tombstone);
}

void check_no_key_twice(table& t) {
  const table_stats st = t.stats({});
  const linear::invariant_report r = linear::check_invariants(
      linear::copy_slots(t), t.config().hash, &st, linear_delete_mode::tombstone);
  INFO(r.describe());
  CHECK(r.ok());
}
}  // namespace

TEST_CASE(
    "many threads inserting the same keys into a table full or half full of tombstones store each "
    "once",
    "[gpu][linear][tombstone]") {
  test::require_gpu();
  const std::uint64_t capacity = 1u << 16;
  auto p = tombstone_pair(capacity);
  // Fill to 0.8 and erase it all (every probe walks through tombstones), or fill to 0.75 and erase
  // two thirds (half the slots tombstones between live keys; the walks read them sector by sector).
  const double filled = GENERATE(0.8, 0.75), erased = filled == 0.8 ? 0.8 : 0.5;
  CAPTURE(filled, erased);
  const auto old = test::random_keys(static_cast<std::size_t>(capacity * filled), 91);
  test::insert(*p.gpu, old, test::random_values(old.size(), 92));
  const std::vector<key_type> gone(old.begin(),
                                   old.begin() + static_cast<std::ptrdiff_t>(capacity * erased));
  test::erase(*p.gpu, gone);
  CHECK(p.gpu->stats({}).tombstones == gone.size());
  const std::size_t kept = old.size() - gone.size();
  // 2000 keys, each inserted by 32 threads with different values, shuffled.
  const auto fresh = test::random_keys(2000, 93);
  std::vector<key_type> keys;
  std::vector<value_type> values;
  for (int copy = 0; copy < 32; ++copy)
    for (std::size_t i = 0; i < fresh.size(); ++i) {
      keys.push_back(fresh[i]);
      values.push_back(static_cast<value_type>(copy * 100000 + i));
    }
  std::vector<std::size_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = workload::permute(5, static_cast<std::uint32_t>(i), order.size());
  std::vector<key_type> k2(keys.size());
  std::vector<value_type> v2(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) k2[order[i]] = keys[i], v2[order[i]] = values[i];
  const auto st = test::insert(*p.gpu, k2, v2);
  CHECK(std::count(st.begin(), st.end(), op_status::inserted) == 2000);
  CHECK(std::count(st.begin(), st.end(), op_status::replaced) == 2000 * 31);
  check_no_key_twice(*p.gpu);
  const auto contents = test::contents(*p.gpu);
  REQUIRE(contents.size() == 2000 + kept);
  const auto f = test::find(*p.gpu, fresh);
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    CHECK(f.status[i] == op_status::found);
    CHECK(f.values[i] % 100000 == i);  // one of its 32 values
  }
}

TEST_CASE("keys behind tombstones are overwritten in place, never copied in front",
          "[gpu][linear][tombstone]") {
  test::require_gpu();
  const std::uint64_t capacity = 1u << 14;
  auto p = tombstone_pair(capacity);
  // Keys A first, then keys B whose probes pass A's slots; erasing A puts tombstones in front of B.
  const auto all = test::random_keys(static_cast<std::size_t>(capacity * 0.85), 95);
  const std::vector<key_type> a(all.begin(), all.begin() + all.size() / 2),
      b(all.begin() + all.size() / 2, all.end());
  for (auto* t : {static_cast<table*>(p.gpu.get()), static_cast<table*>(&p.model)}) {
    test::insert(*t, a, test::random_values(a.size(), 1));
    test::insert(*t, b, test::random_values(b.size(), 2));
    test::erase(*t, a);
  }
  // Every B key again, by 8 threads each.
  std::vector<key_type> again;
  for (int c = 0; c < 8; ++c) again.insert(again.end(), b.begin(), b.end());
  const auto vals = std::vector<value_type>(again.size(), 7);
  const auto st = test::insert(*p.gpu, again, vals);
  CHECK(std::count(st.begin(), st.end(), op_status::replaced) ==
        static_cast<std::ptrdiff_t>(again.size()));
  test::insert(p.model, again, vals);
  check_no_key_twice(*p.gpu);
  CHECK(test::contents(*p.gpu) == test::contents(p.model));
}

TEST_CASE("delete everything, then reinsert", "[gpu][linear][tombstone]") {
  test::require_gpu();
  auto p = tombstone_pair(1u << 15, GENERATE(hash_kind::murmur3, hash_kind::identity));
  const auto keys = test::random_keys(static_cast<std::size_t>((1u << 15) * 0.9), 96);
  const auto v1 = test::random_values(keys.size(), 3), v2 = test::random_values(keys.size(), 4);
  for (auto* t : {static_cast<table*>(p.gpu.get()), static_cast<table*>(&p.model)})
    test::insert(*t, keys, v1);
  CHECK(test::erase(*p.gpu, keys) == test::erase(p.model, keys));
  CHECK(p.gpu->stats({}).live == 0);
  CHECK(test::insert(*p.gpu, keys, v2) == test::insert(p.model, keys, v2));
  check_no_key_twice(*p.gpu);
  CHECK(test::contents(*p.gpu) == test::contents(p.model));
  CHECK(p.gpu->stats({}).occupied == p.model.stats({}).occupied);  // reuse took no new slot
}

TEST_CASE("alternating insert and erase phases over many cycles match the model",
          "[gpu][linear][tombstone]") {
  test::require_gpu();
  const std::uint64_t capacity = 1u << 15;
  auto p = tombstone_pair(capacity);
  const auto pool = test::random_keys(60000, 97);
  std::uint64_t next = 0;
  for (int cycle = 0; cycle < 40; ++cycle) {
    CAPTURE(cycle);
    // Insert 2000 keys: half new, half drawn from the pool's past (some live, some erased).
    std::vector<key_type> ins;
    for (int i = 0; i < 1000; ++i) ins.push_back(pool[(next + i) % pool.size()]);
    for (int i = 0; i < 1000; ++i)
      ins.push_back(pool[workload::random_u32(cycle, 1, i) % (next + 1000)]);
    // One value per key: with a key twice in a batch, which value wins is not defined (tested
    // on its own above), and the model would keep the later one.
    std::sort(ins.begin(), ins.end());
    ins.erase(std::unique(ins.begin(), ins.end()), ins.end());
    next += 1000;
    const auto vals = test::random_values(ins.size(), 100 + cycle);
    CHECK(test::insert(*p.gpu, ins, vals).size() == ins.size());
    test::insert(p.model, ins, vals);
    // Erase 1900 keys drawn from everything inserted so far.
    std::vector<key_type> del;
    for (int i = 0; i < 1900; ++i) del.push_back(pool[workload::random_u32(cycle, 2, i) % next]);
    std::sort(del.begin(), del.end());
    del.erase(std::unique(del.begin(), del.end()), del.end());
    CHECK(test::erase(*p.gpu, del) == test::erase(p.model, del));
    if (cycle % 8 == 7) {
      CHECK(test::contents(*p.gpu) == test::contents(p.model));
      check_no_key_twice(*p.gpu);
    }
  }
  CHECK(p.gpu->stats({}).tombstones > 0);
}

TEST_CASE("a mixed batch in tombstone mode runs its inserts and lookups, then its erases",
          "[gpu][linear][tombstone]") {
  test::require_gpu();
  auto p = tombstone_pair(1u << 15);
  const auto keys = test::random_keys(30000, 98);
  const std::vector<key_type> base(keys.begin(), keys.begin() + 12000);
  for (auto* t : {static_cast<table*>(p.gpu.get()), static_cast<table*>(&p.model)})
    test::insert(*t, base, test::random_values(base.size(), 5));
  std::vector<op_kind> kinds;
  std::vector<key_type> k;
  for (std::size_t i = 0; i < 16000; ++i) {
    switch (i % 4) {
      case 0:
        kinds.push_back(op_kind::insert);
        k.push_back(keys[12000 + i / 4]);
        break;  // new keys
      case 1:
        kinds.push_back(op_kind::find);
        k.push_back(base[i / 4]);
        break;  // live keys
      case 2:
        kinds.push_back(op_kind::erase);
        k.push_back(base[i / 4]);
        break;  // the same ones
      case 3:
        kinds.push_back(op_kind::insert);
        k.push_back(base[i / 4 + 4000]);
        break;  // overwrites
    }
  }
  const auto v = test::random_values(k.size(), 6);
  const auto g = test::apply(*p.gpu, kinds, k, v);
  const auto m = test::apply(p.model, kinds, k, v);
  CHECK(g.status == m.status);
  CHECK(g.values == m.values);
  CHECK(std::count(g.status.begin(), g.status.end(), op_status::found) ==
        4000);  // lookups ran before the erases
  CHECK(test::contents(*p.gpu) == test::contents(p.model));
  check_no_key_twice(*p.gpu);
}
