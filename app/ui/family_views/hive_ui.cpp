// The hive family's drawing: buckets, evictions, insert steps, stash and resize windows (a bucket
// picked in a strip zooms the heatmap onto its slots), step mode's Code view and lanes, and its
// table controls. Its counts and per-batch record are its hooks' (app/families/hive_hooks.cpp).
#include "app/ui/family_views/family_ui.hpp"

#include <algorithm>

#include <imgui.h>

#include "app/families/hive_steps.hpp"
#include "app/session/session.hpp"
#include "app/teach/code_view.hpp"
#include "app/ui/family_views/hive_code.hpp"
#include "app/ui/family_views/hive_lanes.hpp"
#include "app/ui/family_views/teach_entries.hpp"
#include "core/common/format.hpp"
#include "core/hive/hive_family.hpp"
#include "core/hive/hive_trace.hpp"
#include "core/table/family_registry.hpp"
#include "visualizers/views/heatmap_view.hpp"
#include "visualizers/views/hive_figures.hpp"
#include "visualizers/views/hive_view.hpp"
#include "visualizers/views/tile_lanes_view.hpp"

namespace hs::app {

namespace {

constexpr double k_steps_bin = 0.02;  // load bins of the steps figure's CSV

class hive_views final : public family_views {
 public:
  void plan_sample(const session& s, std::uint64_t capacity, sample_request& req) override {
    req.hive.bucket_fill = true;
    req.hive.stash = true;
    req.hive.paths = true;
    planned_step_ = s.last_step();
    const table_config& cfg = s.config().table;
    const int bucket_slots = cfg.hive.bucket_slots ? cfg.hive.bucket_slots : hive::k_default_slots;
    tile_ = cfg.hive.tile ? cfg.hive.tile : std::min(hive::k_default_tile, bucket_slots);
    const int slots = s.config().table.hive.bucket_slots ? s.config().table.hive.bucket_slots
                                                         : hive::k_default_slots;
    req.strip = bucket_strip_query{0, capacity / static_cast<std::uint64_t>(slots),
                                   view_.strip_width()};  // every bucket in use
  }
  void set_bucket_range(std::uint64_t first, std::uint64_t count) override {
    view_.set_arc_range(first, count);
  }
  void sampled(const sample_result& r) override {
    paths_ = r.inspected.hive.paths;
    paths_new_ = true;
    follow_step();  // and the code and lanes: figures are made without drawing the windows
    follow_op();
  }
  vis::hive_view& view() { return view_; }
  const vis::hive_view& view() const { return view_; }

  // Step mode: the traced step replayed on its candidate buckets (again when the sample brings
  // the eviction paths its inserts took), one operation shown at a time.
  void follow_step() {
    const auto t = planned_step_;
    if (!t || (step_ == t && !paths_new_)) return;  // replayed already, with these paths
    paths_new_ = false;
    std::vector<hive::op_trace> replay = hive::replay_step(*t, paths_);
    std::size_t evicted = 0;
    for (const hive::op_trace& o : replay) evicted += o.path ? 1 : 0;
    if (step_ && step_->serial == t->serial && evicted == evicted_) return;
    if (!step_ || step_->serial != t->serial) picked_ = false;
    if (!picked_) {  // a new step shows its first insert that evicted (as the Evictions view), else
                     // its first operation, until the arrows pick another
      op_ = 0;
      for (std::size_t i = 0; i < replay.size(); ++i)
        if (replay[i].path) {
          op_ = i;
          break;
        }
    }
    step_ = t;
    replay_ = std::move(replay);
    evicted_ = evicted;
    ++generation_;
  }
  // The operation shown, with arrows through the step's operations.
  bool draw_op_picker(const char* id) {
    if (!step_ || step_->ops.empty()) return false;
    ImGui::PushID(id);
    if (ImGui::ArrowButton("op-prev", ImGuiDir_Left) && op_ > 0) show_op(op_ - 1);
    ImGui::SameLine();
    if (ImGui::ArrowButton("op-next", ImGuiDir_Right)) show_op(op_ + 1);
    ImGui::SameLine();
    ImGui::Text("operation %zu of %zu of step %llu", op_ + 1, step_->ops.size(),
                static_cast<unsigned long long>(step_->serial));
    ImGui::PopID();
    return true;
  }
  void draw_code(view_context& ctx) {
    draw_op_picker("code");
    follow_op();
    code_.draw(ctx.height);
  }
  void draw_lanes(view_context& ctx) {
    draw_op_picker("lanes");
    follow_op();
    lanes_.draw(ctx.height);
  }
  const code_view& code() const { return code_; }
  const vis::tile_lanes_view& lanes() const { return lanes_; }
  void show_op(std::size_t i) {
    if (!step_ || i >= step_->ops.size()) return;
    op_ = i;
    picked_ = true;
  }

