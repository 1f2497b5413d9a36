// The window's own settings, kept in the imgui.ini that also holds the dock layout (section
// [HashScope][Settings]): text size, theme, window placement, which families' default layouts
// were laid out, and the recent scenario files, ended by "End=1". A file that is corrupt, cut
// short (its section without that last line), or from another version, is set aside with a notice
// instead of being read.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/platform/style.hpp"

namespace hs::app {

/// @brief Bumped when the layout or settings change meaning; older files are set aside.
/// (3: the section ends with k_settings_end_line.)
constexpr int k_settings_version = 3;
/// @brief The settings section's last line: a file whose section lacks it was cut short (an
/// older HashScope wrote it in place, and a crash tore it) and is set aside.
constexpr std::string_view k_settings_end_line = "End=1";

struct ui_settings {
  std::optional<float> font_size;
  std::optional<theme> ui_theme;
  std::optional<std::array<int, 4>> window;  ///< x, y, width, height
  std::uint32_t layouts_built = 0;           ///< bit per family: its default layout was laid out
  std::vector<std::string> recent;           ///< File > Open recent, newest first
  int version = 0;                           ///< as read (0: no settings section)
};

/// @brief Reads one line of the [HashScope][Settings] section into `s` (unknown keys ignored).
void read_settings_line(const char* line, ui_settings& s);
/// @brief The section's lines, as written into imgui.ini.
std::string settings_text(const ui_settings& s);

/// @brief Checks `path` before ImGui reads it: a missing file is fine (first launch); a file that
/// is not an ImGui ini, or holds no settings of this version, is renamed to `path`.ignored and
/// `notice` says so. Returns the settings found in a usable file.
ui_settings check_ini_file(const std::string& path, std::string& notice, bool& first_launch);

/// @brief Registers the [HashScope][Settings] handler with the current ImGui context: it reads
/// into and writes from `s`, which must outlive the context.
void register_settings_handler(ui_settings& s);

}  // namespace hs::app
