// The hive family's views (the Hive paper): bucket fill (a histogram of 0..S live slots per bucket,
// the share of keys in each candidate, and the bucket strip), eviction paths (recent paths as
// arcs between buckets over the strip, newest brightest, the path-length histogram, and in step
// mode one insert's path animated hop by hop), the insert-step breakdown against load factor
// (the paper's Fig. 9, stacked, filled in batch by batch), the stash (a gauge and its words) and
// the resize view (the round's buckets, the split pointer, the partners split into).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/hive/hive_path.hpp"
#include "core/table/inspection.hpp"
#include "core/table/step_trace.hpp"
#include "core/table/table.hpp"
#include "visualizers/colormap.hpp"
#include "visualizers/views/histogram_frame.hpp"

namespace hs::vis {

/// @brief One finished batch of a hive table: its load before and after, and the inserts each
/// step completed during it (instrumentation on; zeros otherwise).
struct hive_step_point {
  double load_before = 0, load_after = 0;
  std::uint64_t steps[4] = {};
  std::uint64_t moves = 0;
};

/// @brief Inserts by step in load bins of `width` (bin i covers [i*width, (i+1)*width)), each
/// point's inserts spread over the bins its load range covers (by overlap; every insert counted
/// once); bins with no inserts are absent.
struct step_bin {
  double load_lo = 0, load_hi = 0;
  std::uint64_t steps[4] = {};
  std::uint64_t total() const { return steps[0] + steps[1] + steps[2] + steps[3]; }
};
std::vector<step_bin> bin_steps(std::span<const hive_step_point> points, double width);

class hive_view {
 public:
  hive_view();
  /// @brief Fill histogram, candidate shares and the bucket strip.
  void draw_buckets(const inspect_result& r, const table_stats& st, float height = 0);
  /// @brief Recent paths as arcs over the bucket strip, the path-length histogram; with a traced
  /// step, its first insert that evicted, animated hop by hop (time_s drives the animation).
  void draw_evictions(const inspect_result& r, const std::vector<hive::path_record>& paths,
                      const table_stats& st, const std::shared_ptr<const step_trace>& step,
                      double time_s, float height = 0);
  /// @brief The share of inserts completed by each step, against load factor.
  void draw_steps(std::span<const hive_step_point> points, const table_stats& st, float height = 0);
  void draw_stash(const inspect_result& r, const table_stats& st, float height = 0);
  void draw_resize(const inspect_result& r, const table_stats& st, float height = 0);

  /// @brief Draws the eviction arcs over buckets [first, first + count) only (count 0: all), so a
  /// figure of a table of millions of buckets shows paths rather than a blur.
  void set_arc_range(std::uint64_t first, std::uint64_t count) {
    arc_first_ = first, arc_count_ = count;
  }
  std::pair<std::uint64_t, std::uint64_t> arc_range() const { return {arc_first_, arc_count_}; }
  const colormap& cmap() const { return cmap_; }
  /// @brief Pixels of the bucket strip the next sample should fill.
  std::uint32_t strip_width() const { return 512; }
  /// @brief The bucket last clicked in a strip (marked there); the frame shows its slots.
  std::optional<std::uint64_t> selected_bucket() const { return selected_; }
  /// @brief A click since the last call picked a bucket: returns it once.
  std::optional<std::uint64_t> take_pick() { return std::exchange(picked_, std::nullopt); }

 private:
  void draw_strip(const inspect_result& r, const table_stats& st, float height, const char* what);
  void draw_path_lengths(const table_stats& st, float height);
  colormap cmap_;
  histogram_frame fill_frame_, paths_frame_;
  double anim_start_s_ = -1;
  std::uint64_t anim_serial_ = 0;
  std::optional<std::uint64_t> selected_, picked_;
  std::uint64_t arc_first_ = 0, arc_count_ = 0;
};

/// @brief The newest path in `paths` of an insert of `step` (null: none of its inserts evicted).
const hive::path_record* stepped_path(const std::vector<hive::path_record>& paths,
                                      const step_trace* step);

/// @brief CSV beside figures: the step bins, the eviction paths, the stash words.
std::string steps_csv(std::span<const hive_step_point> points, double width);
std::string paths_csv(const std::vector<hive::path_record>& paths);
std::string stash_csv(const std::vector<stash_entry>& stash);
std::string bucket_fill_csv(const probe_histogram& fill);
/// @brief The geometry, then the bucket strip (mean and largest fill per pixel).
std::string resize_csv(const inspect_result& r, const table_stats& st);

}  // namespace hs::vis
