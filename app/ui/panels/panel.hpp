// A dockable window of the app: it owns its state and draws itself over the shared frame state.
// app_frame makes the list (panels.cpp) and draws each inside its ImGui window.
#pragma once
#include <memory>
#include <vector>

#include <imgui.h>

#include "app/ui/state/frame_state.hpp"

namespace hs::app {

class panel {
 public:
  virtual ~panel() = default;
  /// @brief The window's title (its ImGui name and its tab).
  virtual const char* title() const = 0;
  virtual ImGuiWindowFlags flags() const { return ImGuiWindowFlags_None; }
  /// @brief Whether it is drawn this frame (presenting hides the controls).
  virtual bool shown(const frame_state& f) const { return (void)f, true; }
  /// @brief Draws the contents (inside the window app_frame began).
  virtual void draw(frame_state& f) = 0;
  /// @brief Before its window begins: where a window that floats first appears, and focus.
  virtual void place(frame_state& f) { (void)f; }
  /// @brief Whether its window has a close box; closing it calls closed().
  virtual bool closable() const { return false; }
  virtual void closed(frame_state& f) { (void)f; }
  /// @brief A frame where its window is collapsed or hidden behind another tab.
  virtual void hidden(frame_state& f) { (void)f; }
};

/// @brief The windows every family has: controls, numbers, heatmap, throughput, timeline, and
/// the Compare window (shown while tables are compared).
std::vector<std::unique_ptr<panel>> common_panels();
/// @brief A window per view of the family `ui` shows in a window.
std::vector<std::unique_ptr<panel>> family_panels(const family_ui& ui);

}  // namespace hs::app
