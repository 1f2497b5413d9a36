// Thinning a scatter to its pixel columns: each column keeps its lowest and highest point, so
// the envelope and the axis extents stay, and no more than two points a column are drawn.
#include <algorithm>
#include <cmath>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "visualizers/views/point_thinning.hpp"

using namespace hs::vis;

TEST_CASE("thinning keeps each pixel column's lowest and highest point", "[plot]") {
  // 20,000 batches over 10 s with a rate that wanders, and one dip and one spike to keep.
  std::vector<double> x, y;
  for (int i = 0; i < 20000; ++i) {
    x.push_back(i * 0.0005);
    y.push_back(5e9 + 1e9 * std::sin(i * 0.01) + (i % 7) * 1e7);
  }
  y[12345] = 1e8;
  y[777] = 9e9;
  const std::size_t columns = 800;
  const auto keep = thin_to_columns(x, y, 0, 10, columns);
  CHECK(keep.size() <= 2 * columns);
  CHECK(keep.size() >= columns);  // every column holds points here
  CHECK(std::is_sorted(keep.begin(), keep.end()));
  CHECK(std::find(keep.begin(), keep.end(), 12345u) != keep.end());
  CHECK(std::find(keep.begin(), keep.end(), 777u) != keep.end());
  // Column by column, the kept extremes are the true ones.
  for (std::size_t c = 0; c < columns; c += 97) {
    double lo = 1e30, hi = -1e30, kept_lo = 1e30, kept_hi = -1e30;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (std::min(columns - 1, static_cast<std::size_t>(x[i] / 10 * columns)) == c) lo = std::min(lo, y[i]), hi = std::max(hi, y[i]);
    for (std::size_t i : keep)
      if (std::min(columns - 1, static_cast<std::size_t>(x[i] / 10 * columns)) == c)
        kept_lo = std::min(kept_lo, y[i]), kept_hi = std::max(kept_hi, y[i]);
    CAPTURE(c);
    CHECK(kept_lo == lo);
    CHECK(kept_hi == hi);
  }
}

TEST_CASE("thinning leaves out points outside the range and keeps sparse points all", "[plot]") {
  const std::vector<double> x{-1, 0.1, 0.5, 0.9, 2, std::nan("")}, y{1, 2, 3, 4, 5, 6};
  CHECK(thin_to_columns(x, y, 0, 1, 100) == std::vector<std::size_t>{1, 2, 3});
  // One column: the lowest and the highest of the points inside.
  CHECK(thin_to_columns(x, y, 0, 1, 1) == std::vector<std::size_t>{1, 3});
  // An empty range puts every point on it in the first column.
  CHECK(thin_to_columns(std::vector<double>{3, 3, 3}, std::vector<double>{2, 1, 3}, 3, 3, 10) == std::vector<std::size_t>{1, 2});
}
