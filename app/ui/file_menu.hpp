// The File menu: open a scenario (a file dialog, and the recent files), save what was done since
// the last reset as a scenario, export the views shown as paper figures, screenshot, quit. The
// dialogs are ImFileDialog's (drawn by Dear ImGui, so they work on every platform the window does,
// under Xvfb, and with the Test Engine). Every failure says what and where, and changes nothing:
// a scenario that does not parse leaves the session as it was; files are written whole
// (hs::write_file_atomically: a crash leaves the old file or the new one).
#pragma once
#include <string>
#include <vector>

#include "app/ui/state/frame_state.hpp"
#include "app/ui/state/shortcuts.hpp"

namespace hs::app {

/// @brief How many recent scenario files the menu keeps.
inline constexpr std::size_t k_recent_max = 8;

class file_menu {
 public:
  file_menu() = default;
  file_menu(const file_menu&) = delete;
  file_menu& operator=(const file_menu&) = delete;
  ~file_menu();  ///< closes a dialog it left open (ImFileDialog's is one for the process)
  /// @brief The menu's items (call inside the menu bar).
  void draw_menu(frame_state& f, frame_actions& act);
  /// @brief The dialogs asked for (call every frame).
  void draw_dialogs(frame_state& f, frame_actions& act);
  /// @brief Opens the dialog of a File command (open_scenario, open_key_file, save_scenario,
  /// open_table, save_table, export_figures).
  void ask(command c);

  /// @brief Opens a scenario as a preset; on failure the error names file and line, and the
  /// session is unchanged. Returns whether it opened.
  bool open_scenario(frame_state& f, frame_actions& act, const std::string& path);
  /// @brief Saves the session as a scenario at `path` (".scn" added when it has no extension).
  bool save_scenario(frame_state& f, const std::string& path);
  /// @brief Opens a table file as the window's table (File > Open table...); a bad file is
  /// refused with its name and what is wrong, the session as it was.
  bool open_table(frame_state& f, frame_actions& act, const std::string& path);
  /// @brief Saves the table's exact state to `path` (".hstable" added when it has no extension).
  bool save_table(frame_state& f, const std::string& path);
  /// @brief Writes each view shown as a paper figure (PNG, SVG, PDF) and its numbers into `dir`.
  bool export_figures(frame_state& f, frame_actions& act, const std::string& dir);

 private:
  enum class dialog : std::uint8_t {
    none,
    open,
    save,
    export_to,
    key_file,
    open_table,
    save_table
  };
  dialog asked_ = dialog::none, shown_ = dialog::none;
  bool close_pending_ = false;
};

/// @brief `path` put first in `recent` (once), the list cut to k_recent_max.
void remember_recent(std::vector<std::string>& recent, const std::string& path);

}  // namespace hs::app
