// [gpu] Tables of 64-bit keys and values on the GPU against their CPU model: every operation,
// delete mode and probing, with one 16-byte CAS a claim and with split claims (pair-cas off: the
// key, then the value), keys that differ only in their high 32 bits, full tables, mixed batches,
// rehash and resize, inspection and states.
#include <algorithm>
#include <map>

#include <catch2/generators/catch_generators.hpp>

#include "core/common/error.hpp"
#include "core/table/table_state.hpp"
#include "tests/core/linear/gpu_support_linear.hpp"

using namespace hs;

namespace {

linear_tuning pair_cas(auto_on_off on) {
  linear_tuning t = test::group_of(1);
  t.pair_cas = on;
  return t;
}

/// Inserts, overwrites, finds (hits and misses) and erases on both, comparing every status and
/// value, then the contents.
void run_round(test::wide_linear_pair& p, const std::vector<wide_key>& keys,
               const std::vector<wide_value>& values, std::size_t erased) {
  CHECK(test::insert(*p.gpu, keys, values) == test::insert(p.model, keys, values));
  p.check_agrees();
  // Overwrite every other key with its value's complement.
  std::vector<wide_key> half;
  std::vector<wide_value> other;
  for (std::size_t i = 0; i < keys.size(); i += 2) {
    half.push_back(keys[i]);
    other.push_back(~values[i] & 0x7fffffffffffffffull);
  }
  CHECK(test::insert(*p.gpu, half, other) == test::insert(p.model, half, other));
  const std::vector<wide_key> gone(keys.begin(),
                                   keys.begin() + static_cast<std::ptrdiff_t>(erased));
  CHECK(test::erase(*p.gpu, gone) == test::erase(p.model, gone));
  // Lookups of every key, and of keys that share a present key's low half but not its high one.
  std::vector<wide_key> probes = keys;
  for (std::size_t i = 0; i < keys.size(); i += 3) probes.push_back(keys[i] ^ (wide_key{1} << 63));
  const auto g = test::find(*p.gpu, probes);
  const auto m = test::find(p.model, probes);
  CHECK(g.status == m.status);
  CHECK(g.values == m.values);
  p.check_agrees();
}

}  // namespace

TEST_CASE("64-bit keys: every operation agrees with the model, both claims, both delete modes",
          "[gpu][linear][wide]") {
  test::require_gpu();
  const auto_on_off claims = GENERATE(auto_on_off::automatic, auto_on_off::off);
  const linear_delete_mode mode =
      GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  const probe_policy probe = GENERATE(probe_policy::linear, probe_policy::double_hash);
  const hash_kind hash = GENERATE(hash_kind::murmur3, hash_kind::identity);
  CAPTURE(to_string(claims), to_string(mode), to_string(probe), to_string(hash));
  const std::uint64_t capacity = 1u << 16;
  test::wide_linear_pair p(capacity, hash, pair_cas(claims), mode, probe);
  // Groups of 4 keys with one low half: under the identity hash each group shares a home slot.
  const auto keys = test::random_wide_keys(static_cast<std::size_t>(capacity * 0.8), 201, 4);
  run_round(p, keys, test::random_wide_values(keys.size(), 202), keys.size() / 3);
  SECTION("and again into the erased slots") {
    // As many as still fit where erasing by value keeps the erased keys' slots.
    const auto more = test::random_wide_keys(keys.size() / 6, 203, 2);
    CHECK(test::insert(*p.gpu, more, test::random_wide_values(more.size(), 204)) ==
          test::insert(p.model, more, test::random_wide_values(more.size(), 204)));
    p.check_agrees();
  }
}

TEST_CASE("64-bit keys: a full table refuses exactly the excess", "[gpu][linear][wide]") {
  test::require_gpu();
  const auto_on_off claims = GENERATE(auto_on_off::automatic, auto_on_off::off);
  const linear_delete_mode mode =
      GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  CAPTURE(to_string(claims), to_string(mode));
  const std::uint64_t capacity = 1u << 12;
  test::wide_linear_pair p(capacity, hash_kind::murmur3, pair_cas(claims), mode);
  const auto keys = test::random_wide_keys(capacity + 300, 211, 3);
  const auto st = test::insert(*p.gpu, keys, test::random_wide_values(keys.size(), 212));
  CHECK(std::count(st.begin(), st.end(), op_status::inserted) == capacity);
  CHECK(std::count(st.begin(), st.end(), op_status::failed_full) == 300);
  CHECK(p.gpu->stats({}).failed_full == 300);
  CHECK(p.gpu->stats({}).live == capacity);
  const auto found = test::find(*p.gpu, keys);
  CHECK(std::count(found.status.begin(), found.status.end(), op_status::found) == capacity);
}

