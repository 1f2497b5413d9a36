// Bulk helpers over host vectors for any backend: copy in, run, copy out.
#include "tests/support/table_support.hpp"

#include <algorithm>

#include "tests/support/gpu_support.hpp"

namespace hs::test {

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

std::vector<wide_key> random_wide_keys(std::size_t n, std::uint64_t seed, unsigned spread) {
  std::vector<wide_key> keys(n);
  const auto low = random_keys((n + spread - 1) / spread, seed);
  for (std::size_t i = 0; i < n; ++i) {
    // The high halves of one group differ (1..spread times an odd constant): never the
    // all-ones of a sentinel.
    const std::uint64_t high = (i % spread + 1) * 0x9e3779b1ull & 0x7fffffffull;
    keys[i] = high << 32 | low[i / spread];
  }
  return keys;
}

std::vector<wide_value> random_wide_values(std::size_t n, std::uint64_t seed) {
  std::vector<wide_value> values(n);
  for (std::size_t i = 0; i < n; ++i)
    values[i] =
        std::uint64_t{workload::random_u32(seed, 98, i)} << 32 | workload::random_u32(seed, 99, i);
  for (auto& v : values)
    if (key_limits<wide_value>::reserved_value(v)) v = 1;
  return values;
}

std::unique_ptr<table> make(backend b, std::uint64_t capacity, hash_kind h, linear_tuning tuning,
                            linear_delete_mode deletes, key_width width) {
  table_config cfg;
  cfg.width = width;
  cfg.backend = b;
  cfg.capacity = capacity;
  cfg.hash = h;
  cfg.linear.tuning = tuning;
  cfg.linear.deletes = deletes;
  return make_table(cfg);
}

}  // namespace hs::test
