// Drives the real window frame (app_frame::draw_window) headless, through the Dear ImGui Test
// Engine: a script clicks widgets by their labels, presses keys and turns the mouse wheel, as a
// person would, across as many frames as it needs; the frame's requests (screenshots) are served
// as the window platform serves them.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "app/session/session.hpp"

struct ImGuiTestContext;
struct ImGuiTestEngine;

namespace hs::app {
class app_frame;
class headless_platform;
}  // namespace hs::app

namespace hs::test {

class ui_harness {
 public:
  /// @brief An EGL context, the frame with a session of `cfg`; throws hs::graphics_error when no
  /// EGL display offers OpenGL (callers SKIP then).
  explicit ui_harness(const app::session_config& cfg, int width = 1600, int height = 1000);
  ~ui_harness();

  app::app_frame& frame() { return *frame_; }
  /// @brief Runs `script` as one Test Engine test; returns an empty string when every check in it
  /// passed, else the engine's log of the test.
  std::string run(const std::function<void(ImGuiTestContext*)>& script);
  /// @brief Frames drawn so far.
  int frames() const { return frames_; }

 private:
  void one_frame();
  std::unique_ptr<app::headless_platform> platform_;
  std::unique_ptr<app::app_frame> frame_;
  ImGuiTestEngine* engine_ = nullptr;
  int width_, height_, frames_ = 0, tests_ = 0;
};

/// @brief A harness on `cfg`, or a SKIP (with the reason) where no EGL display offers OpenGL.
std::unique_ptr<ui_harness> harness_or_skip(const app::session_config& cfg, int width = 1600,
                                            int height = 1000);
/// @brief A linear table of `capacity` slots on the CPU model under the identity hash: key k's home
/// slot is k modulo the capacity, so a test places keys where it wants them.
app::session_config identity_table(std::uint64_t capacity);

/// @brief Types `path` into the file dialog `dialog` (its window's reference) and presses its
/// button (Open or Save), as a person would.
void choose_file(ImGuiTestContext* ctx, const char* dialog, const std::string& path,
                 const char* button);

/// @brief Yields frames until `done()` holds (at most `max_frames`, so nothing hangs); the
/// caller checks the condition afterwards.
void wait_until(ImGuiTestContext* ctx, const std::function<bool()>& done, int max_frames = 3000);

}  // namespace hs::test
