// Thinning a scatter to what the screen can show: a GPU session retires thousands of batches a
// second, and drawing every one as a marker costs the GPU time the table's own work needs (the
// drawing, not the sampling, was most of `bench live`'s cost). The plot is cut into cells one
// marker wide and tall; a cell keeps one point (markers closer than that overlap anyway), and
// each column also keeps its lowest and highest point, so the cloud keeps its shape and density
// on screen and the axis extents stay exact.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace hs::vis {

/// @brief The plot area a scatter is thinned for: x in [x0, x1] over `columns` cells, y in
/// [y0, y1] over `rows` (y taken as log10(y) when `log_y`, for a log axis).
struct thinning_grid {
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  std::size_t columns = 1, rows = 1;
  bool log_y = false;
};

/// @brief The indices (ascending) of the points to draw: the first point in each cell of the
/// grid, and each column's lowest and highest point (the first of equals). Points with x outside
/// [x0, x1] are left out; y outside [y0, y1] counts in the nearest row. x and y have the same
/// length.
std::vector<std::size_t> thin_to_cells(std::span<const double> x, std::span<const double> y,
                                       const thinning_grid& g);

}  // namespace hs::vis
