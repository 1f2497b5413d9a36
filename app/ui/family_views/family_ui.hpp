// One family's drawing in the app, above its hooks (app/families/family_hooks.hpp): its dockable
// windows and figures with the state they keep between frames, what they sample, and its table
// controls. The frame and the panels only go through this and the hooks, so none of them names a
// family. Families register their drawing in family_ui_list.cpp.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

#include "app/families/family_hooks.hpp"
#include "core/common/format.hpp"
#include "core/table/step_trace.hpp"
#include "core/table/table.hpp"
#include "visualizers/figure/figure.hpp"

namespace hs::vis {
class heatmap_view;
class histogram_view;
}  // namespace hs::vis

namespace hs::app {

using sample_request = inspect_request;

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
  /// @brief How keys are written (the lesson's decimal keys, hex, or the Display choice); a
  /// change makes the views that wrote keys into what they show make it again.
  void set_key_radix(key_radix r) {
    if (r == radix_) return;
    radix_ = r;
    radix_changed();
  }
  key_radix radix() const { return radix_; }

 protected:
  virtual void radix_changed() {}

 private:
  key_radix radix_ = key_radix::hex;
};

/// @brief One of a family's views: a dockable window, a figure scenarios capture, or both. The
/// functions take the family's own family_views (each family casts to its class).
/// @brief The object a view entry draws with (a Code view, a slab view), for what reads back what
/// was drawn (the UI tests): typed at run time, so no list of view types is kept here.
struct drawn_view {
  std::type_index type = typeid(void);
  const void* object = nullptr;
  template <class V>
  static drawn_view of(const V& v) {
    return {typeid(V), &v};
  }
  template <class V>
  const V* as() const {
    return type == typeid(V) ? static_cast<const V*>(object) : nullptr;
  }
};

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
  /// @brief The object it draws with; null: nothing to read back.
  drawn_view (*drawn)(const family_views& v) = nullptr;
};

struct family_ui {
  family id{};
  /// @brief The family's views: windows (the first in front in its default layout) and the
  /// figures a scenario may capture ("capture chains"), each named in the hooks' figures.
  std::span<const view_entry> views;
  std::unique_ptr<family_views> (*make_views)() = nullptr;
  /// @brief The Table section's controls beyond family, capacity, hash, backend and Apply; the
  /// running session and its latest counters for settings that apply at once.
  void (*draw_table_controls)(table_config& pending, session& running,
                              const table_stats& latest) = nullptr;
  /// @brief The window that draws the shared histogram (a scenario's `capture histogram`), or null.
  const char* histogram_window = nullptr;
  /// @brief The Maintenance section's extra buttons (the slab's FLUSH).
  void (*draw_maintenance)(session& s) = nullptr;

  /// @brief The family's hooks below its drawing.
  const family_hooks& hooks() const { return hooks_of(id); }
  /// @brief The titles of the views that are windows, in order.
  std::vector<const char*> window_titles() const;
  /// @brief The entry of figure `capture`, or null.
  const view_entry* figure(std::string_view capture) const;
  /// @brief The object view `name` (a capture name, else a window title) draws with in `v`, if it
  /// is a V: how tests read what a family's view shows.
  template <class V>
  const V* drawn(const family_views* v, std::string_view name) const {
    const view_entry* e = entry(name);
    return v && e && e->drawn ? e->drawn(*v).template as<V>() : nullptr;
  }
  /// @brief The entry named `name` (a capture name, else a window title), or null.
  const view_entry* entry(std::string_view name) const;
};

/// @brief The drawing of `f` (every registered family has one: checked by a test).
const family_ui& ui_of(family f);
namespace detail {
/// The registration list (family_ui_list.cpp).
std::span<const family_ui* const> registered_uis();
}  // namespace detail

}  // namespace hs::app
