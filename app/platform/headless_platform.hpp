// Headless rendering: an EGL context without a window (the EGL device platform: NVIDIA on a GPU
// machine, Mesa's software device elsewhere; Mesa's surfaceless platform as a fallback), drawing
// the same ImGui frames into an offscreen framebuffer that is read back as pixels.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/platform/style.hpp"

namespace hs::gl {
class render_target;
}

namespace hs::app {

class imgui_renderer;

class headless_platform {
 public:
  /// @brief Creates the EGL context and the ImGui renderer; throws hs::graphics_error with the
  /// reason when no EGL display offers OpenGL 3.3 or later.
  explicit headless_platform(float font_size, theme t = theme::dark);
  ~headless_platform();
  headless_platform(const headless_platform&) = delete;
  headless_platform& operator=(const headless_platform&) = delete;

  /// @brief "EGL device platform, OpenGL 4.5 / NVIDIA H200" for logs and metadata.
  const std::string& description() const { return description_; }
  float font_size() const;

  /// @brief Draws `frames` ImGui frames of width x height with `draw` and returns the last one's
  /// pixels (RGBA8, top row first). ImGui needs a frame or two to size windows.
  std::vector<std::uint8_t> render(int width, int height, const std::function<void()>& draw,
                                   int frames = 3);
  /// @brief One frame with whatever input ImGui's queue holds (UI tests feed it), nothing read
  /// back; the style follows `font_size` and `t` when they changed.
  void frame(int width, int height, const std::function<void()>& draw, float font_size, theme t);
  /// @brief The last frame()'s pixels (RGBA8, top row first).
  std::vector<std::uint8_t> read_frame() const;

 private:
  struct egl;
  std::unique_ptr<egl> egl_;
  std::unique_ptr<imgui_renderer> imgui_;
  std::unique_ptr<gl::render_target> frame_target_;  // frame()'s, kept between frames
  std::string description_;
};

}  // namespace hs::app
