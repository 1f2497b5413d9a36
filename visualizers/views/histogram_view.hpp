// Probe-length histogram: exact bars up to 64, power-of-two bars beyond, log count axis, and the
// statistics (mean, max, p50, p99, p99.9) live above it.
#pragma once
#include "core/common/probe_histogram.hpp"

namespace hs::vis {

class histogram_view {
 public:
  /// @brief Draws in the remaining space of the current window.
  void draw(const probe_histogram& h, float height = 0);
  bool log_counts = true;
};

/// @brief The statistics line shown above the histogram and written beside figures.
std::string histogram_stats_line(const probe_histogram& h);

}  // namespace hs::vis
