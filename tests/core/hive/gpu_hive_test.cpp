// [gpu] The GPU hive table against the CPU model: every operation, each bucket size and tile,
// two- and three-function policies, high load, keys piled on one bucket pair, a table driven
// past full into and past its stash, duplicate keys in a batch, mixed batches, resizes in the
// middle of a workload; key sets and values compared after every batch, invariants checked.
// Within one batch GPU operations run in no defined order, so batches are built so that their
// outcome does not depend on it (distinct keys), or compared as sets.
#include <algorithm>
#include <map>
#include <random>

#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include "tests/core/hive/hive_test_support.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;

namespace {

using test::hive_pair;

long count(const std::vector<op_status>& st, op_status s) {
  return std::count(st.begin(), st.end(), s);
}

/// Live slots of bucket b of an image.
int used_slots(const hive::hive_image& img, std::uint64_t b) {
  return img.slots - __builtin_popcount(img.masks[b] & hive::all_free(img.slots));
}

}  // namespace

TEST_CASE("hive: bulk insert, find and erase agree with the model", "[gpu][hive]") {
  test::require_gpu();
  const auto [slots, tile] = GENERATE(Catch::Generators::table<int, int>({{8, 2},
                                                                          {8, 4},
                                                                          {8, 8},
                                                                          {16, 2},
                                                                          {16, 4},
                                                                          {16, 8},
                                                                          {16, 16},
                                                                          {32, 4},
                                                                          {32, 8},
                                                                          {32, 16},
                                                                          {32, 32}}));
  const std::string hashes =
      GENERATE(std::string("bithash1+bithash2"), std::string("murmur3+city+crc32"));
  CAPTURE(slots, tile, hashes);
  hive_pair p(test::hive_config(backend::gpu, 1u << 18, slots, tile, hashes));
  const std::size_t n = 200000;  // load 0.76
  const auto keys = test::random_keys(n, 31 + slots + tile);
  const auto values = test::random_values(n, 41);
  const auto gi = test::insert(*p.gpu, keys, values);
  CHECK(count(gi, op_status::inserted) == static_cast<long>(n));
  test::insert(*p.model, keys, values);
  p.check();
  std::vector<key_type> half(keys.begin(), keys.begin() + n / 2);
  const auto v2 = test::random_values(n / 2, 42);
  CHECK(count(test::insert(*p.gpu, half, v2), op_status::replaced) == static_cast<long>(n / 2));
  test::insert(*p.model, half, v2);
  auto queries = keys;
  const auto absent = test::random_keys(n + 50000, 999);
  queries.insert(queries.end(), absent.begin() + n, absent.end());
  const auto gf = test::find(*p.gpu, queries), mf = test::find(*p.model, queries);
  CHECK(gf.status == mf.status);
  CHECK(gf.values == mf.values);
  std::vector<key_type> gone(keys.begin() + n / 4, keys.begin() + n / 2);
  gone.insert(gone.end(), absent.begin() + n, absent.begin() + n + 1000);
  CHECK(test::erase(*p.gpu, gone) == test::erase(*p.model, gone));
  p.check();
}

