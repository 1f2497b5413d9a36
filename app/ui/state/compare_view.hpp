// Compare mode's window and figure: a column per table (its name, its slot heatmap, its family's
// measure as a histogram, its numbers), and below them one throughput-against-load plot and one
// cost plot (slots, slabs or buckets read per operation against load) overlaying every table on
// the same axes, and a plot of the 64-byte lines an operation reads where a table's family counts
// them apart from its unit (a line holds 4 slots of 16 bytes or 8 of 8 bytes: slots walked alone
// mislead). Each table is sampled on a sampler thread of its own, so a frame never waits for a
// table: at once when the table changed and rests (a reset, a step, a fill that ended), else at
// most every `period_s`; figures sample at once, on the caller's thread.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/compare/compare_set.hpp"
#include "app/session/sampler.hpp"
#include "visualizers/colormap.hpp"
#include "visualizers/heatmap_image.hpp"
#include "visualizers/views/histogram_view.hpp"

namespace hs::app {

/// @brief The occupancy image of `slots` slots for a w x h pixel area: the area itself when the
/// table has at least as many slots as pixels; else a grid of one cell a slot, cells about square,
/// that the image stretches over the area (512 slots on 680x160 pixels would be a one-pixel strip
/// along the top).
std::pair<std::uint32_t, std::uint32_t> occupancy_grid(std::uint64_t slots, std::uint32_t w,
                                                       std::uint32_t h);

class compare_view {
 public:
  explicit compare_view(compare_set& set);
  ~compare_view();
  /// @brief The columns and the overlaid plots, filling `height` (0: what the window has left).
  void draw(float height = 0);
  /// @brief Samples every table now (figures).
  void sample_now();
  /// @brief Per table: label, family, load, live keys, cost, throughput (the figure's numbers).
  std::string csv() const;
  /// @brief Per table and batch: its rate and load before it, and (with the timeline recorded)
  /// the load and reads per operation after it (the figure's points).
  std::string batches_csv() const;
  /// @brief Table i's load factor in its latest sample (0 before the first).
  double load(std::size_t i) const {
    return i < cols_.size() ? cols_[i].last.stats.load_factor() : 0.0;
  }
  /// @brief Table i's (load, reads per operation) at each sample so far.
  std::vector<std::pair<double, double>> cost_points(std::size_t i) const;
  /// @brief Table i's (load, 64-byte lines read per operation) at each sample so far: empty for
  /// a family whose read unit is what it reads (family_hooks::lines_read).
  std::vector<std::pair<double, double>> line_points(std::size_t i) const;
  /// @brief Whether any table tells its lines read apart from its read unit.
  bool any_lines() const;
  /// @brief What table i's column drew last: the sample's version and whether it was marked old.
  struct drawn_column {
    std::uint64_t version = 0;
    double load = 0;
    std::uint64_t live = 0;
    bool marked_old = false;
    double reads = 0;        ///< the read unit's count an operation, as the column's text gave it
    double lines = 0;        ///< 64-byte lines an operation, as given (NaN: the family has none)
    double median_rate = 0;  ///< the headline: the median of the run's whole batches, ops/s
  };
  drawn_column drawn(std::size_t i) const {
    return i < cols_.size() ? cols_[i].drawn : drawn_column{};
  }
  /// @brief Table i's version when its newest sample was asked for.
  std::uint64_t asked_version(std::size_t i) const {
    return i < cols_.size() ? cols_[i].asked_version : 0;
  }
  double period_s = 0.25;

 private:
  struct cost_point {
    double load = 0, cost = 0;
    double lines = 0;              ///< NaN where the family has no lines apart from its unit
    std::uint64_t operations = 0;  ///< the session's operations when its sample finished
  };
  struct column {
    std::unique_ptr<sampler> background;  // the window's samples, off the UI thread
    std::unique_ptr<vis::heatmap_image> image;
    buffer<occupancy_pixel> pixels;
    sample_result last;
    vis::histogram_view histogram;
    std::vector<cost_point> cost;
    std::uint64_t asked_version =
        ~0ull;  // the table's version when the newest sample was asked for
    double asked_at = -1e9;
    int image_w = 256, image_h = 128;  // fitted to the column as last drawn
    drawn_column drawn;
  };
  void sample(bool force);
  /// Takes in a column's finished sample: its image and its cost point.
  void adopt(column& c, const session& s, const vis::heatmap_request& tag);
  void draw_column(std::size_t i, float width, float height);
  void draw_overlays(float height);

  compare_set& set_;
  std::vector<column> cols_;
  vis::colormap cmap_;
};

}  // namespace hs::app
