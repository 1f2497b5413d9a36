// Helpers that run bulk operations on any table from host vectors, and compare tables.
#pragma once
#include <utility>
#include <vector>

#include "core/table/table.hpp"
#include "core/workload/workload.hpp"

namespace hs::test {

struct bulk_out {
  std::vector<value_type> values;
  std::vector<op_status> status;
};

std::vector<op_status> insert(table& t, const std::vector<key_type>& keys,
                              const std::vector<value_type>& values);
bulk_out find(table& t, const std::vector<key_type>& keys);
std::vector<op_status> erase(table& t, const std::vector<key_type>& keys);
bulk_out apply(table& t, const std::vector<op_kind>& kinds, const std::vector<key_type>& keys,
               const std::vector<value_type>& values);

/// All live pairs of a table, sorted by key.
std::vector<std::pair<key_type, value_type>> contents(table& t);

/// Distinct random keys (never sentinels) and random values, from a seed.
std::vector<key_type> random_keys(std::size_t n, std::uint64_t seed);
std::vector<value_type> random_values(std::size_t n, std::uint64_t seed);

/// A table of the family on the backend, with a capacity and hash.
std::unique_ptr<table> make(backend b, std::uint64_t capacity, hash_kind h = hash_kind::murmur3,
                            linear_tuning tuning = {},
                            linear_delete_mode deletes = linear_delete_mode::value);
/// Tuning with a fixed probe-group size.
inline linear_tuning group_of(int g) {
  linear_tuning t;
  t.group = g;
  return t;
}

}  // namespace hs::test