TEST_CASE("hive: filled to 0.97 and 0.99 nothing is lost, with instrumentation counting every step",
          "[gpu][hive]") {
  test::require_gpu();
  const double load = GENERATE(0.97, 0.99);
  const int slots = GENERATE(16, 32);
  CAPTURE(load, slots);
  auto cfg = test::hive_config(backend::gpu, 1u << 20, slots);
  cfg.hive.instrument = true;
  hive_pair p(cfg);
  const auto n = static_cast<std::size_t>(load * (1u << 20));
  const auto keys = test::random_keys(n, 7);
  const auto values = test::random_values(n, 8);
  // In batches, as a table fills in use.
  std::size_t stored = 0;
  for (std::size_t at = 0; at < n; at += 1u << 17) {
    const std::size_t end = std::min(n, at + (1u << 17));
    const std::vector<key_type> k(keys.begin() + at, keys.begin() + end);
    const std::vector<value_type> v(values.begin() + at, values.begin() + end);
    const auto st = test::insert(*p.gpu, k, v);
    stored += count(st, op_status::inserted);
    CHECK(count(st, op_status::inserted) + count(st, op_status::failed_full) ==
          static_cast<long>(k.size()));
  }
  const table_stats s = p.gpu->stats({});
  CHECK(s.live == stored);
  CHECK(stored + s.failed_full == n);
  CHECK(s.hive.steps[1] + s.hive.steps[2] + s.hive.steps[3] == stored);
  CHECK(s.hive.steps[2] > 0);
  // Every hop of a path that completed moved an entry under a lock (a broken path may have moved
  // some first): the tallies of moves and locks, folded from the kernels' copies, say so.
  std::uint64_t hops = 0;
  for (std::uint64_t d = 1; d <= 32; ++d) hops += d * s.hive.path_lengths[d];
  CHECK(hops > 0);
  CHECK(s.hive.moves >= hops);
  CHECK(s.hive.locks >= s.hive.moves);
  if (load == 0.97) CHECK(stored == n);  // zero lost at 0.97: evictions and the stash hold the rest
  // Every stored key is found with its value; refused ones are not.
  const auto f = test::find(*p.gpu, keys);
  CHECK(count(f.status, op_status::found) == static_cast<long>(stored));
  for (std::size_t i = 0; i < n; ++i)
    if (f.status[i] == op_status::found && f.values[i] != values[i])
      FAIL("key " << keys[i] << " has a wrong value");
  const auto r = test::hive_check(*p.gpu);
  INFO(r.describe());
  CHECK(r.ok());
  const auto paths = test::hive_of(*p.gpu).recent_paths({});
  REQUIRE_FALSE(paths.empty());
  for (const auto& path : paths) {
    CHECK(path.length >= 1);
    CHECK(path.length <= static_cast<std::uint32_t>(cfg.hive.eviction_depth));
  }
}

TEST_CASE("hive: keys piled on one bucket pair fill it, then the stash, then are refused",
          "[gpu][hive]") {
  test::require_gpu();
  const int tile = GENERATE(4, 16);
  hive_pair p(test::hive_config(backend::gpu, 1u << 12, 16, tile, {}, 16, 0.0));  // stash: 64 slots
  const auto keys = test::keys_on_pair(test::hive_of(*p.gpu).snapshot({}), 2 * 16 + 64 + 40, 5);
  const auto values = test::random_values(keys.size(), 6);
  const auto st = test::insert(*p.gpu, keys, values);
  CHECK(count(st, op_status::inserted) == 2 * 16 + 64);
  CHECK(count(st, op_status::failed_full) == 40);
  const table_stats s = p.gpu->stats({});
  CHECK(s.hive.stash_live == 64);
  CHECK(s.failed_full == 40);
  const auto f = test::find(*p.gpu, keys);
  CHECK(count(f.status, op_status::found) == 96);
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (st[i] == op_status::inserted) CHECK(f.values[i] == values[i]);
  // Deleting every accepted key empties buckets and stash alike.
  std::vector<key_type> accepted;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (st[i] == op_status::inserted) accepted.push_back(keys[i]);
  CHECK(count(test::erase(*p.gpu, accepted), op_status::erased) == 96);
  CHECK(p.gpu->stats({}).live == 0);
  const auto r = test::hive_check(*p.gpu);
  INFO(r.describe());
  CHECK(r.ok());
}

TEST_CASE("hive: duplicate keys in one insert batch are stored once", "[gpu][hive]") {
  test::require_gpu();
  const int tile = GENERATE(2, 4, 8, 16);
  hive_pair p(test::hive_config(backend::gpu, 1u << 16, 16, tile));
  const auto distinct = test::random_keys(6000, 9);
  const auto [keys, values] = test::repeated_keys(distinct, 8);
  const auto st = test::insert(*p.gpu, keys, values);
  CHECK(count(st, op_status::inserted) == static_cast<long>(distinct.size()));
  CHECK(count(st, op_status::replaced) == static_cast<long>(keys.size() - distinct.size()));
  CHECK(p.gpu->stats({}).live == distinct.size());
  const auto f = test::find(*p.gpu, distinct);
  for (std::size_t i = 0; i < distinct.size(); ++i)
    CHECK(f.values[i] / 8 == i);  // one of its own values
  const auto r = test::hive_check(*p.gpu);
  INFO(r.describe());
  CHECK(r.ok());
}

