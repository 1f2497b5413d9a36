// Frame layout and sampling. Panels never launch kernels: they read what sample() gathered.
#include "app/ui/app_frame.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <imgui.h>
#include <imgui_internal.h>  // MarkIniSettingsDirty

#include "app/ui/dock_layout.hpp"
#include "app/ui/record_views.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::app {

namespace {
double seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

app_frame::app_frame(session_config cfg, backend_choice choice, std::string backend_note)
    : choice_(choice), backend_note_(std::move(backend_note)), pending_(cfg) {
  rebuild(cfg);
  try {
    presets_ = shipped_scenarios();
  } catch (const std::exception&) {
  }
}

app_frame::~app_frame() = default;

void app_frame::rebuild(const session_config& cfg) {
  const std::optional<session_config> before = sess_ ? std::optional(sess_->config()) : std::nullopt;
  sampler_.reset();  // it samples the old session
  sess_.reset();     // frees the old table first: both may not fit at once
  image_.reset();
  const auto adopt = [&](const session_config& c) {
    sess_ = make_session(c);
    sampler_ = std::make_unique<sampler>(*sess_);
    pending_ = sess_->config();
    image_ = std::make_unique<vis::heatmap_image>(sess_->gpu());
    views_ = ui().make_views();
    heatmap_.set_marks({});  // a step's walk belongs to the table it was traced on
    last_ = {};
    last_sample_time_ = -1e9;
    // The CPU model samples a whole table per frame on one core: keep that to a few times a second.
    sample_period_s = sess_->gpu() ? 0.0 : 0.2;
  };
  try {
    adopt(cfg);
  } catch (const std::exception&) {
    // An impossible table (too large, a bad combination) must not leave the window without one:
    // the previous settings come back (emptied, as a rebuild empties) and the caller shows why.
    if (!before) throw;
    adopt(*before);
    throw;
  }
}

void app_frame::load_preset(const scenario& sc) {
  session_config cfg = sc.config;
  cfg.table.backend = sess_->config().table.backend;
  if (sc.backend == backend_choice::cpu) cfg.table.backend = backend::cpu;
  if (cfg.table.capacity == 0) cfg.table.capacity = default_capacity(cfg.table.backend);
  rebuild(cfg);
  heatmap_.set_colormap(sc.colormap);
  heatmap_.set_mode(sc.heatmap_mode);
  stop_compare();
  if (sc.compare.empty()) {
    sess_->queue(sc.script());
    return;
  }
  std::vector<compare_entry> entries = sc.compare;
  for (compare_entry& e : entries) {
    e.table.backend = cfg.table.backend;
    if (e.table.capacity == 0) e.table.capacity = cfg.table.capacity;
  }
  start_compare(entries);
  compare_->queue(sc.script());
}

sample_request app_frame::plan_sample(vis::heatmap_request& plan) {
  const std::uint64_t cap = sess_->capacity();
  plan = heatmap_.plan(cap);
  sample_request req;
  req.occupancy = plan.occupancy;
  req.probe_histogram = true;
  req.dump_first = plan.dump_first;
  req.dump_count = plan.dump_count;
  views_->plan_sample(*sess_, cap, req);
  return req;
}

void app_frame::show_sample() {
  if (views_) views_->sampled(last_);
  image_->update(last_.pixels, last_.space, static_cast<int>(last_req_.occupancy.width),
                 static_cast<int>(last_req_.occupancy.height), heatmap_.cmap(), heatmap_.style(), {});
}

void app_frame::sample(bool force) {
  const double now = seconds();
  if (!force && now - last_sample_time_ < sample_period_s) return;
  last_sample_time_ = now;
  const sample_request req = plan_sample(last_req_);
  sess_->sample(req, last_);
  show_sample();
}

// The window's path: never waits for the table. The newest finished sample is drawn; the next is
// asked for when the sampler is free (one at a time, so a slow sample delays the next rather than
// queueing them), the sample period has passed, and sampling stays within its share of the time:
// a sample of a huge table reads it whole several times, and every frame of those would slow the
// table's own work (bench live measures both).
void app_frame::sample_in_background() {
  if (sampler_->take(last_, last_req_)) show_sample();
  const double now = seconds();
  const double share = std::clamp(sampling_share, 0.01, 1.0);
  const double gap = std::max(sample_period_s, sampler_->last_sample_seconds() / share);
  if (sampler_->busy() || now - last_sample_time_ < gap) return;
  last_sample_time_ = now;
  vis::heatmap_request plan;
  const sample_request req = plan_sample(plan);
  sampler_->request(req, plan);
}

void app_frame::sample_now() {
  sample(true);
  if (compare_view_) compare_view_->sample_now();
}

void app_frame::draw_window() {
  try {
    sample_in_background();
    if (error_.rfind("sampling failed", 0) == 0) error_.clear();  // e.g. a frame planned before a shrink
  } catch (const std::exception& e) {
    error_ = std::string("sampling failed: ") + e.what();
  }
  handle_shortcuts();
  draw_menu_bar();
  draw_caption_bar();
  draw_status_bar();

  const family fam = sess_->config().table.family;
  const std::uint32_t bit = 1u << static_cast<unsigned>(fam);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const ImGuiID dockspace = ImGui::GetID("hashscope-dockspace");
  const bool lay_out = !(settings.layouts_built & bit);
  if (lay_out) {
    build_default_layout(dockspace, vp->WorkSize, ui().windows);
    settings.layouts_built |= bit;
    ImGui::MarkIniSettingsDirty();
    tabs_forward_in_ = 2;
    tabs_forward_frame_ = 0;
  }
  ImGui::DockSpaceOverViewport(dockspace, vp);

  if (!presenting_) {  // presenting: the views and the story only
    if (ImGui::Begin(window_name::controls)) draw_controls();
    ImGui::End();
  }
  if (ImGui::Begin(window_name::numbers)) draw_stats();
  ImGui::End();
  if (ImGui::Begin(window_name::heatmap, nullptr, ImGuiWindowFlags_NoScrollbar)) {
    draw_status_line();
    heatmap_.draw(*image_, last_req_, last_.inspected.slots, sess_->capacity());
  }
  ImGui::End();
  if (ImGui::Begin(window_name::throughput)) {
    const auto pts = sess_->throughput();
    throughput_.draw(throughput_input_of(pts));
  }
  ImGui::End();
  if (ImGui::Begin(window_name::timeline)) {
    bool record = sess_->recording_timeline();
    if (ImGui::Checkbox("record churn timeline (a census per batch)", &record)) sess_->set_record_timeline(record);
    const auto pts = sess_->timeline();
    const auto ev = sess_->rebuilds();
    churn_.draw(churn_input_of(pts, ev), explain_tombstones());
  }
  ImGui::End();
  draw_family_windows();
  draw_compare_window();
  draw_compare_dialog();
  draw_help_overlay();
  if (tabs_forward_in_ > 0) --tabs_forward_in_;
  else if (tabs_forward_frame_ >= 0 && bring_default_tabs_forward(ui().windows, tabs_forward_frame_++)) tabs_forward_frame_ = -1;
}

bool app_frame::explain_tombstones() const {
  const auto explains = ui().explains_tombstone_inserts;
  return explains && explains(sess_->config().table);
}

std::string app_frame::figure_csv(std::string_view view) const { return views_->figure_csv(view, *sess_, last_); }

view_context app_frame::context(float height, double time_s) {
  return view_context{*sess_, last_, heatmap_, histogram_, height, time_s};
}

void app_frame::draw_family_windows() {
  view_context ctx = context(0, ImGui::GetTime());
  for (const char* name : ui().windows) {
    if (ImGui::Begin(name)) views_->draw_window(name, ctx);
    ImGui::End();
  }
}

void app_frame::draw_backend_label() {
  const bool cpu = !sess_->gpu();
  ImGui::TextColored(role_color(cpu ? ui_role::cpu_backend : ui_role::gpu_backend, ui_theme), "%s",
                     cpu ? "CPU model backend" : sess_->backend_label().c_str());
}

void app_frame::draw_note(const session_status& st, const char* prefix) {
  if (st.note.empty()) return;
  const ImVec4 c = st.error ? role_color(ui_role::error, ui_theme) : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
  ImGui::TextColored(c, "%s%s", prefix, st.note.c_str());
}

void app_frame::draw_status_line() {
  const session_status st = sess_->status();
  draw_backend_label();
  ImGui::SameLine();
  ImGui::Text("| %s | load %.4f | %s", to_string(st.act), last_.stats.load_factor(),
              format_count(last_.stats.capacity).c_str());
  if (!st.note.empty()) ImGui::SameLine();
  draw_note(st, "| ");
}

std::array<float, 4> app_frame::draw_figure(std::string_view view, float width, float height, const std::string& title) {
  const std::optional<view_kind> common = parse_view_kind(view);  // else one of the family's figures
  const bool stats_only = common == view_kind::stats || common == view_kind::compare;  // compare: numbers per column
  const float fs = ImGui::GetFontSize();
  const float side = stats_only ? 0.f : std::min(26.f * fs, width * 0.34f);
  const float view_w = width - side;
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, height), ImGuiCond_Always);
  std::array<float, 4> rect{};
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoScrollbar;
  if (ImGui::Begin("figure", nullptr, flags)) {
    ImGui::TextUnformatted(title.c_str());
    if (common != view_kind::compare) draw_status_line();  // compare: each column says its own
    ImGui::Separator();
    // The stage's caption (a scenario's `say`) goes under the view and the numbers.
    const std::string caption = sess_->status().caption;
    const float caption_h = caption.empty() ? 0.f
                                            : ImGui::CalcTextSize(caption.c_str(), nullptr, false,
                                                                  width - 2 * ImGui::GetStyle().WindowPadding.x).y +
                                                  2 * ImGui::GetStyle().ItemSpacing.y;
    ImGui::BeginChild("view", ImVec2(view_w - 2 * ImGui::GetStyle().WindowPadding.x, -caption_h), ImGuiChildFlags_None,
                      ImGuiWindowFlags_NoScrollbar);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    rect = {origin.x, origin.y, avail.x, avail.y};  // the view's area; the heatmap narrows it to its image
    if (!common) {
      view_context ctx = context(avail.y - fs, -1.0);
      views_->draw_figure(view, ctx);
    } else {
      switch (*common) {
        case view_kind::heatmap: {
          const float legend_w = heatmap_.legend_width(), gap = ImGui::GetStyle().ItemSpacing.x;
          heatmap_.set_area(static_cast<int>(avail.x - legend_w - gap), static_cast<int>(avail.y));
          const ImVec2 at = ImGui::GetCursorScreenPos();
          heatmap_.draw_figure(*image_, last_.inspected.slots, sess_->capacity());
          const ImVec2 end = ImGui::GetItemRectMax();
          rect = {at.x, at.y, end.x - at.x, end.y - at.y};
          ImGui::SameLine();
          heatmap_.draw_legend(ImVec2(legend_w, end.y - at.y));
          break;
        }
        case view_kind::histogram:
          histogram_.draw(last_.inspected.histogram, avail.y - 2 * fs);
          break;
        case view_kind::throughput: {
          const auto pts = sess_->throughput();
          throughput_.draw(throughput_input_of(pts), avail.y - 2 * fs);
          break;
        }
        case view_kind::timeline: {
          const auto pts = sess_->timeline();
          const auto ev = sess_->rebuilds();
          churn_.draw(churn_input_of(pts, ev), explain_tombstones(), avail.y - 6 * fs);
          break;
        }
        case view_kind::stats:
          draw_stats();
          break;
        case view_kind::compare:
          if (compare_view_) compare_view_->draw(false, avail.y);
          break;
      }
    }
    ImGui::EndChild();
    if (!stats_only) {
      ImGui::SameLine();
      ImGui::BeginChild("numbers", ImVec2(0, -caption_h), ImGuiChildFlags_Borders);
      draw_stats();
      ImGui::EndChild();
    }
    if (!caption.empty()) {
      ImGui::PushTextWrapPos(0.f);
      ImGui::TextUnformatted(caption.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  ImGui::End();
  return rect;
}

}  // namespace hs::app
