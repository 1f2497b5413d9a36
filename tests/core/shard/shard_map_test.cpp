// The map of owners: an even spread, regrouping that moves the fewest virtual shards, and the two
// owner rules (independent bits spread every shard's keys over its slots; the table's own low
// bits give each shard keys that share them).
#include <set>

#include <catch2/catch_test_macros.hpp>

#include "core/shard/shard_map.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;

namespace {
std::uint32_t moved(const shard_map& a, const shard_map& b) {
  std::uint32_t n = 0;
  for (std::uint32_t v = 0; v < k_virtual_shards; ++v) n += a.device_of[v] != b.device_of[v];
  return n;
}
}  // namespace

TEST_CASE("shard map: regrouping moves whole virtual shards, the fewest", "[shard]") {
  const shard_map two = shard_map::spread(owner_bits::independent, hash_kind::murmur3, 2);
  CHECK(two.shares() == std::vector<std::uint32_t>{128, 128});
  const shard_map four = two.regrouped(4);
  CHECK(four.shares() == std::vector<std::uint32_t>{64, 64, 64, 64});
  CHECK(moved(two, four) == 128);  // half the table, as from 2 to 4 devices must
  const shard_map back = four.regrouped(2);
  CHECK(back.shares() == std::vector<std::uint32_t>{128, 128});
  CHECK(moved(four, back) == 128);
  const shard_map three = four.regrouped(3);
  CHECK(three.shares() == std::vector<std::uint32_t>{86, 85, 85});
  CHECK(moved(four, three) == 64);  // device 3's shards, and nothing else
  for (std::uint32_t v = 0; v < k_virtual_shards; ++v)
    if (four.device_of[v] < 3) CHECK(three.device_of[v] == four.device_of[v]);
}

TEST_CASE("shard map: independent owners spread, low-bits owners share their low bits", "[shard]") {
  const auto keys = test::random_keys(20000, 3);
  const shard_map indep = shard_map::spread(owner_bits::independent, hash_kind::murmur3, 4);
  const shard_map low = shard_map::spread(owner_bits::low_bits, hash_kind::murmur3, 4);
  std::vector<std::set<std::uint32_t>> indep_low(4), low_low(4);
  std::vector<std::uint32_t> per_device(4, 0);
  for (const key_type k : keys) {
    const std::uint32_t h = murmur3_hash{}(k) & 3u;  // the slot bits a shard's table uses first
    indep_low[owner_of(indep, k)].insert(h);
    low_low[owner_of(low, k)].insert(h);
    ++per_device[owner_of(indep, k)];
  }
  for (std::uint32_t d = 0; d < 4; ++d) {
    CHECK(indep_low[d].size() == 4);  // every residue on every device
    CHECK(low_low[d] == std::set<std::uint32_t>{d});
    CHECK(per_device[d] > 4500);
    CHECK(per_device[d] < 5500);
  }
}
