// Probe-length histogram math: binning, percentiles and the displayed bars.
#include <catch2/catch_test_macros.hpp>

#include "core/common/probe_histogram.hpp"

using namespace hs;

TEST_CASE("displacements below 4096 get exact bins, larger ones power-of-two bins", "[histogram]") {
  CHECK(probe_bin(0) == 0);
  CHECK(probe_bin(4095) == 4095);
  CHECK(probe_bin(4096) == 4096);
  CHECK(probe_bin(8191) == 4096);
  CHECK(probe_bin(8192) == 4097);
  CHECK(probe_bin(0xffffffffu) == k_probe_bins - 1);
  for (std::uint32_t b = 0; b < k_probe_bins; ++b) {
    CHECK(probe_bin(static_cast<std::uint32_t>(probe_bin_lo(b))) == b);
    CHECK(probe_bin(static_cast<std::uint32_t>(probe_bin_hi(b) - 1)) == b);
  }
}

TEST_CASE("percentiles are exact in the exact range", "[histogram]") {
  probe_histogram h;
  for (std::uint32_t d = 1; d <= 100; ++d) h.add(d);  // 1..100
  CHECK(h.total == 100);
  CHECK(h.max == 100);
  CHECK(h.mean() == 50.5);
  CHECK(h.percentile(0.5).value == 50);
  CHECK(h.percentile(0.5).exact);
  CHECK(h.percentile(0.99).value == 99);
  CHECK(h.percentile(1.0).value == 100);
  CHECK(h.percentile(0.0).value == 1);
}

TEST_CASE("percentiles in a log bin are interpolated and flagged", "[histogram]") {
  probe_histogram h;
  for (int i = 0; i < 9; ++i) h.add(0);
  h.add(6000);
  const quantile q = h.percentile(0.999);
  CHECK_FALSE(q.exact);
  CHECK(q.value >= 4096);
  CHECK(q.value <= 6000);  // clamped to the observed maximum
}

TEST_CASE("displayed bars cover every counted slot once", "[histogram]") {
  probe_histogram h;
  const std::uint32_t ds[] = {0, 0, 1, 64, 65, 127, 128, 5000, 70000};
  for (std::uint32_t d : ds) h.add(d);
  std::uint64_t sum = 0;
  for (const display_bin& b : h.display_bins()) {
    sum += b.count;
    CHECK(b.lo < b.hi);
  }
  CHECK(sum == h.total);
  const auto bars = h.display_bins();
  CHECK(bars[0].count == 2);
  CHECK(bars[64].count == 1);
  CHECK(bars[65].lo == 65);
  CHECK(bars[65].hi == 128);
  CHECK(bars[65].count == 2);  // 65 and 127
  CHECK(bars.back().hi > 70000);
}

TEST_CASE("lines a walk reads: from a line's start, or from anywhere in it on average",
          "[histogram]") {
  probe_histogram h;
  for (std::uint32_t d : {0u, 3u, 4u, 7u, 8u, 13u}) h.add(d);
  // From line starts, 4 slots a line: lines 1, 1, 2, 2, 3, 4.
  CHECK(mean_lines(h, 4, true) == 13.0 / 6.0);
  // From anywhere in an 8-slot line: 1 + d / 8 on average (mean d = 35 / 6).
  CHECK(mean_lines(h, 8, false) == 1.0 + (35.0 / 6.0) / 8.0);
  // The average over every start in the line is what the formula gives: a walk of 13 slots from
  // each of a line's 8 slots reads 2 or 3 lines.
  double sum = 0;
  for (std::uint32_t o = 0; o < 8; ++o) sum += 1 + (o + 13) / 8;
  CHECK(sum / 8 == 1.0 + 13.0 / 8.0);
  // A walk far past the exact bins counts at its bin's middle: [8192, 16384) -> 12287.5 / 4.
  probe_histogram far;
  far.add(9000);
  CHECK(mean_lines(far, 4, true) == 1.0 + 3071.0);
  CHECK(mean_lines(probe_histogram{}, 4, true) == 0.0);
}
