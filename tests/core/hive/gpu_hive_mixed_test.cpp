// [gpu] The hive's mixed batches through every pass of the batch kernel (the first-candidate pass
// of every kind, the two-candidate insert pass, the general path): keys inserted, looked up and
// deleted in one batch, whose outcome depends on the order the GPU ran them in, checked against
// the orders that explain it; batches that pile keys into the stash and push the table to grow,
// against the model; and every status accounted for.
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

struct mixed_batch {
  std::vector<op_kind> kinds;
  std::vector<key_type> keys;
  std::vector<value_type> values;
  void add(op_kind k, key_type key, value_type v) {
    kinds.push_back(k);
    keys.push_back(key);
    values.push_back(v);
  }
};

// A GPU table and the model, both holding the first `n` keys of a universe of `size` (the rest
// are keys never stored).
struct filled_pair {
  hive_pair p;
  std::vector<key_type> universe, stored;
  filled_pair(int slots, int tile, std::size_t size, std::size_t n, std::uint64_t seed)
      : p(test::hive_config(backend::gpu, 1u << 16, slots, tile)),
        universe(test::random_keys(size, seed)),
        stored(universe.begin(), universe.begin() + static_cast<std::ptrdiff_t>(n)) {
    const auto values = test::random_values(stored.size(), seed + 1);
    test::insert(*p.gpu, stored, values);
    test::insert(*p.model, stored, values);
  }
};

// The triples' keys are new; beside them, operations on distinct keys whose outcome no order
// changes (new inserts, lookups and deletes of stored keys, lookups of absent keys), which the
// model replays.
struct triple_batch {
  mixed_batch shuffled, plain;
  std::map<key_type, value_type> triple_value;
};

triple_batch make_triple_batch(const std::vector<key_type>& universe,
                               const std::vector<key_type>& stored) {
  constexpr std::size_t triples = 3000;
  triple_batch b;
  mixed_batch all;
  for (std::size_t i = 0; i < triples; ++i) {
    const key_type k = universe[30000 + i];
    const auto v = static_cast<value_type>(1000000 + i);
    b.triple_value[k] = v;
    all.add(op_kind::insert, k, v);
    all.add(op_kind::find, k, 0);
    all.add(op_kind::erase, k, 0);
  }
  for (std::size_t i = 0; i < 6000; ++i) {
    const int r = static_cast<int>(i % 4);
    const key_type k = r == 0   ? universe[40000 + i]   // a new key
                       : r == 3 ? universe[100000 + i]  // never stored: a miss
                                : stored[i];            // stored: found, or deleted
    const op_kind kind = r == 0 ? op_kind::insert : r == 2 ? op_kind::erase : op_kind::find;
    all.add(kind, k, static_cast<value_type>(7 * i));
    b.plain.add(kind, k, static_cast<value_type>(7 * i));
  }
  std::vector<std::size_t> order(all.keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(33));
  for (const std::size_t i : order) b.shuffled.add(all.kinds[i], all.keys[i], all.values[i]);
  return b;
}

// The GPU's statuses: the distinct operations' counted against the model's, the triples' kept.
struct triple_outcome {
  long inserted = 0, erased = 0;
  std::map<key_type, std::array<op_status, 3>> triple_status;  // insert, find, erase
  std::map<key_type, value_type> found_value;
};

// Every operation has a status; the distinct ones have the model's.
triple_outcome tally_statuses(triple_batch& b, const test::bulk_out<value_type>& g,
                              std::map<key_type, op_status>& model_status) {
  const mixed_batch& shuffled = b.shuffled;
  triple_outcome o;
  long wrong = 0;
  for (std::size_t i = 0; i < shuffled.keys.size(); ++i) {
    const key_type k = shuffled.keys[i];
    const op_status st = g.status[i];
    CHECK(st != op_status::none);
    o.inserted += st == op_status::inserted;
    o.erased += st == op_status::erased;
    if (b.triple_value.count(k)) {
      o.triple_status[k][shuffled.kinds[i] == op_kind::insert ? 0
                         : shuffled.kinds[i] == op_kind::find ? 1
                                                              : 2] = st;
      if (shuffled.kinds[i] == op_kind::find) o.found_value[k] = g.values[i];
    } else if (st != model_status[k] && ++wrong <= 5) {
      FAIL_CHECK("key " << k << ": GPU " << to_string(st) << ", model "
                        << to_string(model_status[k]));
    }
  }
  CHECK(wrong == 0);
  return o;
}