TEST_CASE("64-bit keys: mixed batches agree with the model", "[gpu][linear][wide]") {
  test::require_gpu();
  const auto_on_off claims = GENERATE(auto_on_off::automatic, auto_on_off::off);
  const linear_delete_mode mode =
      GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  CAPTURE(to_string(claims), to_string(mode));
  test::wide_linear_pair p(1u << 16, hash_kind::murmur3, pair_cas(claims), mode);
  const auto keys = test::random_wide_keys(60000, 221, 4);
  const auto values = test::random_wide_values(keys.size(), 222);
  const std::vector<wide_key> base(keys.begin(), keys.begin() + 30000);
  const std::vector<wide_value> base_v(values.begin(), values.begin() + 30000);
  test::insert(*p.gpu, base, base_v);
  test::insert(p.model, base, base_v);
  std::vector<op_kind> kinds;
  std::vector<wide_key> k;
  std::vector<wide_value> v;
  for (std::size_t i = 0; i < 24000; ++i) {
    // Every kind in every warp, each key touched once: insert new, find present, miss, erase.
    const op_kind kind[] = {op_kind::insert, op_kind::find, op_kind::find, op_kind::erase};
    const wide_key key[] = {keys[30000 + i / 4], base[i / 4], keys[45000 + i / 4],
                            base[10000 + i / 4]};
    kinds.push_back(kind[i % 4]);
    k.push_back(key[i % 4]);
    v.push_back(values[i]);
  }
  const auto g = test::apply(*p.gpu, kinds, k, v);
  const auto m = test::apply(p.model, kinds, k, v);
  CHECK(g.status == m.status);
  CHECK(g.values == m.values);
  p.check_agrees();
}

TEST_CASE("64-bit keys: the same key inserted by many threads is stored once",
          "[gpu][linear][wide]") {
  test::require_gpu();
  const auto_on_off claims = GENERATE(auto_on_off::automatic, auto_on_off::off);
  const linear_delete_mode mode =
      GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  CAPTURE(to_string(claims), to_string(mode));
  test::wide_linear_pair p(1u << 14, hash_kind::murmur3, pair_cas(claims), mode);
  const auto fresh = test::random_wide_keys(2000, 231, 4);
  std::vector<wide_key> keys;
  std::vector<wide_value> values;
  for (int copy = 0; copy < 16; ++copy)
    for (std::size_t i = 0; i < fresh.size(); ++i) {
      keys.push_back(fresh[i]);
      values.push_back(wide_value(copy) << 40 | i);
    }
  const auto st = test::insert(*p.gpu, keys, values);
  // Exactly one insert of each key is reported inserted, whichever claim won.
  CHECK(std::count(st.begin(), st.end(), op_status::inserted) == fresh.size());
  CHECK(std::count(st.begin(), st.end(), op_status::replaced) == keys.size() - fresh.size());
  const auto got = test::wide_contents(*p.gpu);
  REQUIRE(got.size() == fresh.size());
  for (const auto& [k, v] : got) CHECK((v & 0xffffffffffull) < fresh.size());
  const table_stats gst = p.gpu->stats({});
  const auto r = linear::check_invariants(linear::copy_slots<linear::wide_slot>(*p.gpu),
                                          hash_kind::murmur3, &gst, mode);
  INFO(r.describe());
  CHECK(r.ok());
}

TEST_CASE("64-bit keys: rehash and resize keep the exact key-value set", "[gpu][linear][wide]") {
  test::require_gpu();
  const linear_delete_mode mode =
      GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  const probe_policy probe = GENERATE(probe_policy::linear, probe_policy::double_hash);
  CAPTURE(to_string(mode), to_string(probe));
  const std::uint64_t capacity = 1u << 18;
  test::wide_linear_pair p(capacity, hash_kind::murmur3, test::group_of(1), mode, probe);
  const auto keys = test::random_wide_keys(static_cast<std::size_t>(capacity * 0.7), 241, 4);
  const auto vals = test::random_wide_values(keys.size(), 242);
  std::vector<wide_key> gone;
  for (std::size_t i = 0; i < keys.size(); i += 3) gone.push_back(keys[i]);
  for (auto* t : {static_cast<table*>(p.gpu.get()), static_cast<table*>(&p.model)}) {
    test::insert(*t, keys, vals);
    test::erase(*t, gone);
  }
  const auto before = test::wide_contents(p.model);
  for (std::uint64_t cap : {capacity, capacity * 2, capacity * 8, capacity * 2, capacity}) {
    CAPTURE(cap);
    p.gpu->rehash(cap, {});
    p.model.rehash(cap, {});
    CHECK(test::wide_contents(*p.gpu) == before);
    const table_stats st = p.gpu->stats({});
    CHECK(st.erased + st.tombstones == 0);
    p.check_agrees();
  }
  CHECK_THROWS_AS(p.gpu->rehash(capacity / 8, {}), user_error);
  CHECK(test::wide_contents(*p.gpu) == before);
}

