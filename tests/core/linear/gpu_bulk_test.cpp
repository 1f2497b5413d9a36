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
  CAPTURE(group, to_string(hash), load);
  const std::uint64_t capacity = 1u << 18;
  test::linear_pair p(capacity, hash, group);
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
    std::vector<key_type> back(gone.begin(), gone.begin() + static_cast<std::ptrdiff_t>(gone.size() / 2));
    const auto vals = test::random_values(back.size(), 7);
    CHECK(test::insert(*p.gpu, back, vals) == test::insert(p.model, back, vals));
    p.check_same_contents();
  }
}
