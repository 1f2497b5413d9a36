// The ImGui context and its OpenGL 3 renderer, shared by the window and the headless platform.
#pragma once

namespace hs::app {

class imgui_renderer {
 public:
  /// @brief Creates the ImGui context and renderer (a GL context must be current).
  /// `ini_file`: where window layout persists (nullptr: nowhere).
  imgui_renderer(float font_size, const char* ini_file);
  ~imgui_renderer();
  imgui_renderer(const imgui_renderer&) = delete;
  imgui_renderer& operator=(const imgui_renderer&) = delete;

  /// @brief Rebuilds fonts at a new size (between frames).
  void set_font_size(float size);
  float font_size() const { return font_size_; }
  void new_frame();
  void render();

 private:
  float font_size_;
};

}  // namespace hs::app
