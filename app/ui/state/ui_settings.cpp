// Parsing and checking the window's settings in imgui.ini.
#include "app/ui/state/ui_settings.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <imgui.h>
#include <imgui_internal.h>

#include "core/common/format.hpp"

namespace hs::app {

void read_settings_line(const char* line, ui_settings& s) {
  int a = 0, b = 0, c = 0, d = 0;
  unsigned u = 0;
  float f = 0;
  char word[16] = {};
  if (std::sscanf(line, "Version=%d", &a) == 1)
    s.version = a;
  else if (std::sscanf(line, "FontSize=%f", &f) == 1)
    s.font_size = f;
  else if (std::sscanf(line, "Theme=%15s", word) == 1)
    s.ui_theme = parse_theme(word);
  else if (std::sscanf(line, "Window=%d,%d,%d,%d", &a, &b, &c, &d) == 4 && c > 0 && d > 0)
    s.window = std::array{a, b, c, d};
  // "Layouts=" and "Layouts2=" were written before the Code and Warp lanes windows and before the
  // GPUs window: a layout built then leaves them floating (the GPUs window 32 pixels wide, out of
  // sight), so such layouts are built again, once a family.
  else if (std::sscanf(line, "Layouts3=%u", &u) == 1)
    s.layouts_built = u;
  else if (std::strncmp(line, "Recent=", 7) == 0 && line[7] && s.recent.size() < 8)
    s.recent.emplace_back(line + 7);
}

std::string settings_text(const ui_settings& s) {
  std::string t = "[HashScope][Settings]\n" + strprintf("Version=%d\n", k_settings_version);
  if (s.font_size) t += strprintf("FontSize=%.0f\n", *s.font_size);
  if (s.ui_theme) t += "Theme=" + std::string(to_string(*s.ui_theme)) + "\n";
  if (s.window)
    t += strprintf("Window=%d,%d,%d,%d\n", (*s.window)[0], (*s.window)[1], (*s.window)[2],
                   (*s.window)[3]);
  t += strprintf("Layouts3=%u\n", s.layouts_built);
  for (const std::string& r : s.recent)
    if (r.find_first_of("\r\n") == std::string::npos) t += "Recent=" + r + "\n";  // a line each
  t += std::string(k_settings_end_line) + "\n\n";  // last: a section without it was cut short
  return t;
}

namespace {

// ImGui's ini format: [Type][Name] headers, then lines of key=value (docking and table lines hold
// several). Anything else (binary data, a different format) means the file is not ours to read.
bool looks_like_ini(const std::string& text, std::string& why) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    for (unsigned char ch : line)
      if (ch < 0x20 && ch != '\t') {
        why = strprintf("line %d holds control characters", n);
        return false;
      }
    const bool header =
        line.front() == '[' && line.back() == ']' && line.find("][") != std::string::npos;
    if (!header && line.find('=') == std::string::npos) {
      why = strprintf("line %d is neither a [section] nor key=value", n);
      return false;
    }
  }
  return true;
}

void set_aside(const std::string& path, const std::string& why, std::string& notice) {
  const std::string aside = path + ".ignored";
  std::error_code ec;
  std::filesystem::rename(path, aside, ec);
  notice =
      ec ? strprintf("settings file %s ignored (%s); it could not be renamed: %s", path.c_str(),
                     why.c_str(), ec.message().c_str())
         : strprintf("settings file %s ignored (%s): kept as %s, starting with the default layout",
                     path.c_str(), why.c_str(), aside.c_str());
}

}  // namespace

namespace {
// Why the file cannot be used (empty: it can); `s` gets its settings section.
std::string unusable_because(const std::string& path, ui_settings& s) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return "unreadable";
  std::stringstream buf;
  buf << f.rdbuf();
  const std::string text = buf.str();
  std::string why;
  if (!looks_like_ini(text, why)) return why;
  const std::size_t at = text.find("[HashScope][Settings]");
  if (at == std::string::npos) return "written by an older HashScope";
  std::istringstream in(text.substr(at));
  std::string line, last;  // the section's last line: wherever ImGui put the section
  std::getline(in, line);
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '[') break;
    read_settings_line(line.c_str(), s);
    last = line;
  }
  if (s.version != 0 && s.version != k_settings_version)
    return strprintf("settings version %d, this is %d", s.version, k_settings_version);
  if (last != k_settings_end_line)
    return "truncated (its HashScope section does not end with " +
           std::string(k_settings_end_line) + ")";
  if (s.version == 0) return "written by an older HashScope";
  return {};
}
}  // namespace

ui_settings check_ini_file(const std::string& path, std::string& notice, bool& first_launch) {
  std::error_code ec;
  first_launch = !std::filesystem::exists(path, ec);
  ui_settings s;
  if (first_launch) return s;
  const std::string why = unusable_because(path, s);
  if (why.empty()) return s;
  set_aside(path, why, notice);
  first_launch = true;
  return {};
}

void register_settings_handler(ui_settings& s) {
  ImGuiSettingsHandler h;
  h.TypeName = "HashScope";
  h.TypeHash = ImHashStr("HashScope");
  h.UserData = &s;
  h.ReadOpenFn = [](ImGuiContext*, ImGuiSettingsHandler* handler, const char* name) -> void* {
    return std::strcmp(name, "Settings") == 0 ? handler->UserData : nullptr;
  };
  h.ReadLineFn = [](ImGuiContext*, ImGuiSettingsHandler*, void* entry, const char* line) {
    read_settings_line(line, *static_cast<ui_settings*>(entry));
  };
  h.WriteAllFn = [](ImGuiContext*, ImGuiSettingsHandler* handler, ImGuiTextBuffer* out) {
    out->append(settings_text(*static_cast<ui_settings*>(handler->UserData)).c_str());
  };
  ImGui::AddSettingsHandler(&h);
}

}  // namespace hs::app