TEST_CASE("hive: mixed batches agree with the model batch after batch", "[gpu][hive]") {
  test::require_gpu();
  const auto [slots, tile] = GENERATE(Catch::Generators::table<int, int>({{16, 4}, {32, 32}}));
  CAPTURE(slots, tile);
  hive_pair p(test::hive_config(backend::gpu, 1u << 16, slots, tile));
  const auto universe = test::random_keys(200000, 12);
  std::vector<key_type> stored(universe.begin(), universe.begin() + 40000);
  test::insert(*p.gpu, stored, test::random_values(stored.size(), 1));
  test::insert(*p.model, stored, test::random_values(stored.size(), 1));
  std::size_t next = 40000;
  for (int batch = 0; batch < 12; ++batch) {
    // 0.5 : 0.3 : 0.2 insert : lookup : delete, each key once per batch.
    std::vector<op_kind> kinds;
    std::vector<key_type> keys;
    std::vector<value_type> values;
    std::shuffle(stored.begin(), stored.end(), std::mt19937(batch));
    std::size_t used = 0;
    for (int i = 0; i < 10000; ++i) {
      const int r = i % 10;
      if (r < 5) {
        kinds.push_back(op_kind::insert);
        keys.push_back(r < 4 ? universe[next++] : stored[used++]);  // new keys, and some replaces
      } else if (r < 8) {
        kinds.push_back(op_kind::find);
        keys.push_back(r < 7 ? stored[used++] : universe[next + 100000]);
      } else {
        kinds.push_back(op_kind::erase);
        keys.push_back(stored[used++]);
      }
      values.push_back(static_cast<value_type>(batch * 100000 + i));
    }
    const auto g = test::apply(*p.gpu, kinds, keys, values),
               m = test::apply(*p.model, kinds, keys, values);
    int shown = 0;
    for (std::size_t i = 0; i < keys.size() && shown < 5; ++i)
      if (g.status[i] != m.status[i]) {
        ++shown;
        FAIL_CHECK("batch " << batch << " op " << i << " kind " << int(kinds[i]) << " key "
                            << keys[i] << ": GPU " << to_string(g.status[i]) << ", model "
                            << to_string(m.status[i]));
      }
    CHECK(g.status == m.status);
    CHECK(g.values == m.values);
    p.check();
    stored.clear();
    for (const auto& [k, v] : test::contents(*p.model)) stored.push_back(k);
  }
}