// Each triple: the insert stored a new key; a lookup that found it read its value; the key is
// left in the table exactly when the delete ran before the insert (and so missed). Returns the
// triples' keys the table kept.
long check_triples(table& gpu, triple_batch& b, triple_outcome& o) {
  const auto after = test::find(gpu, std::vector<key_type>(b.shuffled.keys));
  std::map<key_type, bool> present;
  for (std::size_t i = 0; i < b.shuffled.keys.size(); ++i)
    present[b.shuffled.keys[i]] = after.status[i] == op_status::found;
  long kept = 0;
  for (const auto& [k, st] : o.triple_status) {
    CAPTURE(k, to_string(st[0]), to_string(st[1]), to_string(st[2]));
    CHECK(st[0] == op_status::inserted);
    CHECK((st[1] == op_status::found || st[1] == op_status::missing));
    if (st[1] == op_status::found) CHECK(o.found_value[k] == b.triple_value[k]);
    CHECK((st[2] == op_status::erased || st[2] == op_status::missing));
    CHECK(present[k] == (st[2] == op_status::missing));
    kept += present[k];
  }
  return kept;
}

}  // namespace

TEST_CASE(
    "hive: a key inserted, looked up and deleted in one mixed batch ends as one order of the "
    "three explains",
    "[gpu][hive]") {
  test::require_gpu();
  const auto [slots, tile] =
      GENERATE(Catch::Generators::table<int, int>({{16, 4}, {16, 2}, {8, 8}, {32, 32}, {16, 16}}));
  CAPTURE(slots, tile);
  filled_pair fp(slots, tile, 120000, 30000, 31);
  hive_pair& p = fp.p;
  triple_batch b = make_triple_batch(fp.universe, fp.stored);
  const mixed_batch& shuffled = b.shuffled;
  const mixed_batch& plain = b.plain;

  const auto g = test::apply(*p.gpu, shuffled.kinds, shuffled.keys, shuffled.values);
  const auto m = test::apply(*p.model, plain.kinds, plain.keys, plain.values);
  std::map<key_type, op_status> model_status;
  for (std::size_t i = 0; i < plain.keys.size(); ++i) model_status[plain.keys[i]] = m.status[i];

  triple_outcome o = tally_statuses(b, g, model_status);
  const long kept = check_triples(*p.gpu, b, o);
  // Nothing lost or counted twice: the live count moved by the statuses, and the table holds the
  // model's keys and the triples it kept.
  const table_stats s = p.gpu->stats({});
  CHECK(static_cast<long>(s.live) == 30000 + o.inserted - o.erased);
  CHECK(s.live == p.model->stats({}).live + static_cast<std::uint64_t>(kept));
  auto g_pairs = test::contents(*p.gpu);
  std::erase_if(g_pairs, [&](const auto& kv) { return b.triple_value.count(kv.first) > 0; });
  CHECK(g_pairs == test::contents(*p.model));
  const auto r = test::hive_check(*p.gpu);
  INFO(r.describe());
  CHECK(r.ok());
}

