// Default dock layouts through ImGui's DockBuilder.
#include "app/ui/dock_layout.hpp"

#include <imgui_internal.h>

namespace hs::app {

namespace {
using namespace window_name;

// An empty dock space of the given size, its old layout gone.
void start_layout(ImGuiID dockspace, ImVec2 size) {
  ImGui::DockBuilderRemoveNode(dockspace);
  ImGui::DockBuilderAddNode(dockspace, ImGuiDockNodeFlags_DockSpace);
  ImGui::DockBuilderSetNodeSize(dockspace, size);
}

// Where each window goes; the layouts differ only in how they split the nodes.
struct layout_nodes {
  ImGuiID controls = 0, numbers = 0, heatmap = 0, views = 0, rates = 0;
};

void dock_windows(ImGuiID dockspace, const layout_nodes& n,
                  std::span<const char* const> family_windows) {
  ImGui::DockBuilderDockWindow(controls, n.controls);
  ImGui::DockBuilderDockWindow(numbers, n.numbers);
  ImGui::DockBuilderDockWindow(heatmap, n.heatmap);
  for (const char* w : family_windows) ImGui::DockBuilderDockWindow(w, n.views);
  ImGui::DockBuilderDockWindow(throughput, n.rates);
  ImGui::DockBuilderDockWindow(timeline, n.rates);
  ImGui::DockBuilderDockWindow(devices, n.rates);
  ImGui::DockBuilderFinish(dockspace);
}
}  // namespace

void build_default_layout(ImGuiID dockspace, ImVec2 size,
                          std::span<const char* const> family_windows) {
  start_layout(dockspace, size);
  layout_nodes n;
  ImGuiID right = 0, bottom = 0;
  const ImGuiID left =
      ImGui::DockBuilderSplitNode(dockspace, ImGuiDir_Left, 0.24f, nullptr, &right);
  ImGui::DockBuilderSplitNode(left, ImGuiDir_Up, 0.62f, &n.controls, &n.numbers);
  ImGui::DockBuilderSplitNode(right, ImGuiDir_Up, 0.56f, &n.heatmap, &bottom);
  ImGui::DockBuilderSplitNode(bottom, ImGuiDir_Left, 0.5f, &n.views, &n.rates);
  dock_windows(dockspace, n, family_windows);
}

void build_teaching_layout(ImGuiID dockspace, ImVec2 size,
                           std::span<const char* const> family_windows, float left_share) {
  start_layout(dockspace, size);
  layout_nodes n;
  ImGuiID left = 0, right = 0, top = 0;
  ImGui::DockBuilderSplitNode(dockspace, ImGuiDir_Left, left_share, &left, &right);
  // The controls keep the column's whole height above the numbers, as by default.
  ImGui::DockBuilderSplitNode(left, ImGuiDir_Up, 0.62f, &n.controls, &n.numbers);
  ImGui::DockBuilderSplitNode(right, ImGuiDir_Up, 0.42f, &top, &n.views);
  ImGui::DockBuilderSplitNode(top, ImGuiDir_Left, 0.72f, &n.heatmap, &n.rates);
  dock_windows(dockspace, n, family_windows);
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