TEST_CASE("64-bit keys: inspection, slot dumps and states agree with the model",
          "[gpu][linear][wide]") {
  test::require_gpu();
  const std::uint64_t capacity = 1u << 14;
  // Automatic tuning on both, so that states pass between them (tuning is part of a state's
  // options).
  test::wide_linear_pair p(capacity, hash_kind::murmur3, linear_tuning{},
                           linear_delete_mode::tombstone);
  const auto keys = test::random_wide_keys(12000, 251, 4);
  const auto vals = test::random_wide_values(keys.size(), 252);
  const std::vector<wide_key> gone(keys.begin(), keys.begin() + 3000);
  for (auto* t : {static_cast<table*>(p.gpu.get()), static_cast<table*>(&p.model)}) {
    test::insert(*t, keys, vals);
    test::erase(*t, gone);
  }
  // The model adopts the GPU's exact slots: every inspection must then read the same.
  p.model.load_slots(linear::copy_slots<linear::wide_slot>(*p.gpu));
  inspect_request req;
  req.probe_histogram = true;
  req.dump_first = capacity - 20;  // wraps round the end
  req.dump_count = 60;
  inspect_result g, m;
  p.gpu->inspect(req, g, {});
  p.model.inspect(req, m, {});
  CHECK(g.histogram.counts == m.histogram.counts);
  REQUIRE(g.slots.size() == m.slots.size());
  std::size_t high_keys = 0;
  for (std::size_t i = 0; i < g.slots.size(); ++i) {
    CHECK(g.slots[i].key == m.slots[i].key);
    CHECK(g.slots[i].value == m.slots[i].value);
    CHECK(g.slots[i].home == m.slots[i].home);
    CHECK(g.slots[i].displacement == m.slots[i].displacement);
    CHECK(g.slots[i].state == m.slots[i].state);
    high_keys += g.slots[i].state == slot_state::live && g.slots[i].key > 0xffffffffull;
  }
  CHECK(high_keys > 0);  // the records carry the keys' high halves
  // A state taken on the GPU restores into a CPU model, and back into a fresh GPU table.
  const table_state st = p.gpu->save_state({});
  auto cpu = make_table(test::wide_linear_pair::model_config(capacity / 2, hash_kind::murmur3,
                                                             linear_delete_mode::tombstone));
  cpu->restore_state(st, {});
  CHECK(test::wide_contents(*cpu) == test::wide_contents(*p.gpu));
  auto again =
      test::wide_linear_pair::make_gpu(capacity, hash_kind::murmur3, linear_tuning{},
                                       linear_delete_mode::tombstone, probe_policy::linear);
  again->restore_state(cpu->save_state({}), {});
  CHECK(linear::copy_slots<linear::wide_slot>(*again) ==
        linear::copy_slots<linear::wide_slot>(*p.gpu));
}

TEST_CASE("64-bit keys: 32-bit calls are refused and groups of threads are not offered",
          "[gpu][linear][wide]") {
  test::require_gpu();
  test::wide_linear_pair p(1u << 10, hash_kind::murmur3, test::group_of(1));
  const std::vector<key_type> k32 = {1, 2, 3};
  CHECK_THROWS_AS(test::erase(*p.gpu, k32), user_error);
  CHECK_THROWS_AS(test::wide_linear_pair::make_gpu(1u << 10, hash_kind::murmur3, test::group_of(4),
                                                   linear_delete_mode::value, probe_policy::linear),
                  user_error);
}

TEST_CASE("64-bit keys: a large batch grouped by region first agrees with the model",
          "[gpu][linear][wide]") {
  test::require_gpu();
  const auto_on_off claims = GENERATE(auto_on_off::automatic, auto_on_off::off);
  CAPTURE(to_string(claims));
  linear_tuning tuning = pair_cas(claims);
  tuning.partition = auto_on_off::on;  // grouped whenever no statuses are asked for
  const std::uint64_t capacity = 1u << 20;
  test::wide_linear_pair p(capacity, hash_kind::murmur3, tuning);
  const auto keys = test::random_wide_keys(static_cast<std::size_t>(capacity * 0.7), 261, 4);
  const auto values = test::random_wide_values(keys.size(), 262);
  auto k = test::to_space(memory_space::device, keys);
  auto v = test::to_space(memory_space::device, values);
  p.gpu->insert(k.cspan(), v.cspan(), {}, {});  // no statuses: the grouped path
  test::insert(p.model, keys, values);
  p.check_same_contents();
  const auto found = test::find(*p.gpu, keys);
  CHECK(found.values == values);
}

TEST_CASE("64-bit keys: a table larger than the GPU's memory is refused before it takes any",
          "[gpu][linear][wide]") {
  test::require_gpu();
  const auto gpu = query_gpu();
  REQUIRE(gpu);
  // The smallest power of two of 16-byte slots past the GPU's whole memory: more than 2^32 slots
  // on any GPU of 64 GiB or more, which only 64-bit keys may have.
  std::uint64_t capacity = 16;
  while (capacity * sizeof(linear::wide_slot) <= gpu->total_bytes) capacity *= 2;
  const std::uint64_t free_before = query_gpu()->free_bytes;
  try {
    test::wide_linear_pair::make_gpu(capacity, hash_kind::murmur3, linear_tuning{},
                                     linear_delete_mode::value, probe_policy::linear);
    FAIL("a table of " << capacity << " 16-byte slots was made");
  } catch (const user_error& e) {
    CAPTURE(e.what());
    CHECK(std::string(e.what()).find("missing") != std::string::npos);
  }
  // Nothing kept: the memory free before is free again (the pool may hold a little).
  CHECK(query_gpu()->free_bytes + (std::uint64_t{64} << 20) >= free_before);
}
