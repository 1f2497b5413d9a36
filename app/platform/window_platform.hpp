// The desktop window: GLFW, an OpenGL 4.5 core context (3.3 if that is what the driver offers),
// ImGui's GLFW input backend, and the frame loop.
#pragma once
#include <functional>
#include <memory>
#include <string>

namespace hs::app {

class app_frame;

struct window_options {
  int frames = 0;          ///< exit after this many frames (0: until closed)
  float font_size = 0;     ///< 0: from the monitor
  std::string screenshot;  ///< write the last frame to this PNG
  int width = 1600, height = 1000;
};

/// @brief Whether a display seems reachable ($DISPLAY or $WAYLAND_DISPLAY set).
bool display_available();

/// @brief Opens the window, creates the frame with `make` once GL is up, runs until closed or
/// `frames` frames were drawn, and destroys the frame before the GL context. Returns frames drawn.
/// Throws hs::graphics_error when no window can be opened (no display, no OpenGL 3.3).
int run_window(const std::function<std::unique_ptr<app_frame>()>& make, const window_options& opt);

}  // namespace hs::app
