// [gpu] Large insert batches without statuses take the hive table's bulk way (hive_bulk.cu:
// grouped rounds by first and second candidate, the rest through the insert kernels). Against
// the CPU model (which inserts key by key): random keys, replaces, keys already displaced (away
// bits set), keys piled on one bucket past a group's room and past a warp, reserved keys,
// equal keys in one batch, a fill into the stash, a table in the middle of a resize round; exact
// key sets and invariants after every batch. The table's bulk counters show which batches took the
// rounds.
#include <algorithm>

#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include "tests/core/hive/hive_test_support.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;

namespace {

/// A GPU hive config that inserts every batch without statuses the bulk way (automatically only
/// large tables do).
table_config bulk_config(std::uint64_t capacity, int slots = 16, std::string hashes = {}) {
  table_config c = test::hive_config(backend::gpu, capacity, slots, 0, std::move(hashes));
  c.hive.bulk = auto_on_off::on;
  return c;
}

/// Inserts without statuses (the bulk way when the batch is large enough).
void insert_quietly(table& t, const std::vector<key_type>& keys,
                    const std::vector<value_type>& values) {
  auto k = test::to_space(t.space(), keys);
  auto v = test::to_space(t.space(), values);
  t.insert(k.cspan(), v.cspan(), {}, {});
}

/// The GPU table (bulk inserts on) and the model, which inserts key by key.
struct bulk_pair : test::hive_pair {
  using hive_pair::hive_pair;
  void insert(const std::vector<key_type>& keys, const std::vector<value_type>& values) {
    insert_quietly(*gpu, keys, values);
    test::insert(*model, keys, values);
  }
};

/// `n` distinct keys whose first candidate is `bucket` (and whose second is another).
std::vector<key_type> keys_with_first(const hive::hive_image& img, std::uint64_t bucket,
                                      std::size_t n) {
  std::vector<key_type> out;
  for (key_type k = 1; out.size() < n; ++k) {
    const auto c = img.candidates_of(k);
    if (c.b[0] == bucket && c.b[1] != bucket) out.push_back(k);
  }
  return out;
}

std::vector<key_type> slice(const std::vector<key_type>& v, std::size_t from, std::size_t to) {
  return {v.begin() + from, v.begin() + to};
}

}  // namespace

TEST_CASE("hive bulk: large batches without statuses agree with the model", "[gpu][hive][bulk]") {
  test::require_gpu();
  const int slots = GENERATE(8, 16, 32);
  const std::string hashes =
      GENERATE(std::string("bithash1+bithash2"), std::string("murmur3+city+crc32"));
  CAPTURE(slots, hashes);
  const std::uint64_t capacity = 1u << 20;
  bulk_pair p(bulk_config(capacity, slots, hashes));
  const auto keys = test::random_keys(capacity, 501 + slots);
  const auto values = test::random_values(capacity, 502);
  // To load 0.6 in one batch: mostly the first round.
  const std::size_t first = capacity * 6 / 10;
  p.insert(slice(keys, 0, first), std::vector<value_type>(values.begin(), values.begin() + first));
  CHECK(p.gpu->stats({}).hive.bulk_batches == 1);
  p.check();
  // Replaces of a third of them mixed with new keys to load 0.9: presence found in first
  // candidates, second rounds, evictions for the rest.
  std::vector<key_type> k2 = slice(keys, 0, first / 3);
  const std::size_t last = capacity * 9 / 10;
  k2.insert(k2.end(), keys.begin() + first, keys.begin() + last);
  const auto v2 = test::random_values(k2.size(), 503);
  p.insert(k2, v2);
  const hive_counters h = p.gpu->stats({}).hive;
  CHECK(h.bulk_batches == 2);
  // The rounds placed most of them (H200: 8-slot buckets leave ~12% to the per-key kernels, 16
  // and 32 slots far fewer).
  CHECK(h.bulk_rest < (first + k2.size()) / 4);
  p.check();
  // Erase a quarter, insert them back with new values: buckets whose away bits are set now send
  // their keys to the insert kernels.
  const auto gone = slice(keys, first / 4, first / 2);
  CHECK(test::erase(*p.gpu, gone) == test::erase(*p.model, gone));
  p.insert(gone, test::random_values(gone.size(), 504));
  CHECK(p.gpu->stats({}).hive.bulk_batches == 3);
  p.check();
}