TEST_CASE("hive: resizing in the middle of a workload keeps every key, at every step",
          "[gpu][hive][resize]") {
  test::require_gpu();
  // Every bucket size: the resize kernels give a bucket pair `slots` lanes, 32 / slots pairs a
  // warp.
  const int slots = GENERATE(8, 16, 32);
  CAPTURE(slots);
  auto cfg = test::hive_config(backend::gpu, 1u << 14, slots);
  cfg.hive.resize_batch = 64;
  hive_pair p(cfg);
  const std::uint64_t per_step = 4096 / slots;  // buckets: 4,096 slots a step whatever their size
  const auto keys = test::random_keys(60000, 13);
  const auto values = test::random_values(60000, 14);
  std::vector<key_type> first(keys.begin(), keys.begin() + 14000);  // load 0.85
  std::vector<value_type> fv(values.begin(), values.begin() + 14000);
  test::insert(*p.gpu, first, fv);
  test::insert(*p.model, first, fv);
  for (int step = 0; step < 6; ++step) {  // 6 steps of 4,096 slots: past one round of 16,384 slots
    CHECK(test::hive_of(*p.gpu).expand(per_step, {}) == per_step);
    test::hive_of(*p.model).expand(per_step, {});
    p.check();
    // Each step adds 4,096 slots and 3,000 keys: the load falls from 0.85 to 0.78.
    const std::vector<key_type> more(keys.begin() + 14000 + step * 3000,
                                     keys.begin() + 14000 + (step + 1) * 3000);
    const std::vector<value_type> mv(values.begin() + 14000 + step * 3000,
                                     values.begin() + 14000 + (step + 1) * 3000);
    CHECK(test::insert(*p.gpu, more, mv) == test::insert(*p.model, more, mv));
    p.check();
  }
  CHECK(test::hive_of(*p.gpu).snapshot({}).geo.round == 32768u / slots);
  // Delete most, then contract as far as the entries allow.
  std::vector<key_type> gone(keys.begin(), keys.begin() + 28000);
  CHECK(test::erase(*p.gpu, gone) == test::erase(*p.model, gone));
  // Back to 16,384 slots (load 0.24): every merge fits, on both.
  const auto merged = test::hive_of(*p.gpu).contract(6 * per_step, {});
  CHECK(merged == 6 * per_step);
  CHECK(test::hive_of(*p.model).contract(6 * per_step, {}) == 6 * per_step);
  p.check();
  CHECK(p.gpu->capacity() == p.model->capacity());
}

TEST_CASE("hive: automatic resize grows past the threshold while inserting, on the GPU",
          "[gpu][hive][resize]") {
  test::require_gpu();
  auto cfg = test::hive_config(backend::gpu, 1u << 12, 16);
  cfg.hive.auto_resize = true;
  auto t = make_table(cfg);
  const auto keys = test::random_keys(100000, 15);
  for (std::size_t at = 0; at < keys.size(); at += 10000) {
    const std::vector<key_type> part(keys.begin() + at, keys.begin() + at + 10000);
    CHECK(count(test::insert(*t, part, test::random_values(part.size(), at)),
                op_status::inserted) == 10000);
    CHECK(t->stats({}).load_factor() <= 0.9);
  }
  const auto f = test::find(*t, keys);
  CHECK(count(f.status, op_status::found) == 100000);
  const auto r = test::hive_check(*t);
  INFO(r.describe());
  CHECK(r.ok());
}

TEST_CASE("hive: an expansion drains the stash into the grown table, on the GPU",
          "[gpu][hive][resize]") {
  test::require_gpu();
  auto cfg = test::hive_config(backend::gpu, 1024, 16, 0, {}, 16, 0.0);  // 64 buckets, stash of 64
  cfg.hive.resize_batch = 8;
  hive_pair p(cfg);
  const auto keys = test::keys_on_pair(test::hive_of(*p.gpu).snapshot({}), 2 * 16 + 40, 21);
  const auto values = test::random_values(keys.size(), 22);
  CHECK(test::insert(*p.gpu, keys, values) == test::insert(*p.model, keys, values));
  REQUIRE(p.gpu->stats({}).hive.stash_live == 40);
  CHECK(test::hive_of(*p.gpu).expand(64, {}) == 64);
  test::hive_of(*p.model).expand(64, {});
  p.check();
  const auto f = test::find(*p.gpu, keys);
  CHECK(count(f.status, op_status::found) == static_cast<long>(keys.size()));
  CHECK(f.values == values);
}

