// Default dock layouts through ImGui's DockBuilder.
#include "app/ui/dock_layout.hpp"

#include <imgui_internal.h>

namespace hs::app {

namespace {
using namespace window_name;
}  // namespace

void build_default_layout(ImGuiID dockspace, ImVec2 size,
                          std::span<const char* const> family_windows) {
  ImGui::DockBuilderRemoveNode(dockspace);
  ImGui::DockBuilderAddNode(dockspace, ImGuiDockNodeFlags_DockSpace);
  ImGui::DockBuilderSetNodeSize(dockspace, size);
  ImGuiID right = 0, left_top = 0, left_bottom = 0, top = 0, bottom = 0, views = 0, rates = 0;
  const ImGuiID left =
      ImGui::DockBuilderSplitNode(dockspace, ImGuiDir_Left, 0.24f, nullptr, &right);
  ImGui::DockBuilderSplitNode(left, ImGuiDir_Up, 0.62f, &left_top, &left_bottom);
  ImGui::DockBuilderSplitNode(right, ImGuiDir_Up, 0.56f, &top, &bottom);
  ImGui::DockBuilderSplitNode(bottom, ImGuiDir_Left, 0.5f, &views, &rates);
  ImGui::DockBuilderDockWindow(controls, left_top);
  ImGui::DockBuilderDockWindow(numbers, left_bottom);
  ImGui::DockBuilderDockWindow(heatmap, top);
  for (const char* w : family_windows) ImGui::DockBuilderDockWindow(w, views);
  ImGui::DockBuilderDockWindow(throughput, rates);
  ImGui::DockBuilderDockWindow(timeline, rates);
  ImGui::DockBuilderFinish(dockspace);
}

void build_teaching_layout(ImGuiID dockspace, ImVec2 size,
                           std::span<const char* const> family_windows, float left_share) {
  ImGui::DockBuilderRemoveNode(dockspace);
  ImGui::DockBuilderAddNode(dockspace, ImGuiDockNodeFlags_DockSpace);
  ImGui::DockBuilderSetNodeSize(dockspace, size);
  ImGuiID left = 0, right = 0, left_top = 0, left_bottom = 0, top = 0, views = 0, map = 0,
          rates = 0;
  ImGui::DockBuilderSplitNode(dockspace, ImGuiDir_Left, left_share, &left, &right);
  ImGui::DockBuilderSplitNode(left, ImGuiDir_Up, 0.62f, &left_top, &left_bottom);
  ImGui::DockBuilderSplitNode(right, ImGuiDir_Up, 0.42f, &top, &views);
  ImGui::DockBuilderSplitNode(top, ImGuiDir_Left, 0.72f, &map, &rates);
  ImGui::DockBuilderDockWindow(controls, left_top);  // the whole height, as by default
  ImGui::DockBuilderDockWindow(numbers, left_bottom);
  ImGui::DockBuilderDockWindow(heatmap, map);
  for (const char* w : family_windows) ImGui::DockBuilderDockWindow(w, views);
  ImGui::DockBuilderDockWindow(throughput, rates);
  ImGui::DockBuilderDockWindow(timeline, rates);
  ImGui::DockBuilderFinish(dockspace);
}

const char* window_of_view(std::string_view view, const char* histogram_window) {
  if (view == "heatmap") return heatmap;
  if (view == "stats") return numbers;
  if (view == "throughput") return throughput;
  if (view == "timeline") return timeline;
  if (view == "histogram") return histogram_window;
  return nullptr;
}

}  // namespace hs::app
