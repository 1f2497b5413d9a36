// Keyboard shortcuts: one table that drives the key handling, the buttons' tooltips and the
// overlay on F1 or '?'. Shortcuts never act while a text field has keyboard focus.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include <imgui.h>

namespace hs::app {

enum class command : std::uint8_t {
  run_pause,
  step,
  back,
  forward,
  fill,
  reset,
  next_stage,
  text_bigger,
  text_smaller,
  fullscreen,
  screenshot,
  help,
  present,
  leave_present,
  open_scenario,
  open_key_file,
  save_scenario,
  open_table,
  save_table,
  export_figures,
  quit
};
/// @brief Whether the command drives tables (and so goes to the tables the keys drive).
bool drives_tables(command c);

struct shortcut {
  command cmd;
  ImGuiKeyChord chords[3];  ///< any of them (ImGuiKey_None: unused)
  const char* keys;         ///< as shown to people
  const char* what;
};

std::span<const shortcut> shortcuts();
/// @brief "Space", "S or Right", ... for a command's tooltip.
const char* keys_for(command c);
/// @brief The command whose keys were pressed this frame, if any (none while typing).
std::optional<command> pressed_command();
/// @brief The shortcut overlay's contents (call inside a window).
void draw_shortcut_table();

}  // namespace hs::app
