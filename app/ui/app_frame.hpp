// The frame code shared by the window, headless renders and the UI tests: one session, its views,
// sampling at display rate, the window's dockable views, menus and shortcuts, and single-view
// figures with their numbers. Platforms apply what a frame asks of them (text size, theme, full
// screen, screenshots) between frames.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "app/compare/compare_view.hpp"
#include "app/families/family_ui.hpp"
#include "app/sampler.hpp"
#include "app/scenario.hpp"
#include "app/session/session.hpp"
#include "app/ui/shortcuts.hpp"
#include "app/ui/style.hpp"
#include "app/ui/ui_settings.hpp"
#include "visualizers/heatmap_image.hpp"
#include "visualizers/views/churn_view.hpp"
#include "visualizers/views/heatmap_view.hpp"
#include "visualizers/views/histogram_view.hpp"
#include "visualizers/views/throughput_view.hpp"

namespace hs::app {

/// @brief The numbers as CSV (name,value), quoted: what `render` and screenshots write.
std::string numbers_csv(const std::vector<std::pair<std::string, std::string>>& rows);

class app_frame {
 public:
  /// @brief `choice` is how the backend was chosen; the config's backend is the resolved one.
  app_frame(session_config cfg, backend_choice choice, std::string backend_note);
  ~app_frame();

  /// @brief The whole window: menu bar, a dock space over the main viewport with every view as a
  /// dockable window (the family's default layout the first time), the status bar, shortcuts.
  void draw_window();
  /// @brief One view filling the area (a common view or one of the family's figures, by its
  /// scenario name), with the numbers beside it; returns the view's rectangle (x, y, w, h).
  std::array<float, 4> draw_figure(std::string_view view, float width, float height, const std::string& title);
  /// @brief The numbers behind a figure, as the CSV written beside it.
  std::string figure_csv(std::string_view view) const;

  /// @brief Samples now, for the heatmap area the last draw_figure() laid out.
  void sample_now();
  session& sess() { return *sess_; }
  const session& sess() const { return *sess_; }
  vis::heatmap_view& heatmap() { return heatmap_; }
  const vis::histogram_view& histogram_view() const { return histogram_; }
  /// @brief The family's views (slab_view_of and hive_view_of reach inside).
  const family_views* views() const { return views_.get(); }
  family_views* views() { return views_.get(); }
  const sample_result& last_sample() const { return last_; }
  const vis::heatmap_request& last_request() const { return last_req_; }
  const vis::heatmap_image& image() const { return *image_; }
  std::vector<std::pair<std::string, std::string>> numbers() const;

  /// @brief Text size and theme; the platform applies them before each frame.
  float font_size = 16.f;
  theme ui_theme = theme::dark;
  double sample_period_s = 0.0;  ///< 0: every frame
  /// @brief The share of time the window's sampling may take (1: a sample every frame, however
  /// long it takes): samples of a table too large for every frame come less often.
  double sampling_share = 0.05;
  /// @brief Seconds the last background sample took (0 before the first).
  double last_sample_seconds() const { return sampler_ ? sampler_->last_sample_seconds() : 0.0; }
  /// @brief Background samples finished since the table was built.
  std::uint64_t samples_taken() const { return sampler_ ? sampler_->samples() : 0; }
  bool quit_requested = false;
  /// @brief Set by F11 / View menu; the window platform toggles full screen and clears it.
  bool fullscreen_requested = false;
  /// @brief Set by Ctrl+S; the platform reads the frame back and calls save_screenshot().
  bool screenshot_requested = false;
  /// @brief Where screenshots go (default: the working directory).
  std::string screenshot_dir = ".";
  /// @brief Writes the frame (RGBA8, top row first) as a PNG named by date and time, with the
  /// numbers' CSV beside it, and says where in the notice line. Returns the PNG's path.
  std::string save_screenshot(const std::vector<std::uint8_t>& rgba, int width, int height);
  /// @brief A line shown in the status bar until replaced (settings ignored, screenshot saved).
  void notify(std::string text) { notice_ = std::move(text); }
  const std::string& notice() const { return notice_; }
  /// @brief The last error of a control (a rebuild refused, a preset that failed to load).
  const std::string& error() const { return error_; }
  /// @brief Settings persisted in imgui.ini (the window platform registers them).
  ui_settings settings;
  /// @brief Lays out the current family's default layout on the next frame.
  void reset_layout() { settings.layouts_built = 0; }
  /// @brief Whether the shortcut overlay is open.
  bool help_open() const { return help_open_; }
  /// @brief Presenter mode (F5, --present; Esc leaves): the controls hidden, text at least
  /// k_present_font_size, the stage's caption on top, Space or N for the next stage.
  void set_presenting(bool on);
  bool presenting() const { return presenting_; }
  /// @brief The text size to remember: the user's, not presenter mode's.
  float remembered_font_size() const { return presenting_ ? font_before_present_ : font_size; }

