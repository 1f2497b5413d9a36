// Axis tick placement for the plot module: "nice" linear steps and powers of ten on log axes.
#pragma once
#include <string>
#include <vector>

namespace hs::vis {

/// @brief About `target` ticks covering [lo, hi] at 1, 2 or 5 times a power of ten.
std::vector<double> linear_ticks(double lo, double hi, int target = 5);
/// @brief Powers of ten within [lo, hi] (lo > 0), thinned to at most `max_ticks`.
std::vector<double> log_ticks(double lo, double hi, int max_ticks = 8);
/// @brief A short label: 0.25, 1.5k, 12M, 3.2G, 1e-3.
std::string tick_label(double v);

}  // namespace hs::vis
