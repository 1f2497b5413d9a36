// The linear family in the app: the probe-length window, its tuning and delete-mode controls, and
// its counts (erased values and tombstones occupy slots: occupancy is shown beside the load).
#include <imgui.h>

#include "app/families/family_ui.hpp"
#include "app/session/session.hpp"
#include "core/common/format.hpp"
#include "visualizers/views/histogram_view.hpp"

namespace hs::app {

namespace {

constexpr const char* k_probes = "Probe lengths";
constexpr const char* k_windows[] = {k_probes};

class linear_views final : public family_views {
 public:
  void plan_sample(const session&, std::uint64_t, sample_request&) override {}
  void draw_window(std::string_view, view_context& ctx) override { ctx.histogram.draw(ctx.sample.inspected.histogram); }
  void draw_figure(std::string_view, view_context&) override {}
  std::string figure_csv(std::string_view, const session&, const sample_result&) const override { return {}; }
};

void draw_controls(table_config& c, session& running, const table_stats&) {
  ImGui::TextDisabled("%s of %s memory", format_bytes(c.capacity * 8).c_str(), running.gpu() ? "GPU" : "host");
  int g = c.linear.group == 0 ? 0 : c.linear.group == 1 ? 1 : c.linear.group == 4 ? 2 : 3;
  if (ImGui::Combo("threads/op", &g, "auto\0001\0004\0008\0")) c.linear.group = g == 0 ? 0 : g == 1 ? 1 : g == 2 ? 4 : 8;
  int del = static_cast<int>(c.deletes);
  if (ImGui::Combo("erase", &del, "empties the value\0leaves a tombstone\0")) c.deletes = static_cast<linear_delete_mode>(del);
}

void about_rows(number_rows& n, const session& s, const table_stats&) {
  n.emplace_back("erase", s.config().table.deletes == linear_delete_mode::tombstone ? "tombstone (seed 002)"
                                                                                    : "empties the value (seed 000)");
}

void count_rows(number_rows& n, const session& s, const sample_result& r) {
  const table_stats& t = r.stats;
  if (s.gpu()) n.emplace_back("tuning", describe(s.config().table.linear));
  n.emplace_back("load factor (live / slots)", strprintf("%.4f", t.load_factor()));
  n.emplace_back("occupancy (keys in slots / slots)", strprintf("%.4f", t.occupancy()));
  n.emplace_back("live keys", format_count(t.live));
  n.emplace_back("erased values", format_count(t.erased));
  n.emplace_back("tombstones", format_count(t.tombstones));
  n.emplace_back("longest probe ever", format_count(t.max_displacement));
}

}  // namespace

const family_ui& linear_ui() {
  static const family_ui u = [] {
    family_ui f;
    f.id = family::linear;
    f.windows = k_windows;
    f.make_views = [] { return std::unique_ptr<family_views>(new linear_views); };
    f.draw_table_controls = draw_controls;
    f.about_rows = about_rows;
    f.count_rows = count_rows;
    f.explains_tombstone_inserts = [](const table_config& c) { return c.deletes == linear_delete_mode::tombstone; };
    return f;
  }();
  return u;
}

}  // namespace hs::app
