// Helpers for hive tests: configs, invariant checks with stats, keys that share their candidate
// buckets, and a GPU table paired with the CPU model.
#pragma once
#include <set>
#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "core/hive/hive_family.hpp"
#include "core/hive/hive_invariants.hpp"
#include "tests/support/table_support.hpp"

namespace hs::test {

inline table_config hive_config(backend b, std::uint64_t capacity, int slots = 16, int tile = 0,
                                std::string hashes = {}, int depth = 16,
                                double stash_fraction = 0.015) {
  table_config c;
  c.family = family::hive;
  c.backend = b;
  c.capacity = capacity;
  c.hive.bucket_slots = slots;
  c.hive.tile = tile;
  c.hive.hashes = std::move(hashes);
  c.hive.eviction_depth = depth;
  c.hive.stash_fraction = stash_fraction;
  return c;
}

inline hive::hive_family& hive_of(table& t) { return *hive::as_hive(t); }

inline hive::invariant_report hive_check(table& t) {
  const table_stats st = t.stats({});
  return hive::check_invariants(hive_of(t).snapshot({}), &st);
}

/// @brief Each key of `distinct` `copies` times, copy after copy; copy c of key i carries value
/// i * copies + c (so value / copies tells a stored value's key).
struct repeated_batch {
  std::vector<key_type> keys;
  std::vector<value_type> values;
};
inline repeated_batch repeated_keys(const std::vector<key_type>& distinct, int copies) {
  repeated_batch b;
  for (int copy = 0; copy < copies; ++copy)
    for (std::size_t i = 0; i < distinct.size(); ++i) {
      b.keys.push_back(distinct[i]);
      b.values.push_back(static_cast<value_type>(i * copies + copy));
    }
  return b;
}

/// @brief A GPU hive table and the CPU model made from the same config.
struct hive_pair {
  std::unique_ptr<table> gpu, model;
  explicit hive_pair(const table_config& gpu_cfg) {
    gpu = make_table(gpu_cfg);
    table_config m = gpu_cfg;
    m.backend = backend::cpu;
    model = make_table(m);
  }
  /// The GPU table's invariants hold and both tables hold the same pairs.
  void check() {
    const auto r = hive_check(*gpu);
    INFO(r.describe());
    CHECK(r.ok());
    const auto g = contents(*gpu), m = contents(*model);
    CHECK(g.size() == m.size());
    CHECK(g == m);
  }
};

/// `n` distinct keys whose candidate buckets are exactly {x, y} (in either order) under the
/// table's geometry: an adversarial pile-up on one bucket pair.
inline std::vector<key_type> keys_on_pair(const hive::hive_image& img, std::size_t n,
                                          std::uint64_t seed) {
  std::vector<key_type> out;
  hive::candidates want{};
  for (key_type k = static_cast<key_type>(seed * 2654435761u) & 0x7fffffffu; out.size() < n; ++k) {
    const auto c = img.candidates_of(k);
    if (c.b[0] == c.b[1]) continue;
    if (out.empty()) {
      want = c;
      out.push_back(k);
      continue;
    }
    const bool same = (c.b[0] == want.b[0] && c.b[1] == want.b[1]) ||
                      (c.b[0] == want.b[1] && c.b[1] == want.b[0]);
    if (same) out.push_back(k);
  }
  return out;
}

}  // namespace hs::test
