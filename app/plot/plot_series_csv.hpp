// Others' numbers for `hashscope plot --series FILE`: a CSV of rates measured against load, drawn
// with HashScope's own series in the cross-family figure, under their own labels.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "visualizers/figure/figure.hpp"

namespace hs::app {

/// @brief One labelled series of a --series file.
struct extra_series {
  std::string label;      ///< the legend's words
  bool chaining = false;  ///< its load is memory utilization (slab hashing): the slab's panel
  bool insert = true;     ///< inserts, or finds
  fig::series::kind_t kind = fig::series::line;
  std::vector<double> load, rate;  ///< sorted by load
  std::vector<double> lo, hi;      ///< each point's least and greatest repeat, or empty
  std::string file;                ///< where it came from (the caption says so)
};

/// @brief Reads a --series CSV: a header naming the columns `label`, `family` (or `kind`),
/// `operation`, `load` and `rate` in any order, optionally `min`, `max` and `style`; then one
/// measured point a line (blank lines and lines starting with '#' are skipped). Throws
/// hs::user_error naming the file and line of the first problem: a missing column, a value that
/// is not a number, a load outside 0-1, an unknown family, operation or style, a min above the
/// rate or a max below it, two rates for one load of one series, or no rows at all.
std::vector<extra_series> read_series_csv(const std::string& path);

}  // namespace hs::app