TEST_CASE(
    "hive: automatic resize grows and shrinks as the model does, to a load between its thresholds",
    "[gpu][hive][resize]") {
  test::require_gpu();
  auto cfg = test::hive_config(backend::gpu, 1u << 12, 16);
  cfg.hive.auto_resize = true;
  hive_pair p(cfg);
  const auto keys = test::random_keys(60000, 23);
  const auto values = test::random_values(60000, 24);
  for (std::size_t at = 0; at < keys.size(); at += 6000) {
    const std::vector<key_type> k(keys.begin() + at, keys.begin() + at + 6000);
    const std::vector<value_type> v(values.begin() + at, values.begin() + at + 6000);
    CHECK(test::insert(*p.gpu, k, v) == test::insert(*p.model, k, v));
    CHECK(p.gpu->capacity() == p.model->capacity());
  }
  p.check();
  // Both sizes follow from the counts alone: a contraction merges every pair it is asked for and
  // inserts again what does not fit, wherever the keys lie.
  for (std::size_t at = 0; at < 54000; at += 6000) {
    const std::vector<key_type> gone(keys.begin() + at, keys.begin() + at + 6000);
    CHECK(test::erase(*p.gpu, gone) == test::erase(*p.model, gone));
    CHECK(p.gpu->capacity() == p.model->capacity());
  }
  const table_stats g = p.gpu->stats({});
  CHECK(g.capacity < (1u << 16));
  CHECK(g.load_factor() >= cfg.hive.shrink_below);
  CHECK(g.failed_full == 0);
  p.check();
}

TEST_CASE(
    "hive: drained from 0.9 to 0.1 with resize=auto, GPU and model end at the same size, between "
    "the thresholds",
    "[gpu][hive][resize]") {
  test::require_gpu();
  // Auto resize never shrinks below the configured size, so the table starts small and grows to
  // about 2^16 slots on the way up.
  auto cfg = test::hive_config(backend::gpu, 1u << 12, 16);
  cfg.hive.auto_resize = true;
  hive_pair p(cfg);
  const std::size_t n = (1u << 16) * 9 / 10;
  const auto keys = test::random_keys(n, 93);
  const auto values = test::random_values(n, 94);
  for (std::size_t at = 0; at < n; at += 8192) {
    const std::size_t end = std::min(n, at + 8192);
    const std::vector<key_type> k(keys.begin() + at, keys.begin() + end);
    const std::vector<value_type> v(values.begin() + at, values.begin() + end);
    CHECK(test::insert(*p.gpu, k, v) == test::insert(*p.model, k, v));
  }
  const std::uint64_t grown = p.gpu->capacity();
  CHECK(grown == p.model->capacity());
  CHECK(grown >= (1u << 16));
  for (std::size_t at = 0; at < n * 8 / 9; at += 4096) {
    const std::vector<key_type> gone(keys.begin() + at,
                                     keys.begin() + std::min(n * 8 / 9, at + 4096));
    CHECK(test::erase(*p.gpu, gone) == test::erase(*p.model, gone));
  }
  CHECK(p.gpu->capacity() == p.model->capacity());
  const table_stats g = p.gpu->stats({});
  CHECK(g.capacity < grown / 2);
  CHECK(g.load_factor() >= cfg.hive.shrink_below);
  CHECK(g.load_factor() <= cfg.hive.grow_above);
  p.check();
}

TEST_CASE(
    "hive: an explicit contraction reaches its target, or stops at 90% and says so, on the GPU as "
    "in the model",
    "[gpu][hive][resize]") {
  test::require_gpu();
  hive_pair p(test::hive_config(backend::gpu, 1u << 14, 16));
  const auto keys = test::random_keys(4000, 81);
  const auto values = test::random_values(4000, 82);
  CHECK(test::insert(*p.gpu, keys, values) == test::insert(*p.model, keys, values));
  CHECK(test::hive_of(*p.gpu).contract(724, {}) == 724);  // load 0.24 -> 0.83
  CHECK(test::hive_of(*p.model).contract(724, {}) == 724);
  p.check();
  CHECK(p.gpu->stats({}).failed_full == 0);
  CHECK(test::hive_of(*p.gpu).contract(100, {}) == 22);  // 278 buckets hold 4,000 keys within 90%
  CHECK(test::hive_of(*p.model).contract(100, {}) == 22);
  CHECK(p.gpu->stats({}).hive.merges_refused == 78);
  p.check();
  const auto f = test::find(*p.gpu, keys);
  CHECK(count(f.status, op_status::found) == 4000);
}
