// Compare mode's window and figure: a column per table (its name, its slot heatmap, its family's
// measure as a histogram, its numbers), and below them one throughput-against-load plot and one
// cost plot (slots, slabs or buckets read per operation against load) overlaying every table on
// the same axes. Each table is sampled on a sampler thread of its own, at most every `period_s`
// (figures sample at once, on the caller's thread), so a frame never waits for a table.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/compare/compare_set.hpp"
#include "app/sampler.hpp"
#include "visualizers/colormap.hpp"
#include "visualizers/heatmap_image.hpp"
#include "visualizers/views/histogram_view.hpp"

namespace hs::app {

class compare_view {
 public:
  explicit compare_view(compare_set& set);
  ~compare_view();
  /// @brief The window's contents: with `controls`, a row of buttons driving every table first.
  void draw(bool controls, float height = 0);
  /// @brief Samples every table now (figures).
  void sample_now();
  /// @brief Per table: label, family, load, live keys, cost, throughput (the figure's numbers).
  std::string csv() const;
  /// @brief Table i's load factor in its latest sample (0 before the first).
  double load(std::size_t i) const { return i < cols_.size() ? cols_[i].last.stats.load_factor() : 0.0; }
  /// @brief Table i's (load, reads per operation) at each sample so far.
  std::vector<std::pair<double, double>> cost_points(std::size_t i) const;
  double period_s = 0.25;

 private:
  struct cost_point {
    double load = 0, cost = 0;
  };
  struct column {
    std::unique_ptr<sampler> background;  // the window's samples, off the UI thread
    std::unique_ptr<vis::heatmap_image> image;
    buffer<occupancy_pixel> pixels;
    sample_result last;
    vis::histogram_view histogram;
    std::vector<cost_point> cost;
  };
  void sample(bool force);
  /// Takes in a column's finished sample: its image and its cost point.
  void adopt(column& c);
  void draw_controls();
  void draw_column(std::size_t i, float width, float height);
  void draw_overlays(float height);

  compare_set& set_;
  std::vector<column> cols_;
  vis::colormap cmap_;
  double last_sample_ = -1e9;
  float target_load_ = 0.5f;
  int step_ops_ = 16;
};

}  // namespace hs::app
