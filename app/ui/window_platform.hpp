// The desktop window: GLFW, an OpenGL 4.5 core context (3.3 if that is what the driver offers),
// ImGui's GLFW input backend with docking and multi-viewport (views can be dragged onto a second
// monitor), and the frame loop.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "app/platform/style.hpp"

namespace hs::app {

class app_frame;

struct window_options {
  int frames = 0;                 ///< exit after this many frames (0: until closed)
  float font_size = 0;            ///< 0: the saved size, else from the monitor
  std::optional<theme> ui_theme;  ///< unset: the saved theme, else dark
  std::string screenshot;         ///< write the last frame to this PNG
  std::string ini_file;           ///< settings and layout (empty: ~/.config/hashscope/imgui.ini)
};

/// @brief Whether a display seems reachable ($DISPLAY or $WAYLAND_DISPLAY set).
bool display_available();

/// @brief Opens the window (on first launch it fills the monitor's work area; later launches
/// restore size, place and layout), creates the frame with `make(first_launch)` once GL is up,
/// runs until closed or `frames` frames were drawn, and destroys the frame before the GL context.
/// Returns frames drawn. Throws hs::graphics_error when no window can be opened (no display, no
/// OpenGL 3.3).
int run_window(const std::function<std::unique_ptr<app_frame>(bool first_launch)>& make,
               const window_options& opt);

}  // namespace hs::app
