// Workloads are pure functions of their seed: the same on every run and on both backends; unique
// streams are unique and miss keys are never inserted keys.
#include <algorithm>
#include <set>
#include <unordered_set>

#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include "core/common/error.hpp"
#include "core/workload/workload.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;
using namespace hs::workload;

namespace {
template <class K, class V>
struct basic_host_batch {
  std::vector<op_kind> kinds;
  std::vector<K> keys;
  std::vector<V> values;
  bool operator==(const basic_host_batch&) const = default;
};
using host_batch = basic_host_batch<key_type, value_type>;
using wide_host_batch = basic_host_batch<wide_key, wide_value>;
template <class K = key_type, class V = value_type>
basic_host_batch<K, V> make(const workload_spec& spec, const batch_plan& plan, memory_space space) {
  buffer<op_kind> k(space, plan.size);
  buffer<K> keys(space, plan.size);
  buffer<V> v(space, plan.size);
  generate(spec, plan, space, basic_batch_spans<K, V>{k.span(), keys.span(), v.span()}, {});
  return {k.download(), keys.download(), v.download()};
}
// A key list as a key file gives it: distinct keys in file order (odd multiples of 7919).
std::shared_ptr<const key_list> key_list_of(std::size_t n) {
  auto list = std::make_shared<key_list>();
  for (std::size_t i = 0; i < n; ++i)
    list->keys.push_back(static_cast<key_type>(7919 * (2 * i + 1)));
  list->report.keys = n;
  return list;
}
workload_spec spec_for(distribution d) {
  workload_spec s;
  if (d == distribution::file) s.key_file = key_list_of(300000);
  s.keys.dist = d;
  s.keys.seed = 1234;
  s.keys.universe = 5000;
  s.mix = {0.4, 0.3, 0.2, 0.1};
  s.batch_size = 20000;
  return s;
}
}  // namespace

TEST_CASE("the permutation is a bijection of its domain", "[workload]") {
  for (std::uint64_t domain : {1ull, 2ull, 3ull, 1000ull, 4096ull, 70001ull}) {
    std::vector<bool> seen(domain, false);
    for (std::uint32_t x = 0; x < domain; ++x) {
      const std::uint32_t y = permute(99, x, domain);
      REQUIRE(y < domain);
      CHECK_FALSE(seen[y]);
      seen[y] = true;
    }
  }
}

TEST_CASE("the same seed gives the same batches, another seed others", "[workload]") {
  const distribution d =
      GENERATE(distribution::uniform_unique, distribution::uniform_dup, distribution::sequential,
               distribution::clustered, distribution::zipf, distribution::file);
  CAPTURE(to_string(d));
  workload_spec spec = spec_for(d);
  cursor a, b;
  a.next(spec);
  b.next(spec);
  const batch_plan pa = a.next(spec), pb = b.next(spec);
  CHECK(make(spec, pa, memory_space::host) == make(spec, pb, memory_space::host));
  workload_spec other = spec;
  other.keys.seed = 4321;
  if (d != distribution::sequential)
    CHECK_FALSE(make(spec, pa, memory_space::host).keys ==
                make(other, pa, memory_space::host).keys);
  SECTION("keys are never reserved sentinels") {
    for (key_type k : make(spec, pa, memory_space::host).keys) CHECK_FALSE(is_reserved_key(k));
  }
}

