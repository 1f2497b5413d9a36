// [gpu] Guarded inserts from several streams at once: a table at load 0.9 filled past full from 8
// streams stores every key that has a slot, refuses exactly the excess, and never refuses an
// insert while a slot is free (linear_table::prepare_inserts says why); each region's reach is
// then exact, and every key lies within it (linear_ref.cuh says why).
#include <algorithm>
#include <numeric>

#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include "core/linear/linear_invariants.hpp"
#include "core/linear/linear_slots.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;

TEST_CASE("8 streams fill a table from 0.9 past full: exactly the excess fails", "[gpu][linear]") {
  test::require_gpu();
  const auto deletes = GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  CAPTURE(static_cast<int>(deletes));
  // As many keys again as there are free slots: most batches are guarded, some beside unguarded
  // ones.
  const std::uint64_t capacity = 1u << 20, base = capacity * 9 / 10, excess = capacity - base;
  const int streams = 8;
  auto t = test::make(backend::gpu, capacity, hash_kind::murmur3, {}, deletes);
  const auto keys = test::random_keys(capacity + excess, 4242);
  const auto values = test::random_values(keys.size(), 4243);
  test::insert(*t, std::vector<key_type>(keys.begin(), keys.begin() + base),
               std::vector<value_type>(values.begin(), values.begin() + base));
  REQUIRE(t->stats({}).live == base);

  // The rest in 8 parts, each in 4 batches, launched round-robin without waiting.
  const std::uint64_t rest = keys.size() - base, part = (rest + streams - 1) / streams;
  std::vector<owned_stream> ss;
  std::vector<buffer<key_type>> kb;
  std::vector<buffer<value_type>> vb;
  std::vector<buffer<op_status>> sb;
  for (int i = 0; i < streams; ++i) {
    const std::uint64_t lo = base + i * part, hi = std::min<std::uint64_t>(keys.size(), lo + part);
    ss.emplace_back(true);
    kb.push_back(test::to_space(memory_space::device,
                                std::vector<key_type>(keys.begin() + lo, keys.begin() + hi)));
    vb.push_back(test::to_space(memory_space::device,
                                std::vector<value_type>(values.begin() + lo, values.begin() + hi)));
    sb.emplace_back(memory_space::device, hi - lo);
  }
  synchronize(
      {});  // the uploads ran on the default stream; the inserts' streams do not wait for it
  for (int round = 0; round < 4; ++round)
    for (int i = 0; i < streams; ++i) {
      const std::size_t n = kb[i].size(), lo = n * round / 4, hi = n * (round + 1) / 4;
      t->insert(kb[i].cspan().subspan(lo, hi - lo), vb[i].cspan().subspan(lo, hi - lo),
                sb[i].span().subspan(lo, hi - lo), ss[i].view());
    }
  std::uint64_t inserted = 0, failed = 0;
  for (int i = 0; i < streams; ++i) {
    synchronize(ss[i].view());
    for (op_status st : sb[i].download())
      inserted += st == op_status::inserted, failed += st == op_status::failed_full;
  }
  CHECK(inserted + failed == rest);
  CHECK(failed == excess);  // none refused while a slot was free
  const table_stats st = t->stats({});
  CHECK(st.occupied == capacity);
  CHECK(st.live == base + inserted);
  CHECK(st.failed_full == excess);
  // Every key within its region's reach (where refusals and the misses below stop).
  const auto inv = linear::check_invariants(linear::copy_slots(*t), hash_kind::murmur3, &st,
                                            deletes, probe_policy::linear, linear::copy_reach(*t));
  INFO(inv.describe());
  CHECK(inv.ok());
  // And each region's reach is exact: no key was erased or moved, so it is the longest
  // displacement of the keys homed there (those past k_reach_near, which are recorded).
  const auto slots = linear::copy_slots(*t);
  std::vector<std::uint32_t> exact(linear::reach_regions(capacity), 0);
  for (std::uint32_t s = 0; s < capacity; ++s) {
    const std::uint32_t home =
        linear::home_slot<murmur3_hash>(linear::slot_key(slots[s]), capacity - 1);
    const std::uint32_t d = linear::displacement(s, home, capacity - 1);
    auto& word = exact[home >> linear::k_reach_region_log2];
    if (d > linear::k_reach_near && d > word) word = d;
  }
  const auto reach = linear::copy_reach(*t);
  CHECK(reach == exact);
  // Far less than the longest probe, which a full table drives to about its capacity.
  const double mean = std::accumulate(reach.begin(), reach.end(), 0.0) / double(reach.size());
  CAPTURE(mean, st.max_displacement);
  CHECK(mean * 4 < st.max_displacement);
  const auto found = test::find(*t, keys);
  CHECK(static_cast<std::uint64_t>(
            std::count(found.status.begin(), found.status.end(), op_status::found)) == capacity);
}
