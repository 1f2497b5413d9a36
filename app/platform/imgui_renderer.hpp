// The ImGui and ImPlot contexts and ImGui's OpenGL 3 renderer, shared by the window and the
// headless platform.
#pragma once
#include <string>

#include "app/platform/style.hpp"

namespace hs::app {

class imgui_renderer {
 public:
  /// @brief Creates the ImGui and ImPlot contexts and the renderer (a GL context must be
  /// current), with docking on. `ini_file`: where layout and settings persist (nullptr: nowhere).
  /// ImGui never touches the file itself (io.IniFilename stays null): load_settings reads it and
  /// save_settings writes it whole, so a crash leaves the old file or the new one.
  imgui_renderer(float font_size, theme t, const char* ini_file);
  ~imgui_renderer();
  imgui_renderer(const imgui_renderer&) = delete;
  imgui_renderer& operator=(const imgui_renderer&) = delete;

  /// @brief Text size and theme (between frames); glyphs at the new size are made on demand.
  void set_style(float size, theme t);
  float font_size() const { return font_size_; }
  theme current_theme() const { return theme_; }
  const std::string& font() const { return font_; }
  void new_frame();
  void render();

  /// @brief Reads the settings file as ImGui would at its first frame: call once, after the
  /// settings handlers are registered and before the first frame. A missing file reads nothing.
  void load_settings();
  /// @brief Writes the settings file whole (hs::write_file_atomically) and clears
  /// io.WantSaveIniSettings; without a file (headless) only clears it. Call when ImGui asks
  /// (io.WantSaveIniSettings) and at exit. Returns why it could not ("" when it could).
  std::string save_settings();

 private:
  float font_size_;
  theme theme_;
  std::string font_;
  std::string ini_file_;  ///< empty: settings persist nowhere
};

}  // namespace hs::app