TEST_CASE("the GPU generates exactly the host's batches: 32-bit keys, 64-bit keys, folded IDs",
          "[gpu][workload][wide]") {
  test::require_gpu();
  const distribution d =
      GENERATE(distribution::uniform_unique, distribution::uniform_dup, distribution::sequential,
               distribution::clustered, distribution::zipf, distribution::file);
  CAPTURE(to_string(d));
  const workload_spec spec = spec_for(d);
  workload_spec wide = spec, ids = spec;
  wide.keys.start = 0xfffffffffff00000ull;  // sequential 64-bit keys wrap past the reserved ones
  ids.keys.id_bits = 64;                    // 64-bit IDs folded for 32-bit keys
  cursor c;
  for (int i = 0; i < 3; ++i) {
    const batch_plan plan = c.next(spec);
    CHECK(make(spec, plan, memory_space::host) == make(spec, plan, memory_space::device));
    CHECK(make<wide_key, wide_value>(wide, plan, memory_space::host) ==
          make<wide_key, wide_value>(wide, plan, memory_space::device));
    if (d != distribution::file)  // ids=64 draws IDs, a key file gives its own keys
      CHECK(make(ids, plan, memory_space::host) == make(ids, plan, memory_space::device));
  }
}

TEST_CASE(
    "64-bit streams spread over the 64-bit range: unique where they should be, misses never "
    "inserted, no reserved key",
    "[workload][wide]") {
  const distribution d =
      GENERATE(distribution::uniform_unique, distribution::uniform_dup, distribution::sequential,
               distribution::clustered, distribution::zipf);
  CAPTURE(to_string(d));
  workload_spec spec = spec_for(d);
  spec.keys.start = 0xffffffffffff0000ull;  // sequential keys wrap past the reserved ones
  spec.mix = {1, 0, 0, 0};
  spec.batch_size = 200000;
  cursor c;
  const wide_host_batch ins = make<wide_key, wide_value>(spec, c.next(spec), memory_space::host);
  std::unordered_set<wide_key> inserted(ins.keys.begin(), ins.keys.end());
  const bool unique = d != distribution::uniform_dup && d != distribution::zipf;
  if (unique) CHECK(inserted.size() == ins.keys.size());
  std::size_t high = 0, reserved = 0, wide_values = 0;
  for (const wide_key k : ins.keys) {
    high += (k >> 32) != 0;
    reserved += key_limits<wide_key>::reserved_key(k);
  }
  for (const wide_value v : ins.values)
    wide_values += (v >> 32) != 0 && v != key_limits<wide_value>::empty;
  CHECK(reserved == 0);
  CHECK(wide_values > ins.values.size() * 9 / 10);
  if (d != distribution::sequential) CHECK(high > ins.keys.size() * 9 / 10);
  if (d == distribution::sequential) {  // 2^16 - 2 keys up to the reserved ones, then from 0
    CHECK(inserted.count(0xffffffffffff0000ull));
    CHECK(inserted.count(0xfffffffffffffffdull));
    CHECK(inserted.count(0));
    CHECK(inserted.count(200000 - 65534 - 1));
    CHECK_FALSE(inserted.count(200000 - 65534));
  }
  workload_spec misses = spec;
  misses.mix = {0, 0, 1, 0};
  const wide_host_batch m = make<wide_key, wide_value>(misses, c.next(misses), memory_space::host);
  std::size_t collisions = 0;
  for (const wide_key k : m.keys) collisions += inserted.count(k);
  if (unique) CHECK(collisions == 0);
}

TEST_CASE("ids=64 gives a 32-bit table the 64-bit IDs folded, operation for operation",
          "[workload][wide]") {
  workload_spec spec = spec_for(distribution::uniform_unique);
  cursor c;
  c.next(spec);
  const batch_plan plan = c.next(spec);
  const wide_host_batch ids = make<wide_key, wide_value>(spec, plan, memory_space::host);
  spec.keys.id_bits = 64;
  const host_batch folded = make(spec, plan, memory_space::host);
  spec.keys.id_bits = 0;
  const host_batch narrow = make(spec, plan, memory_space::host);
  CHECK(folded.kinds == ids.kinds);
  std::size_t same = 0;
  for (std::size_t i = 0; i < ids.keys.size(); ++i) {
    CHECK(folded.keys[i] == fold_id(ids.keys[i]));
    same += folded.keys[i] == narrow.keys[i];
  }
  CHECK(same < 10);  // IDs, not the 32-bit stream's keys
  CHECK(fold_id(0x00000001fffffffeull) == 0xffffffffu % k_key_domain);  // never a reserved key
}

