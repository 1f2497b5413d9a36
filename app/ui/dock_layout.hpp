// The dockable windows and each family's default layout: controls and numbers on the left, the
// heatmap above, the family's views and the throughput below. The user's arrangement persists in
// imgui.ini; View > Reset layout lays the default out again.
#pragma once
#include <span>
#include <string_view>

#include <imgui.h>

namespace hs::app {

namespace window_name {
inline constexpr const char* controls = "Controls";
inline constexpr const char* numbers = "Numbers";
inline constexpr const char* heatmap = "Slot occupancy";
inline constexpr const char* throughput = "Throughput";
inline constexpr const char* timeline = "Churn timeline";
inline constexpr const char* devices = "GPUs";
}  // namespace window_name

/// @brief Lays out the default arrangement with the family's windows `family_windows` (the first
/// in front) in the dock space `dockspace` of `size` pixels (call before the dock space is
/// submitted in the frame).
void build_default_layout(ImGuiID dockspace, ImVec2 size,
                          std::span<const char* const> family_windows);
/// @brief The teaching layout, for a lesson's Code view: the controls and numbers in a column of
/// `left_share` of the width, as by default, and beside them the heatmap and the throughput in a
/// row above the family's views, which take the rest of the width.
void build_teaching_layout(ImGuiID dockspace, ImVec2 size,
                           std::span<const char* const> family_windows, float left_share);
/// @brief The window a scenario's view name shows in ("heatmap": Slot occupancy, a family's figure:
/// its window), or null (a figure with no window, compare); `histogram_window` is the family's.
const char* window_of_view(std::string_view view, const char* histogram_window);

}  // namespace hs::app
