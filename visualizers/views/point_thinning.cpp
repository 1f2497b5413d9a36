// Thinning a scatter to one point a marker-sized cell, and each column's extremes.
#include "visualizers/views/point_thinning.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hs::vis {

namespace {
// The cell index of v in [lo, hi] cut into n, clamped to the ends.
std::size_t cell_of(double v, double lo, double hi, std::size_t n) {
  const double f = hi > lo ? (v - lo) / (hi - lo) : 0.0;
  if (!(f > 0)) return 0;  // also NaN
  return std::min(n - 1, static_cast<std::size_t>(f * static_cast<double>(n)));
}
}  // namespace

std::vector<std::size_t> thin_to_cells(std::span<const double> x, std::span<const double> y,
                                       const thinning_grid& g) {
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  const std::size_t columns = std::max<std::size_t>(g.columns, 1),
                    rows = std::max<std::size_t>(g.rows, 1);
  const auto scale = [&](double v) { return g.log_y ? std::log10(std::max(v, 1e-300)) : v; };
  const double y0 = scale(g.y0), y1 = scale(g.y1);
  std::vector<std::size_t> low(columns, none), high(columns, none);
  std::vector<bool> taken(columns * rows, false);
  std::vector<bool> keep(x.size(), false);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!(x[i] >= g.x0 && x[i] <= g.x1)) continue;  // also drops NaN
    const std::size_t c = cell_of(x[i], g.x0, g.x1, columns);
    const std::size_t cell = c * rows + cell_of(scale(y[i]), y0, y1, rows);
    if (!taken[cell]) taken[cell] = keep[i] = true;
    if (low[c] == none || y[i] < y[low[c]]) low[c] = i;
    if (high[c] == none || y[i] > y[high[c]]) high[c] = i;
  }
  for (std::size_t c = 0; c < columns; ++c) {
    if (low[c] != none) keep[low[c]] = true;
    if (high[c] != none) keep[high[c]] = true;
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < keep.size(); ++i)
    if (keep[i]) out.push_back(i);
  return out;
}

}  // namespace hs::vis
