// Thinning a scatter to marker-sized cells: every cell that held a point still holds one (the
// cloud keeps its shape and density on screen), each column keeps its lowest and highest point
// (the axis extents stay exact), and no cell draws more than one point besides those.
#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "visualizers/views/point_thinning.hpp"

using namespace hs::vis;

namespace {
std::size_t cell(double v, double lo, double hi, std::size_t n) {
  return std::min(n - 1, static_cast<std::size_t>(std::max(0.0, (v - lo) / (hi - lo)) *
                                                  static_cast<double>(n)));
}
}  // namespace

TEST_CASE("thinning keeps a point in every occupied cell and each column's extremes", "[plot]") {
  // 20,000 batches over 10 s with a rate that wanders in a wide band, one dip and one spike.
  std::vector<double> x, y;
  for (int i = 0; i < 20000; ++i) {
    x.push_back(i * 0.0005);
    y.push_back(5e9 + 1e9 * std::sin(i * 0.01) + (i % 97) * 2e7);
  }
  y[12345] = 1e8;
  y[777] = 9e9;
  thinning_grid g;
  g.x0 = 0, g.x1 = 10, g.y0 = 0, g.y1 = 1e10, g.columns = 400, g.rows = 100;
  const auto keep = thin_to_cells(x, y, g);
  CHECK(std::is_sorted(keep.begin(), keep.end()));
  CHECK(keep.size() < x.size() / 4);
  CHECK(keep.size() <= g.columns * g.rows);
  CHECK(std::find(keep.begin(), keep.end(), 12345u) != keep.end());
  CHECK(std::find(keep.begin(), keep.end(), 777u) != keep.end());
  // The cells with points are the same before and after: a band stays a band, not its edges.
  std::set<std::size_t> all, kept;
  for (std::size_t i = 0; i < x.size(); ++i)
    all.insert(cell(x[i], 0, 10, g.columns) * g.rows + cell(y[i], 0, 1e10, g.rows));
  for (std::size_t i : keep)
    kept.insert(cell(x[i], 0, 10, g.columns) * g.rows + cell(y[i], 0, 1e10, g.rows));
  CHECK(kept == all);
  CHECK(keep.size() <= all.size() + 2 * g.columns);
  // Column by column, the kept extremes are the true ones.
  for (std::size_t c = 0; c < g.columns; c += 37) {
    double lo = 1e30, hi = -1e30, kept_lo = 1e30, kept_hi = -1e30;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (cell(x[i], 0, 10, g.columns) == c) lo = std::min(lo, y[i]), hi = std::max(hi, y[i]);
    for (std::size_t i : keep)
      if (cell(x[i], 0, 10, g.columns) == c)
        kept_lo = std::min(kept_lo, y[i]), kept_hi = std::max(kept_hi, y[i]);
    CAPTURE(c);
    CHECK(kept_lo == lo);
    CHECK(kept_hi == hi);
  }
}

TEST_CASE("thinning leaves out points outside the x range and keeps sparse points all", "[plot]") {
  const std::vector<double> x{-1, 0.1, 0.5, 0.9, 2, std::nan("")}, y{1, 2, 3, 4, 5, 6};
  thinning_grid g;
  g.x0 = 0, g.x1 = 1, g.y0 = 0, g.y1 = 10, g.columns = 100, g.rows = 100;
  CHECK(thin_to_cells(x, y, g) == std::vector<std::size_t>{1, 2, 3});
  // One cell: its first point, and the lowest and highest (here the first is the lowest).
  g.columns = g.rows = 1;
  CHECK(thin_to_cells(x, y, g) == std::vector<std::size_t>{1, 3});
  // y beyond the axis counts in the nearest row; on a log axis rows are decades apart.
  g.columns = 1, g.rows = 10, g.y0 = 1, g.y1 = 1e10, g.log_y = true;
  const std::vector<double> lx{0.1, 0.2, 0.3, 0.4, 0.5}, ly{50, 60, 5e5, 1e12, 2e12};
  CHECK(thin_to_cells(lx, ly, g) == std::vector<std::size_t>{0, 2, 3, 4});
}