TEST_CASE("hive bulk: small tables, small batches and batches with statuses go key by key",
          "[gpu][hive][bulk]") {
  test::require_gpu();
  const auto keys = test::random_keys(1u << 17, 551);
  const auto values = test::random_values(keys.size(), 552);
  // Automatic: a table under 2^24 slots, then a batch under an eighth of a large one.
  auto small = make_table(test::hive_config(backend::gpu, 1u << 20, 16));
  insert_quietly(*small, keys, values);
  CHECK(small->stats({}).hive.bulk_batches == 0);
  auto large = make_table(test::hive_config(backend::gpu, 1u << 24, 16));
  insert_quietly(*large, keys, values);
  CHECK(large->stats({}).hive.bulk_batches == 0);
  // On, but statuses asked for: they need the per-key path.
  auto on = make_table(bulk_config(1u << 20));
  const auto st = test::insert(*on, keys, values);
  CHECK(std::count(st.begin(), st.end(), op_status::inserted) == static_cast<long>(keys.size()));
  CHECK(on->stats({}).hive.bulk_batches == 0);
  CHECK(on->stats({}).live == keys.size());
}

TEST_CASE("hive bulk: reserved keys and values are rejected and counted; the rest is stored",
          "[gpu][hive][bulk]") {
  test::require_gpu();
  bulk_pair p(bulk_config(1u << 19));
  auto keys = test::random_keys(200000, 511);
  auto values = test::random_values(keys.size(), 512);
  for (std::size_t i = 0; i < 300; ++i)
    keys[i * 500] = k_empty - static_cast<key_type>(i % 2);  // empty, tombstone
  for (std::size_t i = 0; i < 200; ++i) values[i * 500 + 7] = k_empty;
  p.insert(keys, values);
  CHECK(p.gpu->stats({}).rejected[int(op_kind::insert)] == 500);
  CHECK(p.gpu->stats({}).rejected_total() == 500);
  p.check();
}

TEST_CASE("hive bulk: equal keys in one batch are stored once with one of their values",
          "[gpu][hive][bulk]") {
  test::require_gpu();
  auto gpu = make_table(bulk_config(1u << 19));
  const auto distinct = test::random_keys(20000, 521);
  const auto [keys, values] = test::repeated_keys(distinct, 8);
  insert_quietly(*gpu, keys, values);
  CHECK(gpu->stats({}).live == distinct.size());
  const auto f = test::find(*gpu, distinct);
  CHECK(std::count(f.status.begin(), f.status.end(), op_status::found) ==
        static_cast<long>(distinct.size()));
  for (std::size_t i = 0; i < distinct.size(); ++i) CHECK(f.values[i] / 8 == i);
  const auto r = test::hive_check(*gpu);
  INFO(r.describe());
  CHECK(r.ok());
}

TEST_CASE("hive bulk: keys piled on one bucket overflow a group and a warp", "[gpu][hive][bulk]") {
  test::require_gpu();
  // 2^16 buckets in groups of 16: 2500 keys whose first candidate is one bucket pass a group's
  // room (2048), 100 on a bucket of another group pass a warp (32); the insert kernels take them
  // (their second candidates are random).
  bulk_pair p(bulk_config(1u << 20));
  const auto image = test::hive_of(*p.gpu).snapshot({});
  auto keys = keys_with_first(image, 777, 2500);
  const auto second_pile = keys_with_first(image, 777 + 1024, 100);
  keys.insert(keys.end(), second_pile.begin(), second_pile.end());
  std::sort(keys.begin(), keys.end());
  for (key_type k : test::random_keys(200000, 533))
    if (!std::binary_search(keys.begin(), keys.begin() + 2600, k)) keys.push_back(k);
  p.insert(keys, test::random_values(keys.size(), 534));
  CHECK(p.gpu->stats({}).hive.bulk_rest >= 2600);  // both piles went to the per-key kernels
  p.check();
}

