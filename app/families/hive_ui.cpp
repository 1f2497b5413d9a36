// The hive family in the app: buckets, evictions, insert steps, stash and resize windows (a
// bucket picked in a strip zooms the heatmap onto its slots), its table controls, its counts, and
// the per-batch record of inserts by step.
#include "app/families/hive_ui.hpp"

#include <algorithm>

#include <imgui.h>

#include "app/session/session.hpp"
#include "core/common/format.hpp"
#include "core/hive/hive_family.hpp"
#include "visualizers/views/heatmap_view.hpp"
#include "visualizers/views/hive_figures.hpp"

namespace hs::app {

namespace {

constexpr const char* k_buckets = "Buckets";
constexpr const char* k_evictions = "Evictions";
constexpr const char* k_steps = "Insert steps";
constexpr const char* k_stash = "Stash";
constexpr const char* k_resize = "Resize";
constexpr const char* k_windows[] = {k_buckets, k_evictions, k_steps, k_stash, k_resize};
constexpr std::string_view k_figures[] = {"buckets", "evictions", "steps", "stash", "resize"};
constexpr std::size_t k_points_max = 20000;  // then the oldest quarter goes
constexpr double k_steps_bin = 0.02;         // load bins of the steps figure's CSV

class hive_views final : public family_views {
 public:
  void plan_sample(const session& s, std::uint64_t capacity, sample_request& req) override {
    req.bucket_fill = true;
    req.stash = true;
    req.paths = true;
    const int slots = s.config().table.hive.bucket_slots ? s.config().table.hive.bucket_slots : hive::k_default_slots;
    req.strip = bucket_strip_query{0, capacity / static_cast<std::uint64_t>(slots), view_.strip_width()};  // every bucket in use
  }
  void draw_window(std::string_view name, view_context& ctx) override {
    const sample_result& s = ctx.sample;
    if (name == k_buckets) {
      if (const auto b = view_.take_pick()) {  // a bucket clicked last frame: its slots, one cell each
        const std::uint64_t slots = std::max<std::uint32_t>(s.stats.hive.slots_per_bucket, 1), cap = ctx.sess.capacity();
        ctx.heatmap.set_range(*b * slots, std::min(cap - *b * slots, 16 * slots), cap);
      }
    }
    draw(name == k_buckets ? "buckets" : name == k_evictions ? "evictions" : name == k_steps ? "steps" : name == k_stash ? "stash" : "resize",
         ctx);
  }
  void draw_figure(std::string_view name, view_context& ctx) override { draw(name, ctx); }
  std::string figure_csv(std::string_view name, const session& s, const sample_result& r) const override {
    if (name == "buckets") return vis::bucket_fill_csv(r.inspected.bucket_fill);
    if (name == "evictions") return vis::paths_csv(r.inspected.paths);
    if (name == "steps") return vis::steps_csv(hive_steps(s), k_steps_bin);
    if (name == "stash") return vis::stash_csv(r.inspected.stash);
    return vis::resize_csv(r.inspected, r.stats);
  }
  std::optional<fig::figure> paper_figure(std::string_view name, const session& s, const sample_result& r) const override {
    if (name == "buckets") return vis::hive_buckets_figure(r.inspected.bucket_fill, r.stats);
    if (name == "steps") return vis::hive_steps_figure(hive_steps(s), k_steps_bin);
    if (name == "evictions") return vis::hive_evictions_figure(r.inspected.paths, r.stats, view_.arc_range().first, view_.arc_range().second,
                                                                vis::stepped_path(r.inspected.paths, s.last_step().get()));
    if (name == "stash") return vis::hive_stash_figure(r.inspected.stash, r.stats);
    return vis::hive_resize_figure(r.inspected.strip, r.stats, view_.cmap());
  }
  void set_bucket_range(std::uint64_t first, std::uint64_t count) override { view_.set_arc_range(first, count); }
  const vis::hive_view& view() const { return view_; }

