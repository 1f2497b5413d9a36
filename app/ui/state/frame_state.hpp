// What the window's panels share: the session and the sample the frame shows (and how fresh it
// is), the views several panels draw into (the heatmap, the histogram, the family's views),
// compare mode's tables, the display settings and the messages. Each panel keeps its own state;
// what changes tables goes through frame_actions, which app_frame implements.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app/compare/compare_set.hpp"
#include "app/platform/style.hpp"
#include "app/scenario/scenario.hpp"
#include "app/session/session.hpp"
#include "app/ui/family_views/family_ui.hpp"
#include "app/ui/state/class_question.hpp"
#include "app/ui/state/compare_view.hpp"
#include "app/ui/state/frame_pacing.hpp"
#include "app/ui/state/key_file_loader.hpp"
#include "app/ui/state/sampling_policy.hpp"
#include "app/ui/state/shortcuts.hpp"
#include "app/ui/state/step_box.hpp"
#include "app/ui/state/ui_settings.hpp"
#include "visualizers/heatmap_image.hpp"
#include "visualizers/views/heatmap_view.hpp"
#include "visualizers/views/histogram_view.hpp"

namespace hs::app {

/// @brief Which tables Space, S, F, R and N drive.
enum class key_target : std::uint8_t { main_table, compared_tables };

/// @brief What panels ask of the frame.
class frame_actions {
 public:
  virtual ~frame_actions() = default;
  /// @brief A command from a button, menu or key; a command that drives tables drives `t`'s.
  virtual void execute(command c, key_target t) = 0;
  /// @brief A command of the window's own controls (the main table).
  void execute(command c) { execute(c, key_target::main_table); }
  /// @brief A new table (throws hs::user_error, the previous table kept).
  virtual void rebuild(const session_config& cfg) = 0;
  /// @brief A scenario as a preset (throws hs::user_error, nothing changed).
  virtual void load_preset(const scenario& sc) = 0;
  /// @brief Compare mode (throws hs::user_error, the previous set kept).
  virtual void start_compare(const std::vector<compare_entry>& entries) = 0;
  virtual void stop_compare() = 0;
  /// @brief A table file as the window's table (throws hs::user_error naming the file, the
  /// session unchanged).
  virtual void open_table(const std::string& path) = 0;
  /// @brief Starts reading a key file off the UI thread for the workload's keys.
  virtual void load_key_file(const std::string& path) = 0;
  /// @brief Writes each view shown as a paper figure and its numbers into `dir`; returns how many
  /// figures (throws hs::user_error, with nothing written, when a table's GPU faulted or `dir` is
  /// no folder).
  virtual std::size_t export_figures(const std::string& dir) = 0;
};

struct frame_state {
  // The table and what the frame shows of it.
  std::unique_ptr<session> sess;
  std::unique_ptr<family_views> views;  ///< the family's, made with the session
  std::uint64_t table_serial = 0;       ///< counts the tables made (a panel knows a new one)
  sample_result sample;                 ///< the newest finished sample, drawn this frame
  vis::heatmap_request request;         ///< what it was taken for
  std::unique_ptr<vis::heatmap_image> image;
  sample_freshness freshness;
  double sample_seconds = 0;  ///< how long the last finished sample took (0 before the first)
  vis::heatmap_view heatmap;
  vis::histogram_view histogram;
  sampling_policy sampling;
  frame_pacing pacing;  ///< how often the window draws (the window platform reads it)
  backend_choice choice = backend_choice::automatic;  ///< how the backend was chosen
  std::string backend_note;
  double target_load = 0.5;  ///< what Fill (F) fills or drains to
  int step_ops = 0;          ///< what Step (S) runs: 0 one batch, else that many traced operations

  // A scenario's question for the class (the session keeps the tally).
  std::optional<class_question> question;

  step_box typed;  ///< keys typed into the step box: Step runs the next as a traced operation

  // Your own keys: the Workload section's column and format for the next key file, the reader,
  // and the last file read (the keys combo goes back to it).
  workload::key_file_spec key_source;
  key_file_loader key_loader;
  std::shared_ptr<const workload::key_list> last_keys;

  // The lesson.
  std::string loaded_scenario;      ///< the scenario the table came from (its name), or empty
  std::uint64_t loaded_serial = 0;  ///< counts loads and tables made otherwise
  std::string ended_caption;        ///< a caption the user's own run, step or fill left behind
  /// How the keys were given (a lesson's decimal `step insert 12 76`, typed keys), and the
  /// Display section's choice over it, if any.
  key_radix given_radix = key_radix::hex;
  std::optional<key_radix> radix_choice;

  // Compare mode.
  std::unique_ptr<compare_set> compare;
  std::unique_ptr<compare_view> compare_figure;
  bool compare_focused = false;  ///< the Compare window had focus last frame
  bool focus_compare = false;    ///< bring the Compare window forward next frame

  // Display and messages.
  float font_size = 16.f;
  theme ui_theme = theme::dark;
  bool presenting = false;
  ui_settings settings;
  std::string notice;          ///< the status bar's line (screenshot saved, settings set aside)
  std::string gpu_fault;       ///< gpu_lost_note() once a table of the window is lost, else empty
  std::string error;           ///< the last error of a control, shown under the controls
  std::string sampling_error;  ///< why the last sample failed (shown with the sampled views)
  frame_actions* actions = nullptr;

  const family_ui& ui() const { return ui_of(sess->config().table.family); }
  const family_hooks& hooks() const { return hooks_of(sess->config().table.family); }
  /// @brief How the views write keys: the Display choice, else as they were given.
  key_radix keys_radix() const { return radix_choice.value_or(given_radix); }
  /// @brief The tables the keys drive now: the compared ones while the Compare window has focus.
  key_target keys_drive() const {
    return compare && compare_focused ? key_target::compared_tables : key_target::main_table;
  }
  /// @brief The width typed keys are read in: the table's; with compared tables, 64 bits (each
  /// table refuses, when stepped, a key wider than it holds, and then none steps).
  key_width typed_width() const { return compare ? key_width::bits64 : sess->config().table.width; }
  /// @brief The family's views' context for drawing (height 0: in a window).
  view_context context(float height, double time_s) {
    return view_context{*sess, sample, heatmap, histogram, height, time_s};
  }
};

/// @brief The freshness line above a sampled view ("sample 3.2 s old: sampling..."), in the
/// theme's warning colour; nothing when the sample is fresh.
void draw_freshness(const frame_state& f);

/// @brief The numbers behind every view: one list, drawn in the window and written beside figures.
number_rows numbers(const frame_state& f);

}  // namespace hs::app