TEST_CASE("hive bulk: a fill to 0.99 uses the stash; replaces find keys there",
          "[gpu][hive][bulk]") {
  test::require_gpu();
  const std::uint64_t capacity = 1u << 18;
  bulk_pair p(bulk_config(capacity));
  const auto keys = test::random_keys(static_cast<std::size_t>(0.99 * double(capacity)), 536);
  p.insert(keys, test::random_values(keys.size(), 537));
  CHECK(p.gpu->stats({}).hive.stash_live > 0);
  p.check();
  // Again with new values: buckets whose stash count is set send their keys to the insert kernels.
  p.insert(keys, test::random_values(keys.size(), 538));
  p.check();
}

TEST_CASE("hive bulk: a table in the middle of a resize round addresses every key",
          "[gpu][hive][bulk][resize]") {
  test::require_gpu();
  bulk_pair p(bulk_config(1u << 19));
  const auto keys = test::random_keys(600000, 541);
  const auto values = test::random_values(keys.size(), 542);
  p.insert(slice(keys, 0, 300000),
           std::vector<value_type>(values.begin(), values.begin() + 300000));
  // Split 3/8 of the round: buckets below the split pointer take one more hash bit.
  const std::uint64_t round = (1u << 19) / 16;
  CHECK(test::hive_of(*p.gpu).expand(round * 3 / 8, {}) == round * 3 / 8);
  test::hive_of(*p.model).expand(round * 3 / 8, {});
  p.insert(slice(keys, 300000, keys.size()),
           std::vector<value_type>(values.begin() + 300000, values.end()));
  p.check();
}

TEST_CASE("hive bulk: a batch of 47M keys into 2^26 slots stores every key once and then replaces",
          "[gpu][hive][large]") {
  test::require_gpu();
  const std::uint64_t capacity = std::uint64_t{1} << 26;
  auto gpu = make_table(test::hive_config(backend::gpu, capacity, 16));
  const std::size_t n = static_cast<std::size_t>(0.7 * double(capacity));
  const auto keys = test::random_keys(n, 77);
  auto values = test::random_values(n, 78);
  insert_quietly(*gpu, keys, values);
  const auto fresh = test::random_values(n / 2, 79);
  std::copy(fresh.begin(), fresh.end(), values.begin());
  insert_quietly(*gpu, slice(keys, 0, n / 2), fresh);
  const table_stats st = gpu->stats({});
  CHECK(st.live == n);
  const auto found = test::find(*gpu, keys);
  CHECK(std::count(found.status.begin(), found.status.end(), op_status::found) ==
        static_cast<long>(n));
  CHECK(found.values == values);
  const auto r = test::hive_check(*gpu);
  INFO(r.describe());
  CHECK(r.ok());
}

TEST_CASE(
    "hive bulk, automatic: a batch past load 0.9 goes to the rounds up to 0.9 and key by key after",
    "[gpu][hive][bulk]") {
  test::require_gpu();
  const std::uint64_t capacity = 1u << 24;  // automatic bulk starts at 2^24 slots
  bulk_pair p(test::hive_config(backend::gpu, capacity, 16));
  const auto keys = test::random_keys(static_cast<std::size_t>(0.97 * double(capacity)), 561);
  p.insert(keys, test::random_values(keys.size(), 562));
  const hive_counters h = p.gpu->stats({}).hive;
  CHECK(h.bulk_batches == 1);
  CHECK(h.bulk_rest >=
        keys.size() - static_cast<std::size_t>(0.9 * double(capacity)));  // the tail, key by key
  CHECK(p.gpu->stats({}).live == keys.size());
  p.check();
  // Past 0.9 already: a further batch goes key by key entirely (too small for the rounds anyway).
  const auto more = test::random_keys(keys.size() + 100000, 561);
  const std::vector<key_type> tail(more.begin() + static_cast<std::ptrdiff_t>(keys.size()),
                                   more.end());
  p.insert(tail, test::random_values(tail.size(), 563));
  CHECK(p.gpu->stats({}).hive.bulk_batches == 1);
  p.check();
}