TEST_CASE("unique streams are unique and misses are never inserted keys", "[workload]") {
  const distribution d = GENERATE(distribution::uniform_unique, distribution::sequential,
                                  distribution::clustered, distribution::file);
  CAPTURE(to_string(d));
  workload_spec spec = spec_for(d);
  spec.mix = {1, 0, 0, 0};
  spec.batch_size = 200000;
  cursor c;
  const host_batch ins = make(spec, c.next(spec), memory_space::host);
  std::unordered_set<key_type> inserted(ins.keys.begin(), ins.keys.end());
  CHECK(inserted.size() == ins.keys.size());
  workload_spec misses = spec;
  misses.mix = {0, 0, 1, 0};
  const host_batch m = make(misses, c.next(misses), memory_space::host);
  std::size_t collisions = 0;
  for (key_type k : m.keys) collisions += inserted.count(k);
  CHECK(collisions == 0);
}

TEST_CASE("hits only name keys inserted and not erased", "[workload]") {
  workload_spec spec = spec_for(distribution::uniform_unique);
  spec.mix = {1, 0, 0, 0};
  cursor c;
  const host_batch first = make(spec, c.next(spec), memory_space::host);
  spec.mix = {0, 1, 0, 1};
  const batch_plan plan = c.next(spec);
  const host_batch mixed = make(spec, plan, memory_space::host);
  std::set<key_type> erased, live(first.keys.begin(), first.keys.end());
  for (std::size_t i = 0; i < mixed.keys.size(); ++i)
    if (mixed.kinds[i] == op_kind::erase) erased.insert(mixed.keys[i]);
  CHECK(erased.size() == plan.erases);
  for (std::size_t i = 0; i < mixed.keys.size(); ++i)
    if (mixed.kinds[i] == op_kind::find) {
      CHECK(live.count(mixed.keys[i]) == 1);
      CHECK(erased.count(mixed.keys[i]) == 0);
    }
}

TEST_CASE("a key file's workload takes its keys in file order, misses from those not taken yet",
          "[workload][keys]") {
  workload_spec spec = spec_for(distribution::file);
  spec.key_file = key_list_of(1000);
  spec.mix = {1, 0, 0, 0};
  spec.batch_size = 600;
  cursor c;
  const batch_plan first = c.next(spec);
  host_batch ins = make(spec, first, memory_space::host);
  for (const op_kind k : ins.kinds) REQUIRE(k == op_kind::insert);
  std::sort(ins.keys.begin(), ins.keys.end());
  std::vector<key_type> expected(spec.key_file->keys.begin(), spec.key_file->keys.begin() + 600);
  std::sort(expected.begin(), expected.end());
  CHECK(ins.keys == expected);  // the file's first 600 keys, each once
  workload_spec look = spec;
  look.mix = {0, 0.5, 0.5, 0};
  const host_batch m = make(look, c.next(look), memory_space::host);
  const std::set<key_type> taken(expected.begin(), expected.end());
  const std::set<key_type> file(spec.key_file->keys.begin(), spec.key_file->keys.end());
  std::size_t hits = 0, misses = 0;
  for (key_type k : m.keys) {
    CHECK(file.count(k) == 1);  // 400 keys are left to miss with: every key is the file's
    (taken.count(k) ? hits : misses)++;
  }
  CHECK(hits == 300);
  CHECK(misses == 300);
  // Past the file's end the keys repeat: an insert batch of 1000 more takes the last 400 and the
  // first 600 again.
  workload_spec more = spec;
  more.batch_size = 1000;
  const host_batch again = make(more, c.next(more), memory_space::host);
  const std::set<key_type> again_keys(again.keys.begin(), again.keys.end());
  CHECK(again_keys == file);
  workload_spec none = spec;
  none.key_file = nullptr;
  CHECK_THROWS_AS(validate(none), user_error);
}