TEST_CASE(
    "hive: mixed batches that pile keys into the stash and grow the table agree with the "
    "model",
    "[gpu][hive][resize]") {
  test::require_gpu();
  const int tile = GENERATE(4, 16);
  CAPTURE(tile);
  auto cfg = test::hive_config(backend::gpu, 1u << 12, 16, tile);  // a stash of 64
  cfg.hive.auto_resize = true;
  cfg.hive.instrument = true;
  hive_pair p(cfg);
  // Batch 1: keys on one bucket pair, past its 32 slots into the stash, among other inserts.
  const auto piled = test::keys_on_pair(test::hive_of(*p.gpu).snapshot({}), 2 * 16 + 30, 41);
  const auto others = test::random_keys(40000, 42);
  std::vector<key_type> stored;
  std::size_t next = 0;
  const auto run = [&](const mixed_batch& b) {
    const auto g = test::apply(*p.gpu, b.kinds, b.keys, b.values);
    const auto m = test::apply(*p.model, b.kinds, b.keys, b.values);
    CHECK(g.status == m.status);
    CHECK(g.values == m.values);
    for (const op_status st : g.status) CHECK(st != op_status::none);
    p.check();
    stored.clear();
    for (const auto& [k, v] : test::contents(*p.model)) stored.push_back(k);
  };
  mixed_batch first;
  for (const key_type k : piled) first.add(op_kind::insert, k, k ^ 0x5a5a5a5au);
  while (first.keys.size() < 1500) {
    const key_type k = others[next++];
    if (std::find(piled.begin(), piled.end(), k) == piled.end())
      first.add(op_kind::insert, k, k + 1);
  }
  run(first);
  REQUIRE(p.gpu->stats({}).hive.stash_live > 0);
  // Batches 2-6: inserts of new keys push the load past 0.9 (the table grows before the batch,
  // draining the stash), while lookups and deletes take stored keys, the piled ones among them.
  for (int batch = 0; batch < 5; ++batch) {
    mixed_batch b;
    std::shuffle(stored.begin(), stored.end(), std::mt19937(43 + batch));
    std::size_t used = 0;
    for (int i = 0; i < 3000; ++i) {
      const int r = i % 10;
      if (r < 6) {
        b.add(op_kind::insert, others[next++], static_cast<value_type>(batch * 10000 + i));
      } else if (r < 8 && used < stored.size()) {
        b.add(op_kind::find, stored[used++], 0);
      } else if (used < stored.size()) {
        b.add(op_kind::erase, stored[used++], 0);
      }
    }
    run(b);
  }
  const table_stats s = p.gpu->stats({});
  CHECK(s.capacity > (1u << 12));
  CHECK(s.hive.splits > 0);
  // With instrumentation on, the steps count every insert that stored or replaced a key.
  std::uint64_t steps = 0;
  for (const std::uint64_t n : s.hive.steps) steps += n;
  CHECK(steps == p.model->stats({}).hive.steps[0] + p.model->stats({}).hive.steps[1] +
                     p.model->stats({}).hive.steps[2] + p.model->stats({}).hive.steps[3]);
}

TEST_CASE(
    "hive: mixed batches without statuses (one kernel for every pass) leave what the model "
    "leaves, lookups included",
    "[gpu][hive]") {
  test::require_gpu();
  const auto [slots, tile] = GENERATE(Catch::Generators::table<int, int>({{16, 4}, {32, 32}}));
  CAPTURE(slots, tile);
  filled_pair fp(slots, tile, 100000, 40000, 51);
  hive_pair& p = fp.p;
  const auto& universe = fp.universe;
  const auto& stored = fp.stored;
  mixed_batch b;
  for (std::size_t i = 0; i < 20000; ++i) {
    const int r = static_cast<int>(i % 5);
    const key_type k = r == 0 ? universe[50000 + i] : r == 4 ? universe[80000 + i] : stored[i];
    const op_kind kind = r == 0 ? op_kind::insert : r == 2 ? op_kind::erase : op_kind::find;
    b.add(kind, k, static_cast<value_type>(3 * i + 1));
  }
  // The GPU batch asks for the found values alone: no statuses, so the fused kernel runs it.
  auto kd = test::to_space(memory_space::device, b.kinds);
  auto kk = test::to_space(memory_space::device, b.keys);
  auto kv = test::to_space(memory_space::device, b.values);
  buffer<value_type> results(memory_space::device, b.keys.size());
  p.gpu->apply({kd.cspan(), kk.cspan(), kv.cspan()}, results.span(), {}, {});
  const auto m = test::apply(*p.model, b.kinds, b.keys, b.values);
  CHECK(results.download() == m.values);
  p.check();
}
