// [gpu] Bulk insert, find and erase against the CPU model, across hashes and probe-group sizes,
// at moderate and high load.
#include <catch2/generators/catch_generators.hpp>

#include "tests/core/linear/gpu_support_linear.hpp"

using namespace hs;

TEST_CASE("bulk operations agree with the model", "[gpu][linear]") {
  test::require_gpu();
  const int group = GENERATE(1, 4, 8);
  const hash_kind hash = GENERATE(hash_kind::murmur3, hash_kind::knuth);
  const double load = GENERATE(0.5, 0.93);
  // Forced execution choices: a blind CAS on the home slot first, inserts grouped by region.
  const auto_on_off cas_first = GENERATE(auto_on_off::on, auto_on_off::off);
  const auto_on_off partition = GENERATE(auto_on_off::on, auto_on_off::off);
  CAPTURE(group, to_string(hash), load, to_string(cas_first), to_string(partition));
  const std::uint64_t capacity = 1u << 18;
  linear_tuning tuning{group, cas_first, partition};
  test::linear_pair p(capacity, hash, tuning);
  const auto n = static_cast<std::size_t>(load * capacity);
  const auto keys = test::random_keys(n, 100 + group);
  const auto values = test::random_values(n, 200 + group);

  const auto gst = test::insert(*p.gpu, keys, values);
  const auto mst = test::insert(p.model, keys, values);
  CHECK(gst == mst);
  p.check_same_contents();

  SECTION("finds return the stored values and misses return empty") {
    auto probes = keys;
    const auto absent = test::random_keys(n + 5000, 100 + group);  // the same permutation, longer
    probes.insert(probes.end(), absent.begin() + static_cast<std::ptrdiff_t>(n), absent.end());
    const auto g = test::find(*p.gpu, probes);
    const auto m = test::find(p.model, probes);
    CHECK(g.status == m.status);
    CHECK(g.values == m.values);
  }
  SECTION("erasing every third key and re-inserting some") {
    std::vector<key_type> gone;
    for (std::size_t i = 0; i < n; i += 3) gone.push_back(keys[i]);
    CHECK(test::erase(*p.gpu, gone) == test::erase(p.model, gone));
    p.check_same_contents();
    std::vector<key_type> back(gone.begin(),
                               gone.begin() + static_cast<std::ptrdiff_t>(gone.size() / 2));
    const auto vals = test::random_values(back.size(), 7);
    CHECK(test::insert(*p.gpu, back, vals) == test::insert(p.model, back, vals));
    p.check_same_contents();
  }
}

TEST_CASE("large batches with and without statuses agree with the model", "[gpu][linear]") {
  test::require_gpu();
  // Millions of pairs: without statuses they are grouped by region first (8 regions here); with
  // statuses they go in batch order and cross the automatic CAS-first limit (load 0.2) partway.
  const std::uint64_t capacity = 1u << 24;
  test::linear_pair p(capacity, hash_kind::murmur3, linear_tuning{});
  const auto keys = test::random_keys(static_cast<std::size_t>(capacity * 0.9), 61);
  const auto values = test::random_values(keys.size(), 62);
  const std::size_t half = keys.size() / 2;
  const std::vector<key_type> k1(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(half));
  const std::vector<value_type> v1(values.begin(),
                                   values.begin() + static_cast<std::ptrdiff_t>(half));
  auto dk = test::to_space(memory_space::device, k1);
  auto dv = test::to_space(memory_space::device, v1);
  p.gpu->insert(dk.cspan(), dv.cspan(), {}, {});
  test::insert(p.model, k1, v1);
  const std::vector<key_type> k2(keys.begin() + static_cast<std::ptrdiff_t>(half), keys.end());
  const std::vector<value_type> v2(values.begin() + static_cast<std::ptrdiff_t>(half),
                                   values.end());
  CHECK(test::insert(*p.gpu, k2, v2) == test::insert(p.model, k2, v2));
  p.check_same_contents();
}
