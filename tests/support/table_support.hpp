// Helpers that run bulk operations on any table from host vectors, and compare tables. The batch
// helpers take keys and values of either width (a table refuses the other one).
#pragma once
#include <algorithm>
#include <utility>
#include <vector>

#include "core/table/table.hpp"
#include "core/workload/workload.hpp"
#include "tests/support/gpu_support.hpp"

namespace hs::test {

template <class V = value_type>
struct bulk_out {
  std::vector<V> values;
  std::vector<op_status> status;
};

template <class K = key_type, class V = value_type>
std::vector<op_status> insert(table& t, const std::vector<K>& keys, const std::vector<V>& values) {
  auto k = to_space(t.space(), keys);
  auto v = to_space(t.space(), values);
  buffer<op_status> st(t.space(), keys.size());
  t.insert(k.cspan(), v.cspan(), st.span(), {});
  return st.download();
}

template <class K = key_type, class V = std::conditional_t<sizeof(K) == 8, wide_value, value_type>>
bulk_out<V> find(table& t, const std::vector<K>& keys) {
  auto k = to_space(t.space(), keys);
  buffer<V> v(t.space(), keys.size());
  buffer<op_status> st(t.space(), keys.size());
  t.find(k.cspan(), v.span(), st.span(), {});
  return {v.download(), st.download()};
}

template <class K = key_type>
std::vector<op_status> erase(table& t, const std::vector<K>& keys) {
  auto k = to_space(t.space(), keys);
  buffer<op_status> st(t.space(), keys.size());
  t.erase(k.cspan(), st.span(), {});
  return st.download();
}

template <class K = key_type, class V = value_type>
bulk_out<V> apply(table& t, const std::vector<op_kind>& kinds, const std::vector<K>& keys,
                  const std::vector<V>& values) {
  auto kd = to_space(t.space(), kinds);
  auto k = to_space(t.space(), keys);
  auto v = to_space(t.space(), values);
  buffer<V> res(t.space(), keys.size());
  buffer<op_status> st(t.space(), keys.size());
  t.apply(basic_op_batch<K, V>{kd.cspan(), k.cspan(), v.cspan()}, res.span(), st.span(), {});
  return {res.download(), st.download()};
}

/// All live pairs of a table of K keys and V values, sorted by key.
template <class K = key_type, class V = value_type>
std::vector<std::pair<K, V>> contents(table& t) {
  const table_stats st = t.stats({});
  buffer<K> k(t.space(), st.live);
  buffer<V> v(t.space(), st.live);
  const std::uint64_t n = t.retrieve_all(k.span(), v.span(), {});
  const auto hk = k.download(), hv = v.download();
  std::vector<std::pair<K, V>> out;
  out.reserve(n);
  for (std::uint64_t i = 0; i < n && i < hk.size(); ++i) out.emplace_back(hk[i], hv[i]);
  std::sort(out.begin(), out.end());
  return out;
}
/// The same for a table of 64-bit keys and values.
inline std::vector<std::pair<wide_key, wide_value>> wide_contents(table& t) {
  return contents<wide_key, wide_value>(t);
}

/// Distinct random keys (never sentinels) and random values, from a seed.
std::vector<key_type> random_keys(std::size_t n, std::uint64_t seed);
std::vector<value_type> random_values(std::size_t n, std::uint64_t seed);
/// Distinct random 64-bit keys in groups of `spread` that differ only in their high 32 bits
/// (key i: random 32-bit low half of i / spread, high half i % spread + 1 times a mix), and
/// random 64-bit values, from a seed.
std::vector<wide_key> random_wide_keys(std::size_t n, std::uint64_t seed, unsigned spread = 4);
std::vector<wide_value> random_wide_values(std::size_t n, std::uint64_t seed);

/// A table of the family on the backend, with a capacity and hash.
std::unique_ptr<table> make(backend b, std::uint64_t capacity, hash_kind h = hash_kind::murmur3,
                            linear_tuning tuning = {},
                            linear_delete_mode deletes = linear_delete_mode::value,
                            key_width width = key_width::bits32);
/// Tuning with a fixed probe-group size.
inline linear_tuning group_of(int g) {
  linear_tuning t;
  t.group = g;
  return t;
}

}  // namespace hs::test
