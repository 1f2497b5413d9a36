// Workloads are pure functions of their seed: the same on every run and on both backends; unique
// streams are unique and miss keys are never inserted keys.
#include <algorithm>
#include <set>
#include <unordered_set>

#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include "core/workload/workload.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;
using namespace hs::workload;

namespace {
struct host_batch {
  std::vector<op_kind> kinds;
  std::vector<key_type> keys;
  std::vector<value_type> values;
  bool operator==(const host_batch&) const = default;
};
host_batch make(const workload_spec& spec, const batch_plan& plan, memory_space space) {
  buffer<op_kind> k(space, plan.size);
  buffer<key_type> keys(space, plan.size);
  buffer<value_type> v(space, plan.size);
  generate(spec, plan, space, {k.span(), keys.span(), v.span()}, {});
  return {k.download(), keys.download(), v.download()};
}
workload_spec spec_for(distribution d) {
  workload_spec s;
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
               distribution::clustered, distribution::zipf);
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

TEST_CASE("the GPU generates exactly the host's batches", "[gpu][workload]") {
  test::require_gpu();
  const distribution d =
      GENERATE(distribution::uniform_unique, distribution::uniform_dup, distribution::sequential,
               distribution::clustered, distribution::zipf);
  CAPTURE(to_string(d));
  workload_spec spec = spec_for(d);
  cursor c;
  for (int i = 0; i < 3; ++i) {
    const batch_plan plan = c.next(spec);
    CHECK(make(spec, plan, memory_space::host) == make(spec, plan, memory_space::device));
  }
}

TEST_CASE("unique streams are unique and misses are never inserted keys", "[workload]") {
  const distribution d =
      GENERATE(distribution::uniform_unique, distribution::sequential, distribution::clustered);
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
