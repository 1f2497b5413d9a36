// Bulk helpers over host vectors for any backend: copy in, run, copy out.
#include "tests/support/table_support.hpp"

#include <algorithm>

#include "tests/support/gpu_support.hpp"

namespace hs::test {

std::vector<op_status> insert(table& t, const std::vector<key_type>& keys,
                              const std::vector<value_type>& values) {
  auto k = to_space(t.space(), keys);
  auto v = to_space(t.space(), values);
  buffer<op_status> st(t.space(), keys.size());
  t.insert(k.cspan(), v.cspan(), st.span(), {});
  return st.download();
}

bulk_out find(table& t, const std::vector<key_type>& keys) {
  auto k = to_space(t.space(), keys);
  buffer<value_type> v(t.space(), keys.size());
  buffer<op_status> st(t.space(), keys.size());
  t.find(k.cspan(), v.span(), st.span(), {});
  return {v.download(), st.download()};
}

std::vector<op_status> erase(table& t, const std::vector<key_type>& keys) {
  auto k = to_space(t.space(), keys);
  buffer<op_status> st(t.space(), keys.size());
  t.erase(k.cspan(), st.span(), {});
  return st.download();
}

bulk_out apply(table& t, const std::vector<op_kind>& kinds, const std::vector<key_type>& keys,
               const std::vector<value_type>& values) {
  auto kd = to_space(t.space(), kinds);
  auto k = to_space(t.space(), keys);
  auto v = to_space(t.space(), values);
  buffer<value_type> res(t.space(), keys.size());
  buffer<op_status> st(t.space(), keys.size());
  t.apply({kd.cspan(), k.cspan(), v.cspan()}, res.span(), st.span(), {});
  return {res.download(), st.download()};
}

std::vector<std::pair<key_type, value_type>> contents(table& t) {
  const table_stats st = t.stats({});
  buffer<key_type> k(t.space(), st.live);
  buffer<value_type> v(t.space(), st.live);
  const std::uint64_t n = t.retrieve_all(k.span(), v.span(), {});
  const auto hk = k.download(), hv = v.download();
  std::vector<std::pair<key_type, value_type>> out;
  out.reserve(n);
  for (std::uint64_t i = 0; i < n && i < hk.size(); ++i) out.emplace_back(hk[i], hv[i]);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<key_type> random_keys(std::size_t n, std::uint64_t seed) {
  std::vector<key_type> keys(n);
  for (std::size_t i = 0; i < n; ++i)
    keys[i] = workload::permute(seed, static_cast<std::uint32_t>(i), k_key_domain);
  return keys;
}

std::vector<value_type> random_values(std::size_t n, std::uint64_t seed) {
  std::vector<value_type> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = workload::random_u32(seed, 99, i) & 0x7fffffffu;
  return values;
}

std::unique_ptr<table> make(backend b, std::uint64_t capacity, hash_kind h, linear_tuning tuning,
                            linear_delete_mode deletes) {
  table_config cfg;
  cfg.backend = b;
  cfg.capacity = capacity;
  cfg.hash = h;
  cfg.linear.tuning = tuning;
  cfg.linear.deletes = deletes;
  return make_table(cfg);
}

}  // namespace hs::test
