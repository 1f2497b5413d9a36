// Percentiles and display bins of the probe-length histogram.
#include "core/common/probe_histogram.hpp"

#include <cmath>

#include "core/common/format.hpp"

namespace hs {

quantile probe_histogram::percentile(double q) const {
  if (total == 0) return {0.0, true};
  double want = std::ceil(q * static_cast<double>(total));
  if (want < 1) want = 1;
  std::uint64_t target = static_cast<std::uint64_t>(want), seen = 0;
  for (std::uint32_t b = 0; b < k_probe_bins; ++b) {
    if (counts[b] == 0) continue;
    if (seen + counts[b] >= target) {
      if (b < k_probe_exact_bins) return {static_cast<double>(b), true};
      // Interpolated in proportion inside the power-of-two bin, clamped to the observed maximum.
      double lo = static_cast<double>(probe_bin_lo(b)), hi = static_cast<double>(probe_bin_hi(b));
      double frac = static_cast<double>(target - seen) / static_cast<double>(counts[b]);
      double v = std::floor(lo + frac * (hi - lo));
      if (v > max) v = max;
      return {v, false};
    }
    seen += counts[b];
  }
  return {static_cast<double>(max), true};
}

std::vector<display_bin> probe_histogram::display_bins() const {
  std::vector<display_bin> out;
  for (std::uint64_t d = 0; d <= 64; ++d) out.push_back({d, d + 1, counts[d]});
  // Power-of-two bars [65,128), [128,256), ... built from the fine bins.
  std::uint64_t lo = 65, hi = 128;
  while (lo <= max) {
    display_bin bar{lo, hi, 0};
    for (std::uint32_t b = 0; b < k_probe_bins; ++b)
      if (probe_bin_lo(b) >= lo && probe_bin_hi(b) <= hi) bar.count += counts[b];
    out.push_back(bar);
    lo = hi;
    hi *= 2;
  }
  return out;
}

std::string probe_histogram::summary() const {
  auto fmt_q = [&](double q) {
    quantile v = percentile(q);
    return strprintf("%s%.0f", v.exact ? "" : "~", v.value);
  };
  return strprintf("mean %.4f  max %u  p50 %s  p99 %s  p99.9 %s", mean(), max, fmt_q(0.5).c_str(),
                   fmt_q(0.99).c_str(), fmt_q(0.999).c_str());
}

double mean_lines(const probe_histogram& h, std::uint32_t slots_per_line,
                  bool homes_at_line_start) {
  if (h.total == 0 || slots_per_line == 0) return 0.0;
  if (!homes_at_line_start) return 1.0 + h.mean() / slots_per_line;  // exact: o is uniform
  double lines = 0;
  for (std::uint32_t b = 0; b < k_probe_bins; ++b) {
    if (h.counts[b] == 0) continue;
    const double d = b < k_probe_exact_bins
                         ? static_cast<double>(b)
                         : 0.5 * static_cast<double>(probe_bin_lo(b) + probe_bin_hi(b) - 1);
    lines += static_cast<double>(h.counts[b]) * (1.0 + std::floor(d / slots_per_line));
  }
  return lines / static_cast<double>(h.total);
}

}  // namespace hs
