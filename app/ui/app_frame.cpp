// The frame: the table's lifecycle, sampling, the commands, and the panels drawn in order.
// Panels never launch kernels: they read what a sample gathered.
#include "app/ui/app_frame.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <imgui.h>
#include <imgui_internal.h>  // MarkIniSettingsDirty

#include "app/session/gpu_fault_notice.hpp"
#include "app/teach/code_view.hpp"
#include "app/ui/dock_layout.hpp"
#include "core/common/error.hpp"
#include "core/table/table_file.hpp"

namespace hs::app {

app_frame::app_frame(session_config cfg, backend_choice choice, std::string backend_note) {
  state_.choice = choice;
  state_.backend_note = std::move(backend_note);
  state_.actions = this;
  panels_ = common_panels();
  if (cfg.workload.key_file) {  // --keys: the Workload section shows it and can come back to it
    state_.last_keys = cfg.workload.key_file;
    state_.key_source = cfg.workload.key_file->source;
  }
  rebuild(cfg);
}

app_frame::~app_frame() {
  stop_compare();
  sampler_.reset();  // it samples the session
}

void app_frame::rebuild(const session_config& cfg) { rebuild(cfg, nullptr); }

void app_frame::rebuild(const session_config& cfg, std::unique_ptr<session> made) {
  const std::optional<session_config> before =
      state_.sess ? std::optional(state_.sess->config()) : std::nullopt;
  sampler_.reset();     // it samples the old session
  state_.sess.reset();  // frees the old table first: both may not fit at once
  state_.image.reset();
  const auto adopt = [&](const session_config& c) {
    state_.sess = made ? std::move(made) : make_session(c);
    sampler_ = std::make_unique<sampler>(*state_.sess);
    state_.image = std::make_unique<vis::heatmap_image>(state_.sess->gpu());
    state_.views = state_.ui().make_views();
    ++state_.table_serial;
    state_.heatmap.set_marks({});  // a step's walk belongs to the table it was traced on
    state_.sample = {};
    state_.freshness = {};
    state_.freshness.never = true;
    asked_version_ = ~0ull;
    asked_at_ = -1e9;
    // The CPU model samples on one core what the GPU samples in parallel: a few times a second.
    state_.sampling.period_s = state_.sess->gpu() ? 0.0 : 0.2;
  };
  state_.loaded_scenario.clear();  // a table made otherwise is no scenario's
  ++state_.loaded_serial;
  state_.ended_caption.clear();
  state_.given_radix = key_radix::hex;  // its keys come from the generator
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
  cfg.table.backend = state_.sess->config().table.backend;
  if (sc.backend == backend_choice::cpu) cfg.table.backend = backend::cpu;
  if (cfg.table.capacity == 0) cfg.table.capacity = default_capacity(cfg.table.backend);
  std::vector<compare_entry> entries = sc.compare;
  for (compare_entry& e : entries) {
    e.table.backend = cfg.table.backend;
    if (e.table.capacity == 0) e.table.capacity = cfg.table.capacity;
  }
  rebuild(cfg);
  state_.loaded_scenario = sc.name;
  state_.given_radix = sc.keys_radix;
  ++state_.loaded_serial;
  state_.heatmap.set_colormap(sc.colormap);
  state_.heatmap.set_mode(sc.heatmap_mode);
  stop_compare();
  if (entries.empty()) {
    state_.sess->queue(sc.script());
    return;
  }
  start_compare(entries);
  state_.compare->queue(sc.script());
}

void app_frame::start_compare(const std::vector<compare_entry>& entries) {
  session_config base = state_.sess->config();
  base.workload = state_.sess->workload();
  auto set = std::make_unique<compare_set>(entries, base);  // throws before anything changes
  stop_compare();
  state_.compare = std::move(set);
  state_.compare_figure = std::make_unique<compare_view>(*state_.compare);
  if (!state_.sess->gpu())
    state_.compare_figure->period_s = 0.3;  // the CPU models sample on one core each
  state_.compare_focused =
      true;  // the keys drive what was just made, and its window comes to the front
  state_.focus_compare = true;
}

void app_frame::stop_compare() {
  state_.compare_figure.reset();
  state_.compare.reset();
  state_.compare_focused = false;
}

sample_request app_frame::plan_sample(vis::heatmap_request& plan) {
  const std::uint64_t cap = state_.sess->capacity();
  plan = state_.heatmap.plan(cap);
  sample_request req;
  req.occupancy = plan.occupancy;
  req.probe_histogram = true;
  req.dump_first = plan.dump_first;
  req.dump_count = plan.dump_count;
  state_.views->plan_sample(*state_.sess, cap, req);
  return req;
}

void app_frame::show_sample() {
  if (state_.views) state_.views->sampled(state_.sample);
  state_.image->update(state_.sample.pixels, state_.sample.space,
                       static_cast<int>(state_.request.occupancy.width),
                       static_cast<int>(state_.request.occupancy.height), state_.heatmap.cmap(),
                       state_.heatmap.style(), {});
}

void app_frame::update_freshness() {
  sample_freshness& fr = state_.freshness;
  const double now = steady_seconds();
  fr.never = state_.sample.taken_at == 0;
  fr.age_s = fr.never ? 0 : now - state_.sample.taken_at;
  fr.sampling = sampler_ && sampler_->busy();
  fr.before_fault = state_.sess->lost();
  // Old: the table changed since the sample began and rests, so a newer one is on its way (while
  // batches run, every sample is a few batches behind, which is no news).
  fr.old = !fr.never && state_.sample.version < state_.sess->version() && state_.sess->at_rest();
}

void app_frame::sample(bool force) {
  const double now = steady_seconds();
  if (!force && now - last_figure_sample_ < state_.sampling.period_s) return;
  last_figure_sample_ = now;
  const sample_request req = plan_sample(state_.request);
  state_.sess->sample(req, state_.sample);
  show_sample();
  update_freshness();
}

// The window's path: never waits for the table. The newest finished sample is drawn; the next is
// asked for as sampling_policy says: at once when the table changed and rests (behind a sample
// already running, if one is), else within the share of the time, capped.
void app_frame::sample_in_background() {
  if (sampler_->take(state_.sample, state_.request)) {
    show_sample();
    state_.sample_seconds = sampler_->last_sample_seconds();
  }
  session& s = *state_.sess;
  vis::heatmap_request plan;
  const sample_request req = plan_sample(plan);
  const bool changed = s.version() != asked_version_ || !same_reading(req, asked_);
  const bool at_rest = s.at_rest();
  const bool now_please = changed && at_rest;
  const double now = steady_seconds();
  if (!sampler_->pending() && (!sampler_->running() || now_please) &&
      state_.sampling.due(now - asked_at_, sampler_->last_sample_seconds(), changed, at_rest)) {
    asked_version_ = s.version();
    asked_at_ = now;
    asked_ = req;
    sampler_->request(req, plan);
  }
  update_freshness();
}

bool app_frame::tables_lost() const {
  if (state_.sess->lost()) return true;
  if (!state_.compare) return false;
  for (std::size_t i = 0; i < state_.compare->size(); ++i)
    if (state_.compare->at(i).lost()) return true;
  return false;
}

bool app_frame::table_changing() const {
  if (!state_.sess->at_rest()) return true;
  if (!state_.compare) return false;
  for (std::size_t i = 0; i < state_.compare->size(); ++i)
    if (!state_.compare->at(i).at_rest()) return true;
  return false;
}

void app_frame::sample_now() {
  sample(true);
  if (state_.compare_figure) state_.compare_figure->sample_now();
}

const panel* app_frame::find_panel(std::string_view title) const {
  for (auto* list : {&panels_, &family_panels_})
    for (const auto& p : *list)
      if (title == p->title()) return p.get();
  return nullptr;
}

void app_frame::execute(command c, key_target t) {
  if (c == command::step && !state_.typed.error().empty()) {  // a typed entry that is no key
    state_.error = "nothing stepped: " + state_.typed.error();
    return;
  }
  if (drives_tables(c)) {
    // The user's own run, step or fill moves the table away from the stage its caption describes.
    if (t == key_target::main_table && (c == command::step || c == command::fill ||
                                        (c == command::run_pause && !state_.sess->running())))
      state_.ended_caption = state_.sess->status().caption;
    // The same command on one table or on every compared one.
    const auto drive = [&](auto& tables) {
      switch (c) {
        case command::run_pause: tables.running() ? tables.pause() : tables.run(); break;
        case command::step:
          if (const auto op = state_.typed.next()) {  // the typed keys, one by one
            tables.step(std::vector<given_op>{*op});
            state_.typed.advance();  // after the step: a key a table refused stays next
          } else
            tables.step(static_cast<std::uint64_t>(state_.step_ops));
          break;
        case command::fill: tables.fill_to(state_.target_load); break;
        case command::reset: tables.reset(); break;
        case command::next_stage:
          if (tables.held())
            tables.continue_script();
          else
            notify(
                "no stage waits: load a preset (Controls > Run, or File > Open scenario) to step "
                "through its stages");
          break;
        default: break;
      }
    };
    try {
      if (t == key_target::compared_tables && state_.compare)
        drive(*state_.compare);
      else
        drive(*state_.sess);
    } catch (const user_error& e) {  // typed keys a table cannot take: nothing stepped
      state_.error = std::string("nothing stepped: ") + e.what();
    }
    return;
  }
  switch (c) {
    case command::text_bigger: change_font_size(+2.f); break;
    case command::text_smaller: change_font_size(-2.f); break;
    case command::fullscreen: fullscreen_requested = true; break;
    case command::screenshot: screenshot_requested = true; break;
    case command::help: help_open_ = !help_open_; break;
    case command::present: set_presenting(!state_.presenting); break;
    case command::leave_present: set_presenting(false); break;
    case command::back:
    case command::forward: go_back_or_forward(c, t); break;
    case command::open_scenario:
    case command::open_key_file:
    case command::save_scenario:
    case command::open_table:
    case command::save_table:
    case command::export_figures: files_.ask(c); break;
    case command::quit: quit_requested = true; break;
    default: break;
  }
}

void app_frame::go_back_or_forward(command c, key_target t) {
  try {
    if (t == key_target::compared_tables && state_.compare)
      c == command::back ? state_.compare->back() : state_.compare->forward();
    else
      c == command::back ? state_.sess->back() : state_.sess->forward();
    state_.error.clear();
    state_.ended_caption.clear();  // the caption is the restored stage's again
    state_.question.reset();       // an undone step's reveal is gone with it
    state_.heatmap.set_marks({});  // a step's walk belongs to the table it was traced on
  } catch (const user_error& e) {
    notify(e.what());
    state_.error = e.what();
  }
}

void app_frame::open_table(const std::string& path) {
  const table_state st = read_table_file(path);  // a bad file is refused before anything changes
  session_config cfg = state_.sess->config();
  cfg.table = st.config;
  cfg.table.backend = state_.sess->config().table.backend;
  cfg.workload = state_.sess->workload();
  // The new table is made and restored beside the old one where memory allows: a state it
  // refuses leaves the window's table as it was. Where both do not fit, the old one goes first.
  std::unique_ptr<session> made;
  try {
    made = make_session(cfg);
    made->restore(st, path);
  } catch (const user_error&) {
    throw;
  } catch (const std::exception&) {
    made.reset();
  }
  stop_compare();
  const bool restored = made != nullptr;
  rebuild(cfg, std::move(made));
  if (!restored) state_.sess->restore(st, path);
  state_.loaded_scenario.clear();
  notify(state_.sess->status().note);
}

void app_frame::change_font_size(float delta) {
  std::string why;
  state_.font_size = clamp_font_size(std::round(state_.font_size + delta), &why);
  if (!why.empty()) notify(why);
}

void app_frame::handle_shortcuts() {
  if (question_keys(state_)) return;  // the arrows and Enter answer a waiting question
  const auto c = pressed_command();
  if (!c) return;
  // Presenting, Space tells the story on: the next stage, as N does.
  execute(state_.presenting && *c == command::run_pause ? command::next_stage : *c,
          state_.keys_drive());
}

void app_frame::draw_panels() {
  // A panel may make a new table (Apply, a preset): the family's windows are made for it before
  // the next frame, and this frame draws no panel of the old one.
  if (family_panels_serial_ != state_.table_serial) {
    family_panels_ = family_panels(state_.ui());
    family_panels_serial_ = state_.table_serial;
  }
  const std::uint64_t serial = state_.table_serial;
  for (auto* list : {&panels_, &family_panels_})
    for (const auto& p : *list) {
      if (state_.table_serial != serial) return;
      if (!p->shown(state_)) continue;
      p->place(state_);
      bool open = true;
      if (ImGui::Begin(p->title(), p->closable() ? &open : nullptr, p->flags()))
        p->draw(state_);
      else
        p->hidden(state_);
      ImGui::End();
      if (!open) p->closed(state_);
    }
}

void app_frame::load_key_file(const std::string& path) {
  state_.key_source.path = path;
  state_.key_source.width = state_.sess->config().table.width;  // read for this table
  state_.key_loader.start(state_.key_source);
}

void app_frame::use_keys(std::shared_ptr<const workload::key_list> keys) {
  workload::workload_spec w = state_.sess->workload();
  w.keys.dist = workload::distribution::file;
  w.key_file = keys;
  state_.sess->set_workload(w);
  if (state_.compare)
    for (std::size_t i = 0; i < state_.compare->size(); ++i) {
      workload::workload_spec cw = state_.compare->at(i).workload();
      cw.keys.dist = workload::distribution::file;
      cw.key_file = keys;
      state_.compare->at(i).set_workload(cw);
    }
  state_.last_keys = std::move(keys);
}

void app_frame::take_key_file() {
  auto r = state_.key_loader.take();
  if (!r) return;
  if (!r->keys) {
    state_.error = "key file not read: " + r->error;
    return;
  }
  use_keys(r->keys);
  state_.error.clear();
  notify("keys from " + r->keys->source.path + ": " + r->keys->report.summary());
}

void app_frame::write_keys_as_given() {
  state_.heatmap.set_key_radix(state_.keys_radix());
  if (state_.views) state_.views->set_key_radix(state_.keys_radix());
}

void app_frame::draw_window() {
  write_keys_as_given();
  take_key_file();
  update_question(state_);
  state_.gpu_fault = tables_lost() ? gpu_lost_note() : std::string();
  if (!state_.gpu_fault.empty()) {
    // Nothing more is asked of the GPU, and no sample finished since is shown (session::sample).
    state_.sampling_error.clear();
    update_freshness();
  } else {
    try {
      sample_in_background();
      state_.sampling_error.clear();  // e.g. a frame planned before a shrink: the next one is fine
    } catch (const std::exception& e) {
      state_.sampling_error = std::string("sampling failed: ") + e.what();
    }
  }
  handle_shortcuts();
  draw_menu_bar();
  draw_caption_bar();
  draw_status_bar();

  const std::uint32_t bit = 1u << static_cast<unsigned>(state_.sess->config().table.family);
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const ImGuiID dockspace = ImGui::GetID("hashscope-dockspace");
  const std::vector<const char*> family_windows = state_.ui().window_titles();
  if (!(state_.settings.layouts_built & bit)) {
    build_default_layout(dockspace, vp->WorkSize, family_windows);
    state_.settings.layouts_built |= bit;
    ImGui::MarkIniSettingsDirty();
    // The layout's front tabs: the family's first view, and the throughput (the GPUs window for a
    // table over several devices).
    to_front_.clear();
    if (!family_windows.empty()) to_front_.push_back(family_windows.front());
    to_front_.push_back(state_.sess->config().table.devices > 1 ? window_name::devices
                                                                : window_name::throughput);
    to_front_in_ = 2;
  }
  bring_stage_views_forward();
  fit_code_view(dockspace, vp->WorkSize, family_windows);
  ImGui::DockSpaceOverViewport(dockspace, vp);
  draw_panels();
  compare_setup_.draw(state_);
  files_.draw_dialogs(state_, *this);
  draw_help_overlay();
  draw_question(state_);
  bring_queued_window_forward();
}

bool app_frame::windows_settled() const {
  // A stage the session reached since the last frame has not queued its windows yet.
  const session_status st = state_.sess->status();
  if (st.script_held && std::pair{state_.table_serial, st.stages_reached} != stage_shown_)
    return false;
  return !fit_code_pending_ && to_front_.empty() && to_front_in_ == 0;
}

void app_frame::bring_stage_views_forward() {
  const session_status st = state_.sess->status();
  const std::pair<std::uint64_t, std::uint64_t> stage{state_.table_serial, st.stages_reached};
  if (!st.script_held || stage == stage_shown_) return;
  stage_shown_ = stage;
  const family_ui& u = state_.ui();
  stage_windows_.clear();
  for (const std::string& v : st.stage_views) {
    const view_entry* e = u.figure(v);
    const char* title = e ? e->title : window_of_view(v, u.histogram_window);
    if (title) stage_windows_.push_back(title);
    if (v == "code" && e && e->drawn) {
      const code_view* cv = e->drawn(*state_.views).as<code_view>();
      fit_code_pending_ = cv != nullptr;
      fit_code_frames_ = cv ? cv->drawn().frames : 0;
    }
  }
  to_front_.insert(to_front_.end(), stage_windows_.begin(), stage_windows_.end());
}

void app_frame::fit_code_view(ImGuiID dockspace, ImVec2 size,
                              std::span<const char* const> family_windows) {
  if (!fit_code_pending_ || !to_front_.empty() || to_front_in_ > 0) return;
  const view_entry* e = state_.ui().figure("code");
  const code_view* cv = e && e->drawn ? e->drawn(*state_.views).as<code_view>() : nullptr;
  if (!cv) {
    fit_code_pending_ = false;
    return;
  }
  const code_view::drawn_state& d = cv->drawn();
  if (d.frames < fit_code_frames_ + 2) return;  // not drawn in front yet with the stage's step
  fit_code_pending_ = false;
  if (d.width_had >= d.width_needed) return;
  // Presenting, Space and N tell the lesson: the controls' column narrows to give the code room.
  build_teaching_layout(dockspace, size, family_windows, state_.presenting ? 0.14f : 0.2f);
  ImGui::MarkIniSettingsDirty();
  to_front_ = stage_windows_;  // a new layout's front tabs are its first: the stage's again
  to_front_in_ = 2;
}

// A window comes forward by taking focus, which the Compare window keeps while it is open (its
// keys drive the compared tables).
void app_frame::bring_queued_window_forward() {
  if (state_.compare) to_front_.clear();
  if (to_front_in_ > 0) {
    --to_front_in_;
  } else if (!to_front_.empty()) {
    ImGui::SetWindowFocus(to_front_.front());
    to_front_.erase(to_front_.begin());
  }
}

std::string app_frame::figure_csv(std::string_view view) const {
  const view_entry* v = state_.ui().figure(view);
  return v && v->csv ? v->csv(*state_.views, *state_.sess, state_.sample) : std::string();
}

}  // namespace hs::app
