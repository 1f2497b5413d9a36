// The frame shared by the window, headless renders and the UI tests: it owns the frame state (one
// session, the sample shown, the shared views), the panels drawn over it, the chrome around them
// (menus, status bar, caption, shortcut overlay, file dialogs), the window's sampling, and
// single-view figures with their numbers. Platforms apply what a frame asks of them (text size,
// theme, full screen, screenshots) between frames.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/session/sampler.hpp"
#include "app/ui/file_menu.hpp"
#include "app/ui/panels/compare_panel.hpp"
#include "app/ui/panels/panel.hpp"
#include "app/ui/state/frame_state.hpp"

namespace hs::app {

/// @brief The numbers as CSV (name,value), quoted: what `render` and screenshots write.
std::string numbers_csv(const number_rows& rows);

class app_frame final : public frame_actions {
 public:
  /// @brief `choice` is how the backend was chosen; the config's backend is the resolved one.
  app_frame(session_config cfg, backend_choice choice, std::string backend_note);
  ~app_frame() override;

  /// @brief The whole window: menu bar, a dock space over the main viewport with every panel as a
  /// dockable window (the family's default layout the first time), the status bar, shortcuts.
  void draw_window();
  /// @brief One view filling the area (a common view or one of the family's figures, by its
  /// scenario name), with the numbers beside it; returns the view's rectangle (x, y, w, h).
  std::array<float, 4> draw_figure(std::string_view view, float width, float height,
                                   const std::string& title);
  /// @brief The numbers behind a family's figure, as the CSV written beside it.
  std::string figure_csv(std::string_view view) const;
  /// @brief Samples now, for the heatmap area the last draw_figure() laid out.
  void sample_now();
  /// @brief Whether a table of the window (its own or a compared one) is on a GPU that faulted.
  bool tables_lost() const;

  // frame_actions
  void execute(command c, key_target t) override;
  using frame_actions::execute;
  void rebuild(const session_config& cfg) override;
  /// @brief The same with a session made already (open_table's, restored before the swap).
  void rebuild(const session_config& cfg, std::unique_ptr<session> made);
  void load_preset(const scenario& sc) override;
  /// @brief A new session whose table is a table file's state, on the current backend (throws
  /// hs::user_error naming the file, the session unchanged, for a bad file).
  void open_table(const std::string& path) override;
  void start_compare(const std::vector<compare_entry>& entries) override;
  void stop_compare() override;

  session& sess() { return *state_.sess; }
  const session& sess() const { return *state_.sess; }
  frame_state& state() { return state_; }
  const frame_state& state() const { return state_; }
  vis::heatmap_view& heatmap() { return state_.heatmap; }
  const vis::histogram_view& histogram_view() const { return state_.histogram; }
  /// @brief The family's views (tests read what they drew through ui_of(f).drawn).
  const family_views* views() const { return state_.views.get(); }
  family_views* views() { return state_.views.get(); }
  const sample_result& last_sample() const { return state_.sample; }
  const vis::heatmap_request& last_request() const { return state_.request; }
  const vis::heatmap_image& image() const { return *state_.image; }
  number_rows numbers() const { return app::numbers(state_); }
  /// @brief The panel titled `title` this frame, or null (tests read what a panel drew).
  const panel* find_panel(std::string_view title) const;
  sampling_policy& sampling() { return state_.sampling; }
  frame_pacing& pacing() { return state_.pacing; }
  /// @brief Starts reading a key file (the Workload section's column and format) off the UI
  /// thread; when it is read, the workload takes its keys, or the error names file and line and
  /// the workload stays as it was.
  void load_key_file(const std::string& path) override;
  /// @brief Each view shown as a paper figure (PNG, SVG, PDF) with its numbers (figure_export.cpp).
  std::size_t export_figures(const std::string& dir) override;
  /// @brief Makes `keys` the workload's key source (the main table's, and the compared ones').
  void use_keys(std::shared_ptr<const workload::key_list> keys);
  /// @brief Whether a table of the window (the main one, or a compared one) is running batches or
  /// a rebuild: what it shows changes without input.
  bool table_changing() const;
  /// @brief The session's version when the newest background sample was asked for.
  std::uint64_t asked_version() const { return asked_version_; }
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
  void notify(std::string text) { state_.notice = std::move(text); }
  const std::string& notice() const { return state_.notice; }
  /// @brief The last error of a control (a rebuild refused, a scenario that failed to load).
  const std::string& error() const { return state_.error; }
  void set_error(std::string text) { state_.error = std::move(text); }
  /// @brief Lays out the current family's default layout on the next frame.
  void reset_layout() { state_.settings.layouts_built = 0; }
  /// @brief What the caption bar drew last (tests read it): the text as shown, whether it was
  /// marked as the caption of a stage that ended, and frames drawn.
  struct caption_drawn {
    std::string text;
    bool ended = false;
    int frames = 0;
  };
  /// @brief Whether the windows a stage brings forward, and the teaching layout, are in place
  /// (a stage reached has had its windows queued, none is still queued to come forward, no
  /// layout waits to be laid out).
  bool windows_settled() const;
  const caption_drawn& drawn_caption() const { return caption_drawn_; }
  /// @brief Whether the shortcut overlay is open.
  bool help_open() const { return help_open_; }
  /// @brief Presenter mode (F5, --present; Esc leaves): the controls hidden, text at least
  /// k_present_font_size, the stage's caption on top, Space or N for the next stage.
  /// `quiet`: no notice when it leaves (the window restarting its frame at a new text size).
  void set_presenting(bool on, bool quiet = false);
  bool presenting() const { return state_.presenting; }
  /// @brief The text size to remember: the user's, not presenter mode's.
  float remembered_font_size() const {
    return state_.presenting ? font_before_present_ : state_.font_size;
  }
  compare_set* comparing() { return state_.compare.get(); }
  const compare_view* compare_figure() const { return state_.compare_figure.get(); }
  /// @brief The File menu's dialogs, recent files and what they do.
  file_menu& files() { return files_; }

