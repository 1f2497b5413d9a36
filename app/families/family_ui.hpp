// One family's place in the app, next to its registration in core/ (family_registry.hpp): its
// dockable windows and figures with the state they keep between frames, what they sample, its
// table controls, its rows in the numbers, and what a session records per batch for it. The
// frame, the session and the scenario parser only go through this, so none of them names a
// family. Families register in family_ui_list.cpp.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/session/batch_recorder.hpp"
#include "app/session/question.hpp"
#include "core/table/step_trace.hpp"
#include "core/table/table.hpp"
#include "visualizers/figure/figure.hpp"

namespace hs::vis {
class heatmap_view;
class histogram_view;
}  // namespace hs::vis

namespace hs::app {

class session;
struct sample_result;
struct session_config;
using sample_request = inspect_request;
using number_rows = std::vector<std::pair<std::string, std::string>>;

/// @brief What a family's views draw with.
struct view_context {
  session& sess;
  const sample_result& sample;
  vis::heatmap_view& heatmap;      ///< the shared heatmap (a picked bucket zooms it)
  vis::histogram_view& histogram;  ///< the shared histogram view (the family's probe measure)
  float height = 0;                ///< figures: the height to fill (0: the window's)
  double time_s = -1;              ///< the window's clock for animations; -1 for a still figure
};

/// @brief A family's views and the state they keep from frame to frame (a picked bucket, a step
/// being replayed). Made once per table; its views are drawn through the family's view entries.
class family_views {
 public:
  virtual ~family_views() = default;
  /// @brief Adds what the views need to this frame's sample (`capacity`: the table's now).
  virtual void plan_sample(const session& s, std::uint64_t capacity, sample_request& req) = 0;
  /// @brief A new sample is shown: views that choose what to show from it (the slab's longest
  /// list) do so here, so windows and figures alike see the choice.
  virtual void sampled(const sample_result& r) { (void)r; }
  /// @brief A figure's bucket range from its scenario (`capture evictions buckets=FIRST:COUNT`);
  /// families without bucket views ignore it.
  virtual void set_bucket_range(std::uint64_t first, std::uint64_t count) {
    (void)first, (void)count;
  }
};

/// @brief One of a family's views: a dockable window, a figure scenarios capture, or both. The
/// functions take the family's own family_views (each family casts to its class).
struct view_entry {
  const char* title = nullptr;  ///< the window's title ("Probe walk"); null: a figure only
  std::string_view capture;     ///< its name in scenarios ("walk"); empty: a window only
  /// @brief Draws the view: in its window (ctx.height 0) or as a figure filling ctx.height.
  void (*draw)(family_views& v, view_context& ctx) = nullptr;
  /// @brief The numbers behind the figure, as the CSV written beside its PNG.
  std::string (*csv)(const family_views& v, const session& s, const sample_result& r) = nullptr;
  /// @brief The figure in paper style (render --style paper); null: drawn in screen style.
  std::optional<fig::figure> (*paper)(const family_views& v, const session& s,
                                      const sample_result& r) = nullptr;
};

struct family_ui {
  family id = family::linear;
  /// @brief The questions `ask` may put to the class on this family, and each answered by the
  /// real table: `what` (where: the slot the traced step's first operation decided at; probes:
  /// the slots it read; bucket: the bucket it decided in) from the step's trace and the latest
  /// sample (the hive's eviction paths); none when the family cannot tell.
  std::span<const question_kind> questions;
  std::optional<std::uint64_t> (*answer)(question_kind what, const step_trace& t,
                                         const table_config& cfg,
                                         const sample_result& latest) = nullptr;
  /// @brief The family's views: windows (the first in front in its default layout) and the
  /// figures a scenario may capture ("capture chains").
  std::span<const view_entry> views;
  std::unique_ptr<family_views> (*make_views)() = nullptr;

  /// @brief Whether `ask QUESTION` is one of `questions`.
  bool answers(question_kind question) const;
  /// @brief The titles of the views that are windows, in order.
  std::vector<const char*> window_titles() const;
  /// @brief The entry of figure `capture`, or null.
  const view_entry* figure(std::string_view capture) const;
  /// @brief The capture names, in order ("chains", "allocator").
  std::vector<std::string_view> figure_names() const;

  /// @brief Settings a table of the family gets when it is picked for the window or a scenario
  /// (the hive: instrumentation on, its views draw the counters); explicit options come after.
  void (*prepare)(table_config& cfg) = nullptr;
  /// @brief The Table section's controls beyond family, capacity, hash, backend and Apply; the
  /// running session and its latest counters for settings that apply at once.
  void (*draw_table_controls)(table_config& pending, session& running,
                              const table_stats& latest) = nullptr;
  /// @brief Whether the common hash choice applies (the hive has its own hash policies).
  bool common_hash = true;
  /// @brief The Maintenance section's extra buttons (the slab's FLUSH).
  void (*draw_maintenance)(session& s) = nullptr;
  /// @brief The family's rows of the numbers: `about` after the common "table" row, `counts`
  /// after the common counters.
  void (*about_rows)(number_rows& rows, const session& s, const table_stats& t) = nullptr;
  void (*count_rows)(number_rows& rows, const session& s, const sample_result& r) = nullptr;
  /// @brief What the histogram measures ("probe length") and what a failed_full insert means.
  std::string_view histogram_measure = "probe length";
  /// @brief What an operation reads, counted as the histogram's measure + 1 ("slots"): compare
  /// mode's reads per operation.
  std::string_view read_unit = "slots";
  std::string_view failed_label = "failed (table full)";
  /// @brief Whether the churn timeline explains how inserts reuse tombstones (the linear
  /// family in tombstone mode).
  bool (*explains_tombstone_inserts)(const table_config& cfg) = nullptr;
  /// @brief The session's per-batch recorder for the family's views, or null.
  std::unique_ptr<batch_recorder> (*make_recorder)() = nullptr;
};

/// @brief The app side of `f` (every registered family has one: checked by a test).
const family_ui& ui_of(family f);
/// @brief A session of `cfg` with its family's per-batch recorder (what its views draw from).
std::unique_ptr<session> make_session(const session_config& cfg);
/// @brief The families whose tables answer `ask QUESTION`.
std::vector<family> families_answering(question_kind question);
/// @brief The families that have a figure named `view` ("code": every family with a Code view).
std::vector<family> families_of_figure(std::string_view view);

namespace detail {
/// The registration list (family_ui_list.cpp).
std::span<const family_ui* const> registered_uis();
}  // namespace detail

}  // namespace hs::app
