// Thinning a scatter to its pixel columns' extremes.
#include "visualizers/views/point_thinning.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hs::vis {

std::vector<std::size_t> thin_to_columns(std::span<const double> x, std::span<const double> y, double x0, double x1,
                                         std::size_t columns) {
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  columns = std::max<std::size_t>(columns, 1);
  std::vector<std::size_t> low(columns, none), high(columns, none);
  const double width = x1 - x0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!(x[i] >= x0 && x[i] <= x1)) continue;  // also drops NaN
    const double f = width > 0 ? (x[i] - x0) / width : 0.0;
    const auto c = std::min(columns - 1, static_cast<std::size_t>(f * static_cast<double>(columns)));
    if (low[c] == none || y[i] < y[low[c]]) low[c] = i;
    if (high[c] == none || y[i] > y[high[c]]) high[c] = i;
  }
  std::vector<std::size_t> keep;
  for (std::size_t c = 0; c < columns; ++c) {
    if (low[c] != none) keep.push_back(low[c]);
    if (high[c] != none && high[c] != low[c]) keep.push_back(high[c]);
  }
  std::sort(keep.begin(), keep.end());
  return keep;
}

}  // namespace hs::vis