 private:
  /// Synchronous sampling (figures, renders): waits for the sample.
  void sample(bool force);
  /// The window's sampling, through the sampler thread (sampling_policy says when).
  void sample_in_background();
  sample_request plan_sample(vis::heatmap_request& plan);
  /// Takes in a new sample: the family views' choice, the heatmap's colours.
  void show_sample();
  void update_freshness();
  void take_key_file();
  void draw_menu_bar();
  void draw_status_bar();
  void draw_help_overlay();
  void draw_caption_bar();
  void draw_panels();
  /// Hands the views the radix keys are written in (the lesson's, or the Display choice).
  void write_keys_as_given();
  void bring_queued_window_forward();
  /// Before the dock space: lays the teaching layout out when a stage's Code view, drawn in front,
  /// is narrower than its longest line.
  void fit_code_view(ImGuiID dockspace, ImVec2 size, std::span<const char* const> family_windows);
  void handle_shortcuts();
  void change_font_size(float delta);
  /// Back or Forward on the main table (a message when they cannot, or for compared tables).
  void go_back_or_forward(command c, key_target t);

  frame_state state_;
  std::unique_ptr<sampler> sampler_;  // samples state_.sess: made after it, reset before it
  std::vector<std::unique_ptr<panel>> panels_;         // the common ones, made once
  std::vector<std::unique_ptr<panel>> family_panels_;  // the family's windows, made for each table
  std::uint64_t family_panels_serial_ = 0;             // the table they were made for
  compare_setup compare_setup_;
  file_menu files_;
  std::uint64_t asked_version_ =
      ~0ull;  // the session's version when the newest sample was asked for
  double asked_at_ = -1e9;
  sample_request asked_;  // what it asked for (a zoom asks again at once)
  double last_figure_sample_ = -1e9;
  bool help_open_ = false;
  caption_drawn caption_drawn_;
  float font_before_present_ = 16.f;
  // Windows to bring in front of their tab neighbours, one a frame: a dock node selects the tab of
  // the window with focus, and one window has it a frame.
  std::vector<const char*> to_front_;
  int to_front_in_ = 0;  // frames to wait first (a new layout's windows do not exist yet)
  std::pair<std::uint64_t, std::uint64_t> stage_shown_{0, 0};  // table serial, stages reached
  // A stage that shows the Code view: once it is drawn in front, the teaching layout gives it the
  // width of its longest line if it lacks it (fit_code_view).
  bool fit_code_pending_ = false;
  int fit_code_frames_ = 0;                 // the Code view's frames drawn when the stage came
  std::vector<const char*> stage_windows_;  // the stage's windows, to bring forward again
  /// Queues the views of a stage the script reached since the last frame (its capture line).
  void bring_stage_views_forward();
};

}  // namespace hs::app
