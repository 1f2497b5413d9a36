// Default dock layouts through ImGui's DockBuilder.
#include "app/ui/dock_layout.hpp"

#include <imgui_internal.h>

namespace hs::app {

namespace {
using namespace window_name;
constexpr const char* k_common[] = {controls, numbers, heatmap, throughput, timeline};
constexpr const char* k_linear[] = {probes};
constexpr const char* k_slab[] = {slab_lists, slab_alloc, key_positions};
constexpr const char* k_hive[] = {hive_buckets, hive_evictions, hive_steps, hive_stash, hive_resize};
}  // namespace

std::span<const char* const> common_windows() { return k_common; }

std::span<const char* const> family_windows(family f) {
  switch (f) {
    case family::slab: return k_slab;
    case family::hive: return k_hive;
    default: return k_linear;
  }
}

void build_default_layout(ImGuiID dockspace, ImVec2 size, family f) {
  ImGui::DockBuilderRemoveNode(dockspace);
  ImGui::DockBuilderAddNode(dockspace, ImGuiDockNodeFlags_DockSpace);
  ImGui::DockBuilderSetNodeSize(dockspace, size);
  ImGuiID right = 0, left_top = 0, left_bottom = 0, top = 0, bottom = 0, views = 0, rates = 0;
  const ImGuiID left = ImGui::DockBuilderSplitNode(dockspace, ImGuiDir_Left, 0.24f, nullptr, &right);
  ImGui::DockBuilderSplitNode(left, ImGuiDir_Up, 0.62f, &left_top, &left_bottom);
  ImGui::DockBuilderSplitNode(right, ImGuiDir_Up, 0.56f, &top, &bottom);
  ImGui::DockBuilderSplitNode(bottom, ImGuiDir_Left, 0.5f, &views, &rates);
  ImGui::DockBuilderDockWindow(controls, left_top);
  ImGui::DockBuilderDockWindow(numbers, left_bottom);
  ImGui::DockBuilderDockWindow(heatmap, top);
  for (const char* w : family_windows(f)) ImGui::DockBuilderDockWindow(w, views);
  ImGui::DockBuilderDockWindow(throughput, rates);
  ImGui::DockBuilderDockWindow(timeline, rates);
  ImGui::DockBuilderFinish(dockspace);
}

void bring_default_tabs_forward(family f) {
  ImGui::SetWindowFocus(family_windows(f).front());
  ImGui::SetWindowFocus(throughput);
}

}  // namespace hs::app
