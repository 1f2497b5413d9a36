// The linear family's drawing: the probe-length window, step mode's probe walks (each traced
// operation's walk from its home slot, outlined on the zoomed heatmap), the Code view and lanes,
// and its tuning and delete-mode controls. Its counts are its hooks' (linear_hooks.cpp).
#include <imgui.h>

#include "app/session/session.hpp"
#include "app/teach/code_view.hpp"
#include "app/ui/family_views/family_ui.hpp"
#include "app/ui/family_views/linear_code.hpp"
#include "app/ui/family_views/teach_entries.hpp"
#include "core/common/format.hpp"
#include "visualizers/views/heatmap_view.hpp"
#include "visualizers/views/histogram_view.hpp"
#include "visualizers/views/linear_walk_view.hpp"
#include "visualizers/views/step_runs_view.hpp"
#include "visualizers/views/warp_lanes_view.hpp"

namespace hs::app {

namespace {

class linear_views final : public family_views {
 public:
  void plan_sample(const session& s, std::uint64_t, sample_request&) override {
    walk_.follow_step(s.last_step(),
                      s.config().table.linear.deletes);  // a new traced step shows its first walk
    follow_walk(s);  // the code and lanes too: figures are made without drawing the windows
    follow_runs(s);
  }
  // The heatmap zooms to the shown walk (one cell per slot) and outlines its slots.
  void draw_walk(view_context& ctx) {
    if (const auto f = walk_.take_focus())
      ctx.heatmap.set_range(f->first, f->second, ctx.sess.capacity());
    ctx.heatmap.set_marks(walk_.marks());
    walk_.draw(ctx.height);
  }
  const vis::linear_walk_view& walk() const { return walk_; }
  // The code that decided the operation the walk view shows (its arrows choose it).
  void draw_code(view_context& ctx) {
    follow_walk(ctx.sess);
    code_.draw(ctx.height);
  }
  const code_view& code() const { return code_; }
  // The step's operations as the lanes of the warps that ran them, one probe a cell.
  void draw_lanes(view_context& ctx) {
    follow_walk(ctx.sess);
    lanes_.draw(ctx.height);
  }
  const vis::warp_lanes_view& lanes() const { return lanes_; }
  // Every run of the last step's operations (Back, then Step again): where each key landed.
  void draw_runs(view_context& ctx) {
    follow_runs(ctx.sess);
    runs_.draw(ctx.height);
  }
  const vis::step_runs_view& runs() const { return runs_; }

 private:
  void follow_runs(const session& s) {
    const auto t = s.last_step();
    const std::uint64_t serial = t ? t->serial : 0;
    if (serial == runs_serial_) return;
    runs_serial_ = serial;
    const run_history h = s.step_runs_of_last();
    vis::step_runs_data d;
    d.keys = h.keys;
    for (const run_history::run& r : h.runs) d.runs.push_back({r.slots, r.changed});
    runs_.set(std::move(d));
  }
  void radix_changed() override {  // the walk, the code and the lanes write keys: made again
    walk_.set_key_radix(radix());
    runs_.set_key_radix(radix());
    lanes_shown_.forget();
    code_.forget_followed();
  }
  void follow_walk(const session& s) {
    const step_trace* t = walk_.step();
    if (!t) return;
    if (lanes_shown_.show(t->serial, 0)) {  // a new step: its lanes (every operation at once)
      std::vector<vis::lane_row> rows;
      for (std::size_t i = 0; i < t->ops.size(); ++i) {
        vis::lane_row row;
        row.label =
            std::string(to_string(t->ops[i].kind)) + " " + key_text(t->ops[i].key, radix(), false);
        row.outcome = std::string(to_string(t->ops[i].status));
        if (const linear::probe_walk* pw = walk_.walk_at(i))
          for (const linear::walk_cell& c : pw->cells) row.cells.push_back(vis::walk_color(c.role));
        rows.push_back(std::move(row));
      }
      lanes_.set(std::move(rows),
                 {{vis::walk_color(linear::walk_role::passed), "another key: on"},
                  {vis::walk_color(linear::walk_role::found), "the key"},
                  {vis::walk_color(linear::walk_role::claimed), "claimed"},
                  {vis::walk_color(linear::walk_role::first_free), "first free"},
                  {vis::walk_color(linear::walk_role::stop_empty), "empty: stop"}});
    }
    const std::size_t op = walk_.shown_op();
    code_.follow(t->serial, op, [&]() -> std::optional<code_walkthrough> {
      const linear::probe_walk* pw = walk_.walk_at(op);
      if (!pw || op >= t->ops.size()) return std::nullopt;
      return linear_walkthrough(t->ops[op], *pw, s.config().table, s.capacity(), radix());
    });
  }