 private:
  void draw(std::string_view name, view_context& ctx) {
    const sample_result& s = ctx.sample;
    if (name == "buckets") view_.draw_buckets(s.inspected, s.stats, ctx.height);
    else if (name == "evictions")
      view_.draw_evictions(s.inspected, s.inspected.paths, s.stats, ctx.sess.last_step(), ctx.time_s, ctx.height);
    else if (name == "steps") view_.draw_steps(hive_steps(ctx.sess), s.stats, ctx.height);
    else if (name == "stash") view_.draw_stash(s.inspected, s.stats, ctx.height);
    else view_.draw_resize(s.inspected, s.stats, ctx.height);
  }
  vis::hive_view view_;
};

// The policies bench hive compares: the default pair first.
constexpr const char* k_policies[] = {"bithash1+bithash2", "murmur3+city", "murmur3+bithash1", "crc32+murmur3",
                                      "bithash1+bithash2+city", "murmur3+city+crc32"};

void prepare(table_config& c) { c.hive.instrument = true; }  // its views draw the counters

// Bucket size, threads per operation, hash policy, eviction depth, stash size and automatic
// resizing apply by rebuilding; instrumentation switches on the running table at once.
void draw_controls(table_config& c, session& running, const table_stats& latest) {
  hive_options& o = c.hive;
  const int slots = o.bucket_slots ? o.bucket_slots : hive::k_default_slots;
  ImGui::TextDisabled("%s buckets of %d slots, %s of buckets", format_count(c.capacity / slots).c_str(), slots,
                      format_bytes(c.capacity * 8).c_str());
  int s = slots == 8 ? 0 : slots == 16 ? 1 : 2;
  if (ImGui::Combo("slots/bucket", &s, "8\00016 (fastest)\00032 (paper)\0")) {
    o.bucket_slots = 8 << s;
    if (o.tile > o.bucket_slots) o.tile = 0;
  }
  int t = o.tile == 0 ? 0 : o.tile == 2 ? 1 : o.tile == 4 ? 2 : o.tile == 8 ? 3 : o.tile == 16 ? 4 : 5;
  if (ImGui::Combo("threads/op", &t, "auto\0002\0004\0008\00016\00032 (paper)\0")) o.tile = t == 0 ? 0 : 1 << t;
  const std::string policy = o.hashes.empty() ? k_policies[0] : o.hashes;
  if (ImGui::BeginCombo("hashes", policy.c_str())) {
    for (const char* p : k_policies)
      if (ImGui::Selectable(p, policy == p)) o.hashes = p;
    ImGui::EndCombo();
  }
  ImGui::SliderInt("eviction depth", &o.eviction_depth, 0, hive::k_max_eviction_depth);
  float stash = static_cast<float>(o.stash_fraction * 100);
  if (ImGui::SliderFloat("stash", &stash, 0.f, 5.f, "%.1f%% of slots")) o.stash_fraction = stash / 100.0;
  ImGui::Checkbox("resize itself (linear hashing, 0.25 .. 0.9)", &o.auto_resize);
  if (auto* h = hive::as_hive(running.tbl())) {
    bool on = latest.hive.instrumented;
    if (ImGui::Checkbox("instrumentation (applies now)", &on)) {
      h->set_instrumentation(on);
      o.instrument = on;
    }
  }
}

void about_rows(number_rows& n, const session& s, const table_stats& t) {
  const hive_options& o = s.config().table.hive;
  n.emplace_back("hive", strprintf("%u slots/bucket, %s, depth %d, stash %.1f%%, %s, instrumentation %s", t.hive.slots_per_bucket,
                                   o.hashes.empty() ? "bithash1+bithash2" : o.hashes.c_str(), o.eviction_depth,
                                   100 * o.stash_fraction, o.auto_resize ? "resizes itself" : "fixed size",
                                   t.hive.instrumented ? "on" : "off"));
}

void count_rows(number_rows& n, const session&, const sample_result& r) {
  const hive_counters& h = r.stats.hive;
  n.emplace_back("buckets (round+split)", strprintf("%s (%s + %s)", format_count(h.buckets).c_str(),
                                                      format_count(h.round).c_str(), format_count(h.split).c_str()));
  n.emplace_back("stash (live / slots)", format_count(h.stash_live) + " / " + format_count(h.stash_capacity));
  if (h.steps[0] + h.steps[1] + h.steps[2] + h.steps[3])
    n.emplace_back("inserts by step", strprintf("replace %s, claim %s, evict %s, stash %s", format_count(h.steps[0]).c_str(),
                                                format_count(h.steps[1]).c_str(), format_count(h.steps[2]).c_str(),
                                                format_count(h.steps[3]).c_str()));
  n.emplace_back("evictions", "moves " + format_count(h.moves) + ", locks " + format_count(h.locks) + ", restarts " +
                                  format_count(h.restarts));
  n.emplace_back("splits / merges (refused)", format_count(h.splits) + " / " + format_count(h.merges) + " (" +
                                                   format_count(h.merges_refused) + ")");
  n.emplace_back("load factor (live / slots)", strprintf("%.4f", r.stats.load_factor()));
}

}  // namespace

// Steps are counted between two batches' counter copies, so each point spans the load from the
// previous point to this one (the first from the load before its batch).
void hive_steps_recorder::record(const batch_record& b) {
  std::lock_guard lock(mutex_);
  vis::hive_step_point p;
  p.load_before = points_.empty() ? b.load_before : points_.back().load_after;
  p.load_after = double(b.live) / double(std::max<std::uint64_t>(b.capacity, 1));
  const auto after = [&](int i) { return i < int(b.counters.size()) ? b.counters[i] : 0; };
  for (int i = 0; i < 4; ++i) p.steps[i] = after(i) - std::min(after(i), before_[i]);
  p.moves = after(4) - std::min(after(4), before_[4]);
  for (int i = 0; i < 5; ++i) before_[i] = after(i);
  points_.push_back(p);
  if (points_.size() > k_points_max) points_.erase(points_.begin(), points_.begin() + k_points_max / 4);
}

void hive_steps_recorder::clear() {
  std::lock_guard lock(mutex_);
  points_.clear();
  std::fill(std::begin(before_), std::end(before_), 0);
}

std::vector<vis::hive_step_point> hive_steps_recorder::points() const {
  std::lock_guard lock(mutex_);
  return points_;
}

std::vector<vis::hive_step_point> hive_steps(const session& s) {
  const auto* r = dynamic_cast<const hive_steps_recorder*>(s.recorder());
  return r ? r->points() : std::vector<vis::hive_step_point>{};
}

const vis::hive_view* hive_view_of(const family_views* v) {
  const auto* h = dynamic_cast<const hive_views*>(v);
  return h ? &h->view() : nullptr;
}

const family_ui& hive_ui() {
  static const family_ui u = [] {
    family_ui f;
    f.id = family::hive;
    f.windows = k_windows;
    f.figures = k_figures;
    f.make_views = [] { return std::unique_ptr<family_views>(new hive_views); };
    f.prepare = prepare;
    f.draw_table_controls = draw_controls;
    f.common_hash = false;
    f.about_rows = about_rows;
    f.count_rows = count_rows;
    f.histogram_measure = "candidate index";
    f.failed_label = "refused (stash full)";
    f.make_recorder = [] { return std::unique_ptr<batch_recorder>(new hive_steps_recorder); };
    return f;
  }();
  return u;
}

}  // namespace hs::app
