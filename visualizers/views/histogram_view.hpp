// Probe-length histogram: exact bars up to 64, power-of-two bars beyond, log count axis, and the
// statistics (mean, max, p50, p99, p99.9) live above it.
#pragma once
#include <array>
#include <string>

#include "core/common/probe_histogram.hpp"
#include "visualizers/views/histogram_frame.hpp"

namespace hs::vis {

class histogram_view {
 public:
  /// @brief Draws in the remaining space of the current window.
  void draw(const probe_histogram& h, float height = 0);
  bool log_counts = true;
  /// @brief What the bars count along x (the family's measure).
  std::string x_label = "probe length (displacement from the home slot)";
  /// @brief The plot's axis limits as last drawn (x min, x max, y min, y max): the user's pan
  /// and zoom show here.
  const std::array<double, 4>& shown_limits() const { return shown_; }
  /// @brief The keys (or slots) the histogram last drawn counted: what a person saw.
  std::uint64_t drawn_total() const { return drawn_total_; }

 private:
  std::array<double, 4> shown_{};
  std::uint64_t drawn_total_ = 0;
  histogram_frame frame_;
};

/// @brief The statistics line shown above the histogram and written beside figures.
std::string histogram_stats_line(const probe_histogram& h);

}  // namespace hs::vis