  vis::linear_walk_view walk_;
  vis::warp_lanes_view lanes_;
  vis::step_runs_view runs_;
  std::uint64_t runs_serial_ = ~0ull;  // the step the runs were read for
  code_view code_{&linear_english};
  step_follower lanes_shown_;
};

linear_views& self(family_views& v) { return static_cast<linear_views&>(v); }
const linear_views& self(const family_views& v) { return static_cast<const linear_views&>(v); }

constexpr view_entry k_views[] = {
    {"Probe lengths",
     {},
     [](family_views&, view_context& ctx) {
       ctx.histogram.draw(ctx.sample.inspected.histogram, ctx.height);
     }},
    {"Probe walk", "walk", [](family_views& v, view_context& ctx) { self(v).draw_walk(ctx); },
     [](const family_views& v, const session&, const sample_result&) {
       return self(v).walk().csv();
     },
     [](const family_views& v, const session& s,
        const sample_result&) -> std::optional<fig::figure> {
       return self(v).walk().paper_figure(s.config().table.linear.probe == probe_policy::double_hash
                                              ? "Double hashing"
                                              : "Linear probing");
     },
     [](const family_views& v) { return drawn_view::of(self(v).walk()); }},
    code_entry<linear_views>(),
    lanes_entry<linear_views>(),
    {"Runs", "runs", [](family_views& v, view_context& ctx) { self(v).draw_runs(ctx); },
     [](const family_views& v, const session&, const sample_result&) {
       return self(v).runs().csv();
     }},
};

void draw_controls(table_config& c, session& running, const table_stats&) {
  ImGui::TextDisabled("%s of %s memory", format_bytes(describe(c.family).estimate_bytes(c)).c_str(),
                      running.gpu() ? "GPU" : "host");
  int width = static_cast<int>(c.width);  // the combo's rows are the widths, narrowest first
  if (ImGui::Combo("keys", &width,
                   "32-bit keys (8-byte slots)\0"
                   "64-bit keys (16-byte slots)\0")) {
    c.width = static_cast<key_width>(width);
    // 64-bit keys run one thread an operation: a probe group the new width refuses goes to auto.
    if (!describe(c.family).check_config(c).empty()) c.linear.tuning.group = 0;
  }
  int g = c.linear.tuning.group == 0   ? 0
          : c.linear.tuning.group == 1 ? 1
          : c.linear.tuning.group == 4 ? 2
                                       : 3;
  if (ImGui::Combo("threads/op", &g, "auto\0001\0004\0008\0"))
    c.linear.tuning.group = g == 0 ? 0 : g == 1 ? 1 : g == 2 ? 4 : 8;
  int probe = static_cast<int>(c.linear.probe);
  if (ImGui::Combo("probing", &probe, "linear (next slot)\0double hashing\0")) {
    c.linear.probe = static_cast<probe_policy>(probe);
    if (c.linear.probe == probe_policy::double_hash)
      c.linear.tuning.group = 0;  // one thread per operation
  }
  int del = static_cast<int>(c.linear.deletes);
  if (ImGui::Combo("erase", &del, "empties the value\0leaves a tombstone\0"))
    c.linear.deletes = static_cast<linear_delete_mode>(del);
}

}  // namespace

const family_ui& linear_ui() {
  static const family_ui u = [] {
    family_ui f;
    f.id = family::linear;
    f.views = k_views;
    f.make_views = [] { return std::unique_ptr<family_views>(new linear_views); };
    f.histogram_window = "Probe lengths";
    f.draw_table_controls = draw_controls;
    return f;
  }();
  return u;
}

}  // namespace hs::app
