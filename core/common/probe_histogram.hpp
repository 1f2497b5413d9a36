// The probe-length (displacement) histogram: binning shared by GPU kernels and CPU models, and the
// statistics the views and benchmarks print (mean, max, percentiles).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/bit_math.hpp"
#include "core/common/host_device.hpp"

namespace hs {

/// Displacements below this are counted exactly (so percentiles below it are exact); above it,
/// in power-of-two bins [2^12, 2^13) ... [2^31, 2^32).
inline constexpr std::uint32_t k_probe_exact_bins = 4096;
inline constexpr std::uint32_t k_probe_log_bins = 20;
inline constexpr std::uint32_t k_probe_bins = k_probe_exact_bins + k_probe_log_bins;

/// @brief The fine bin of a displacement.
HS_HD std::uint32_t probe_bin(std::uint32_t d) {
  return d < k_probe_exact_bins
             ? d
             : k_probe_exact_bins + static_cast<std::uint32_t>(floor_log2(d)) - 12u;
}

/// @brief Inclusive lower and exclusive upper displacement of a fine bin.
HS_HD std::uint64_t probe_bin_lo(std::uint32_t bin) {
  return bin < k_probe_exact_bins ? bin : std::uint64_t{1} << (bin - k_probe_exact_bins + 12);
}
HS_HD std::uint64_t probe_bin_hi(std::uint32_t bin) {
  return bin < k_probe_exact_bins ? bin + 1 : std::uint64_t{1} << (bin - k_probe_exact_bins + 13);
}

/// @brief One bar of the displayed histogram: displacements in [lo, hi).
struct display_bin {
  std::uint64_t lo = 0, hi = 0;
  std::uint64_t count = 0;
};

/// @brief A percentile, exact when it falls in the exact range, interpolated in a log bin
/// otherwise.
struct quantile {
  double value = 0;
  bool exact = true;
};

/// @brief Displacement statistics over all occupied slots.
struct probe_histogram {
  std::vector<std::uint64_t> counts = std::vector<std::uint64_t>(k_probe_bins, 0);
  std::uint64_t total = 0;  ///< occupied slots counted
  std::uint64_t sum = 0;    ///< sum of displacements
  std::uint32_t max = 0;

  void add(std::uint32_t d) {
    ++counts[probe_bin(d)];
    ++total;
    sum += d;
    if (d > max) max = d;
  }
  double mean() const {
    return total ? static_cast<double>(sum) / static_cast<double>(total) : 0.0;
  }
  /// @brief Smallest displacement d with at least q*total slots at or below d (0 <= q <= 1).
  quantile percentile(double q) const;
  /// @brief Bars for display: exact bins 0..64, then power-of-two bins up to the maximum.
  std::vector<display_bin> display_bins() const;
  /// @brief "mean 0.48  max 60  p50 0  p99 6  p99.9 14" for labels and logs.
  std::string summary() const;
};

/// @brief The mean number of memory lines a walk to a counted slot touches, where a walk reads
/// its home's slot and the d slots after it, and a line holds `slots_per_line` of them: 1 + (d +
/// o) / slots_per_line rounded down, o the home's slot within its line. With homes at line starts
/// o is 0; with homes anywhere o is uniform over the line, which averages to exactly 1 + d /
/// slots_per_line. Walks in the power-of-two bins count at their bin's middle. Slots walked and
/// lines read part when slots differ in size: a walk of 16-byte slots from its line's start may
/// read fewer lines than a shorter walk of 8-byte slots from anywhere in a line.
double mean_lines(const probe_histogram& h, std::uint32_t slots_per_line, bool homes_at_line_start);

}  // namespace hs