 private:
  void radix_changed() override {  // the code and the lanes write keys: made again
    lanes_shown_.forget();
    code_.forget_followed();
  }
  // The Code view and the lanes on the operation shown (each made once per replay and operation).
  void follow_op() {
    if (!step_ || op_ >= replay_.size()) {
      lanes_.clear(
          "No traced step yet: Step to see the lanes of the tile that serves one hive operation.");
      return;
    }
    code_.follow(generation_, op_, [&]() -> std::optional<code_walkthrough> {
      return hive_walkthrough(step_->ops[op_], replay_[op_], radix());
    });
    if (!lanes_shown_.show(generation_, op_)) return;
    if (replay_[op_].reads.empty())
      lanes_.clear("This operation read nothing (a reserved key is refused first).");
    else
      lanes_.set(tile_title(step_->ops[op_], tile_, radix()),
                 hive_lane_rounds(step_->ops[op_], replay_[op_], tile_, radix()), tile_legend());
  }

  vis::hive_view view_;
  std::shared_ptr<const step_trace> planned_step_;  // the session's last step at plan_sample
  int tile_ = hive::k_default_tile;
  std::vector<hive::path_record> paths_;  // from the latest sample
  bool paths_new_ = false;                // a sample came since the last replay
  std::shared_ptr<const step_trace> step_;
  std::vector<hive::op_trace> replay_;
  std::size_t evicted_ = 0, op_ = 0;
  bool picked_ = false;           // the arrows chose the operation shown
  std::uint64_t generation_ = 0;  // counts replays: the code and lanes views redo theirs
  code_view code_{&hive_english};
  vis::tile_lanes_view lanes_;
  step_follower lanes_shown_;
};

vis::hive_view& view_of(family_views& v) { return static_cast<hive_views&>(v).view(); }
const vis::hive_view& view_of(const family_views& v) {
  return static_cast<const hive_views&>(v).view();
}

void draw_buckets(family_views& v, view_context& ctx) {
  const sample_result& s = ctx.sample;
  if (const auto b =
          view_of(v).take_pick()) {  // a bucket clicked last frame: its slots, one cell each
    const std::uint64_t slots = std::max<std::uint32_t>(s.stats.hive.slots_per_bucket, 1),
                        cap = ctx.sess.capacity();
    ctx.heatmap.set_range(*b * slots, std::min(cap - *b * slots, 16 * slots), cap);
  }
  view_of(v).draw_buckets(s.inspected, s.stats, ctx.height);
}

constexpr view_entry k_views[] = {
    {"Buckets", "buckets", draw_buckets,
     [](const family_views&, const session&, const sample_result& r) {
       return vis::bucket_fill_csv(r.inspected.hive.bucket_fill);
     },
     [](const family_views&, const session&, const sample_result& r) -> std::optional<fig::figure> {
       return vis::hive_buckets_figure(r.inspected.hive.bucket_fill, r.stats);
     },
     [](const family_views& v) { return drawn_view::of(view_of(v)); }},
    {"Evictions", "evictions",
     [](family_views& v, view_context& ctx) {
       const sample_result& s = ctx.sample;
       view_of(v).draw_evictions(s.inspected, s.inspected.hive.paths, s.stats, ctx.sess.last_step(),
                                 ctx.time_s, ctx.height);
     },
     [](const family_views&, const session&, const sample_result& r) {
       return vis::paths_csv(r.inspected.hive.paths);
     },
     [](const family_views& v, const session& s,
        const sample_result& r) -> std::optional<fig::figure> {
       const auto range = view_of(v).arc_range();
       return vis::hive_evictions_figure(
           r.inspected.hive.paths, r.stats, range.first, range.second,
           vis::stepped_path(r.inspected.hive.paths, s.last_step().get()));
     }},
    code_entry<hive_views>(),
    lanes_entry<hive_views>(),
    {"Insert steps", "steps",
     [](family_views& v, view_context& ctx) {
       view_of(v).draw_steps(hive_steps(ctx.sess), ctx.sample.stats, ctx.height);
     },
     [](const family_views&, const session& s, const sample_result&) {
       return vis::steps_csv(hive_steps(s), k_steps_bin);
     },
     [](const family_views&, const session& s, const sample_result&) -> std::optional<fig::figure> {
       return vis::hive_steps_figure(hive_steps(s), k_steps_bin);
     }},
    {"Stash", "stash",
     [](family_views& v, view_context& ctx) {
       view_of(v).draw_stash(ctx.sample.inspected, ctx.sample.stats, ctx.height);
     },
     [](const family_views&, const session&, const sample_result& r) {
       return vis::stash_csv(r.inspected.hive.stash);
     },
     [](const family_views&, const session&, const sample_result& r) -> std::optional<fig::figure> {
       return vis::hive_stash_figure(r.inspected.hive.stash, r.stats);
     }},
    {"Resize", "resize",
     [](family_views& v, view_context& ctx) {
       view_of(v).draw_resize(ctx.sample.inspected, ctx.sample.stats, ctx.height);
     },
     [](const family_views&, const session&, const sample_result& r) {
       return vis::resize_csv(r.inspected, r.stats);
     },
     [](const family_views& v, const session&,
        const sample_result& r) -> std::optional<fig::figure> {
       return vis::hive_resize_figure(r.inspected.strip, r.stats, view_of(v).cmap());
     }},
};

// Bucket size, threads per operation, hash policy, eviction depth, stash size and automatic
// resizing apply by rebuilding; instrumentation switches on the running table at once.
void draw_controls(table_config& c, session& running, const table_stats& latest) {
  hive_options& o = c.hive;
  const int slots = o.bucket_slots ? o.bucket_slots : hive::k_default_slots;
  ImGui::TextDisabled("%s buckets of %d slots, %s of buckets",
                      format_count(c.capacity / slots).c_str(), slots,
                      format_bytes(c.capacity * 8).c_str());
  int s = slots == 8 ? 0 : slots == 16 ? 1 : 2;
  if (ImGui::Combo("slots/bucket", &s, "8\00016 (fastest)\00032 (paper)\0")) {
    o.bucket_slots = 8 << s;
    if (o.tile > o.bucket_slots) o.tile = 0;
  }
  int t = o.tile == 0    ? 0
          : o.tile == 2  ? 1
          : o.tile == 4  ? 2
          : o.tile == 8  ? 3
          : o.tile == 16 ? 4
                         : 5;
  if (ImGui::Combo("threads/op", &t, "auto\0002\0004\0008\00016\00032 (paper)\0"))
    o.tile = t == 0 ? 0 : 1 << t;
  const family_option& hashes = *find_option(describe(family::hive).options, "hashes");
  const std::string policy = hashes.get(c);
  if (ImGui::BeginCombo("hashes", policy.c_str())) {
    for (std::string_view p : hashes.choices)
      if (ImGui::Selectable(std::string(p).c_str(), policy == p)) hashes.set(c, std::string(p));
    ImGui::EndCombo();
  }
  ImGui::SliderInt("eviction depth", &o.eviction_depth, 0, hive::k_max_eviction_depth);
  float stash = static_cast<float>(o.stash_fraction * 100);
  if (ImGui::SliderFloat("stash", &stash, 0.f, 5.f, "%.1f%% of slots"))
    o.stash_fraction = stash / 100.0;
  ImGui::Checkbox("resize itself (linear hashing, 0.25 .. 0.9)", &o.auto_resize);
  if (auto* h = hive::as_hive(running.tbl())) {
    bool on = latest.hive.instrumented;
    if (ImGui::Checkbox("instrumentation (applies now)", &on)) {
      h->set_instrumentation(on);
      o.instrument = on;
    }
  }
}

}  // namespace

const family_ui& hive_ui() {
  static const family_ui u = [] {
    family_ui f;
    f.id = family::hive;
    f.views = k_views;
    f.make_views = [] { return std::unique_ptr<family_views>(new hive_views); };
    f.draw_table_controls = draw_controls;
    return f;
  }();
  return u;
}

}  // namespace hs::app