  /// @brief Applies a scenario as a preset: config, view settings, and its script (on the compare
  /// tables for a compare scenario).
  void load_preset(const scenario& sc);
  /// @brief Compare mode: the entries' tables run the current workload side by side in the Compare
  /// window (throws hs::user_error for entries that cannot be made, the previous set kept).
  void start_compare(const std::vector<compare_entry>& entries);
  void stop_compare();
  compare_set* comparing() { return compare_.get(); }
  const compare_view* compare_figure() const { return compare_view_.get(); }

 private:
  /// Synchronous sampling (figures, renders): waits for the sample.
  void sample(bool force);
  /// The window's sampling, through the sampler thread.
  void sample_in_background();
  sample_request plan_sample(vis::heatmap_request& plan);
  /// Colours the heatmap image from last_.
  void show_sample();
  void rebuild(const session_config& cfg);
  void draw_controls();
  void draw_run_controls(const session_status& st);
  void draw_display_controls();
  void draw_stats();
  void draw_status_line();
  void draw_backend_label();
  /// The session's last note (errors in the theme's error colour), after `prefix`.
  void draw_note(const session_status& st, const char* prefix);
  void draw_menu_bar();
  void draw_status_bar();
  void draw_help_overlay();
  /// The current stage's caption in large text across the top (nothing without one).
  void draw_caption_bar();
  void draw_family_windows();
  void handle_shortcuts();
  /// Runs a command from a button, a menu or a shortcut.
  void execute(command c);
  void change_font_size(float delta);

  std::unique_ptr<session> sess_;
  std::unique_ptr<sampler> sampler_;  // after sess_: goes first
  backend_choice choice_;
  std::string backend_note_;
  session_config pending_;
  vis::heatmap_view heatmap_;
  vis::histogram_view histogram_;
  vis::throughput_view throughput_;
  vis::churn_view churn_;
  std::unique_ptr<family_views> views_;  // the family's, made with the session
  std::unique_ptr<compare_set> compare_;  // compare mode's tables, or null
  std::unique_ptr<compare_view> compare_view_;
  std::array<char[96], compare_set::k_max_tables> compare_entries_{{"linear", "hive", "slab"}};
  bool compare_dialog_ = false;
  void draw_compare_window();
  void draw_compare_dialog();
  const family_ui& ui() const { return ui_of(sess_->config().table.family); }
  view_context context(float height, double time_s);
  bool explain_tombstones() const;
  std::unique_ptr<vis::heatmap_image> image_;
  vis::heatmap_request last_req_{};
  sample_result last_;
  double last_sample_time_ = -1e9;
  float font_slider_ = 16.f;
  std::string notice_;
  bool help_open_ = false;
  bool presenting_ = false;
  float font_before_present_ = 16.f;
  int tabs_forward_in_ = 0;      // frames until the default layout's front tabs are chosen
  int tabs_forward_frame_ = -1;  // which of them comes forward this frame (-1: done)
  std::string error_;
  std::vector<std::string> presets_;
  int preset_ = 0;
  double target_load_ = 0.5;
  int step_ops_ = 0;
};

}  // namespace hs::app
