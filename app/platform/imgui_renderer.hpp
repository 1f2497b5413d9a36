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

 private:
  float font_size_;
  theme theme_;
  std::string font_;
};

}  // namespace hs::app
