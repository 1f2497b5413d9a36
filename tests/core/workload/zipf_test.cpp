// The Zipf sampler: ranks in range, popularity following the power law.
#include <cmath>
#include <vector>

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include "core/workload/key_stream.hpp"

using namespace hs::workload;

TEST_CASE("zipf ranks follow the power law", "[workload]") {
  const std::uint64_t n = 1000;
  const double s = 1.2;
  const zipf_sampler z(s, n);
  std::vector<std::uint64_t> counts(n, 0);
  const std::uint64_t draws = 400000;
  for (std::uint64_t i = 0; i < draws; ++i) {
    const std::uint64_t r = z.sample(5, i);
    REQUIRE(r < n);
    ++counts[r];
  }
  double norm = 0;
  for (std::uint64_t k = 1; k <= n; ++k) norm += std::pow(double(k), -s);
  for (std::uint64_t k : {1ull, 2ull, 5ull, 20ull}) {
    const double expected = std::pow(double(k), -s) / norm;
    CHECK(double(counts[k - 1]) / draws == Catch::Approx(expected).epsilon(0.05));
  }
}

TEST_CASE("zipf with an exponent near one stays accurate", "[workload]") {
  const zipf_sampler z(1.0, 100);
  std::uint64_t first = 0;
  for (std::uint64_t i = 0; i < 100000; ++i) first += z.sample(9, i) == 0;
  double h = 0;
  for (int k = 1; k <= 100; ++k) h += 1.0 / k;
  CHECK(double(first) / 100000 == Catch::Approx(1.0 / h).epsilon(0.05));
}
