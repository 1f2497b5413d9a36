// Helpers for slab tests: configs, host-vector wrappers for the slab-only operations, and a GPU
// table paired with the CPU model.
#pragma once
#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include "core/slab/slab_family.hpp"
#include "core/slab/slab_invariants.hpp"
#include "core/slab/slab_model.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/table_support.hpp"

namespace hs::test {

inline table_config slab_config(backend b, std::uint64_t buckets,
                                slab_mode mode = slab_mode::unique,
                                hash_kind h = hash_kind::universal, int tile = 0,
                                std::uint64_t pool_slabs = 0, std::uint64_t pool_limit = 0) {
  table_config c;
  c.family = family::slab;
  c.backend = b;
  c.hash = h;
  c.slab.mode = mode;
  c.slab.buckets = buckets;
  c.slab.tile = tile;
  c.slab.pool_slabs = pool_slabs;
  c.slab.pool_limit = pool_limit;
  return c;
}

inline slab::slab_family& slab_of(table& t) { return *slab::as_slab(t); }

inline std::vector<std::uint32_t> slab_count(table& t, const std::vector<key_type>& keys) {
  auto k = to_space(t.space(), keys);
  buffer<std::uint32_t> c(t.space(), keys.size());
  slab_of(t).count(k.cspan(), c.span(), {});
  return c.download(keys.size(), {});
}

inline std::vector<std::uint32_t> slab_erase_all(table& t, const std::vector<key_type>& keys) {
  auto k = to_space(t.space(), keys);
  buffer<std::uint32_t> c(t.space(), keys.size());
  slab_of(t).erase_all(k.cspan(), c.span(), {});
  return c.download(keys.size(), {});
}

/// Every key's values (sorted) as the table's lists hold them.
inline std::map<key_type, std::vector<value_type>> slab_multiset(table& t) {
  const slab::slab_image img = slab_of(t).snapshot({});
  std::map<key_type, std::vector<value_type>> m;
  for (std::uint32_t b = 0; b < img.buckets; ++b)
    slab::walk_chain(img, b, [&](const std::uint32_t* w, std::uint32_t, std::uint64_t) {
      for (int p = 0; p < slab::k_slab_pairs; ++p)
        if (slab::is_live_key(w[2 * p])) m[w[2 * p]].push_back(w[2 * p + 1]);
      return true;
    });
  for (auto& [k, v] : m) std::sort(v.begin(), v.end());
  return m;
}

/// Checks a table's invariants against its own stats.
inline slab::invariant_report slab_check(table& t, bool flushed = false) {
  const table_stats st = t.stats({});
  slab::invariant_options o;
  o.stats = &st;
  o.flushed = flushed;
  return slab::check_invariants(slab_of(t).snapshot({}), o);
}

}  // namespace hs::test
