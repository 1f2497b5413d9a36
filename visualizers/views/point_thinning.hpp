// Thinning a scatter to what the screen can show: a GPU session retires thousands of batches a
// second, and drawing every one as a marker costs the GPU time the table's own work needs (the
// drawing, not the sampling, was most of `bench live`'s cost). Keeping each pixel column's lowest
// and highest point leaves the picture's envelope and its axis extents as they were.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace hs::vis {

/// @brief The indices (ascending) of the points to draw: in each of `columns` equal columns of
/// [x0, x1], the point with the lowest y and the one with the highest (the first of equals).
/// Points outside [x0, x1] are left out; x and y have the same length.
std::vector<std::size_t> thin_to_columns(std::span<const double> x, std::span<const double> y, double x0, double x1,
                                         std::size_t columns);

}  // namespace hs::vis
