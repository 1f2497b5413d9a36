// What the sharded tables' tests share: the table configurations they run (every family, each
// linear variant, both widths), random mixed batches, and running one batch on a table.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "core/common/device.hpp"
#include "core/shard/sharded_view.hpp"
#include "core/table/family_option.hpp"
#include "core/table/family_registry.hpp"
#include "core/table/table.hpp"
#include "tests/support/table_support.hpp"

namespace hs::test {

/// A config of `family` on `b` with the options of "probe=double delete=tombstone" and `width`.
inline table_config shard_config(std::string_view family, backend b, std::uint64_t capacity,
                                 std::vector<std::pair<std::string, std::string>> options = {},
                                 key_width width = key_width::bits32) {
  table_config cfg;
  set_family(cfg, *parse_family(family));
  cfg.backend = b;
  cfg.capacity = capacity;
  for (const auto& [name, value] : options)
    apply_option(*find_option(describe(cfg.family).options, name), cfg, value);
  set_key_width(cfg, width);
  return cfg;
}

/// Every family and linear variant the sharded tests cover, on `b` at `capacity` in all.
inline std::vector<table_config> shard_variants(backend b, std::uint64_t capacity) {
  return {shard_config("linear", b, capacity),
          shard_config("linear", b, capacity, {{"probe", "double"}, {"delete", "tombstone"}}),
          shard_config("linear", b, capacity, {{"delete", "tombstone"}}, key_width::bits64),
          shard_config("linear", b, capacity, {{"probe", "double"}}, key_width::bits64),
          shard_config("slab", b, capacity),
          shard_config("hive", b, capacity)};
}

/// A mixed batch of n operations over a pool of keys (a key repeats; 1 in 200 is reserved).
template <class K>
struct mixed_batch {
  std::vector<op_kind> kinds;
  std::vector<K> keys;
  std::vector<K> values;
};

/// `distinct`: no key twice in the batch (a GPU batch runs its operations in no defined order, so
/// the model's order decides a repeated key's statuses only on simulated devices).
template <class K>
mixed_batch<K> random_mix(const std::vector<K>& pool, std::size_t n, std::uint64_t seed,
                          bool distinct = false) {
  mixed_batch<K> b;
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  const auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = next();
    b.kinds.push_back(static_cast<op_kind>(r % 10 < 5 ? 0 : r % 10 < 8 ? 1 : 2));
    const K key = distinct ? pool[(seed * 977 + i) % pool.size()] : pool[(r >> 8) % pool.size()];
    b.keys.push_back(r % 200 == 7 && !distinct ? key_limits<K>::empty : key);
    b.values.push_back(static_cast<K>((r >> 20) % 1000000 + 1));
  }
  return b;
}

template <class K>
std::vector<K> key_pool(std::size_t n, std::uint64_t seed) {
  if constexpr (sizeof(K) == 8)
    return random_wide_keys(n, seed);
  else
    return random_keys(n, seed);
}

/// Every key of every shard sits on the device the map names.
template <class K>
void check_owners(table& sharded) {
  sharded_view& v = *as_sharded(sharded);
  for (std::uint32_t d = 0; d < v.devices(); ++d) {
    // A GPU shard is read with its GPU current, as every call on a shard must be.
    std::optional<device_scope> on;
    if (sharded.config().backend == backend::gpu) on.emplace(static_cast<int>(d));
    for (const auto& [key, value] : contents<K, K>(v.shard(d))) {
      INFO("device " << d << " key " << key);
      REQUIRE(owner_of(v.map(), key) == d);
    }
  }
}

/// Runs mixed batches on `sharded` (a table of cfg) and on one CPU model of the whole capacity:
/// the same statuses and found values every batch, then the same finds, erases, counts and
/// contents, and every key on its owner.
template <class K>
void answer_as_model(table& sharded, const table_config& cfg, std::uint64_t seed, bool distinct) {
  table_config model_cfg = cfg;
  model_cfg.backend = backend::cpu;
  model_cfg.devices = 1;
  auto model = make_table(model_cfg);
  if (describe(cfg.family).pow2_capacity) REQUIRE(sharded.capacity() == model->capacity());
  const std::vector<K> pool = key_pool<K>(3000, seed);
  for (int round = 0; round < 6; ++round) {
    const auto b = random_mix<K>(pool, 2000, seed * 31 + round, distinct);
    const auto want = apply<K, K>(*model, b.kinds, b.keys, b.values);
    const auto got = apply<K, K>(sharded, b.kinds, b.keys, b.values);
    INFO("round " << round);
    REQUIRE(got.status == want.status);
    REQUIRE(got.values == want.values);
  }
  const std::vector<K> some(pool.begin(), pool.begin() + 500);
  CHECK(find<K>(sharded, some).status == find<K>(*model, some).status);
  CHECK(erase<K>(sharded, some) == erase<K>(*model, some));
  const table_stats a = sharded.stats({}), m = model->stats({});
  CHECK(a.live == m.live);
  CHECK(a.rejected_total() == m.rejected_total());
  CHECK(a.live > 500);  // the comparison ran on a table with keys in it
  CHECK(contents<K, K>(sharded) == contents<K, K>(*model));
  check_owners<K>(sharded);
}

/// Whether element i of a batch of every rank's keys is rank `rank`'s (of `ranks`): element i
/// belongs to rank (i mod (ranks+1)) mod ranks, so that rank 0 holds twice the keys of the others
/// and the ranks run different numbers of chunks.
inline bool rank_owns(std::size_t i, std::uint32_t rank, std::uint32_t ranks) {
  return (i % (ranks + 1)) % ranks == rank;
}

/// Rank `rank`'s share of a batch of every rank's elements (rank_owns).
template <class T>
std::vector<T> share_of(const std::vector<T>& all, std::uint32_t rank, std::uint32_t ranks) {
  std::vector<T> out;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (rank_owns(i, rank, ranks)) out.push_back(all[i]);
  return out;
}

/// answer_as_model on a table of cfg over `devices` devices (on cfg's backend); `chunk_keys` cuts
/// each batch into pipelined chunks.
template <class K>
void compare_with_model(table_config cfg, std::uint32_t devices, std::uint64_t seed, bool distinct,
                        std::uint64_t chunk_keys) {
  cfg.devices = devices;
  auto sharded = make_table(cfg);
  REQUIRE(as_sharded(*sharded));
  as_sharded(*sharded)->set_chunk_keys(chunk_keys);  // batches of 2000 run in several chunks
  answer_as_model<K>(*sharded, cfg, seed, distinct);
}

}  // namespace hs::test
