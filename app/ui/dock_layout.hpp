// The dockable windows and each family's default layout: controls and numbers on the left, the
// heatmap above, the family's views and the throughput below. The user's arrangement persists in
// imgui.ini; View > Reset layout lays the default out again.
#pragma once
#include <span>
#include <string_view>

#include <imgui.h>

#include "core/common/table.hpp"

namespace hs::app {

namespace window_name {
inline constexpr const char* controls = "Controls";
inline constexpr const char* numbers = "Numbers";
inline constexpr const char* heatmap = "Slot occupancy";
inline constexpr const char* throughput = "Throughput";
inline constexpr const char* timeline = "Churn timeline";
inline constexpr const char* probes = "Probe lengths";
inline constexpr const char* slab_lists = "Slab lists";
inline constexpr const char* slab_alloc = "SlabAlloc";
inline constexpr const char* key_positions = "Key positions";
inline constexpr const char* hive_buckets = "Buckets";
inline constexpr const char* hive_evictions = "Evictions";
inline constexpr const char* hive_steps = "Insert steps";
inline constexpr const char* hive_stash = "Stash";
inline constexpr const char* hive_resize = "Resize";
}  // namespace window_name

/// @brief The windows every family shows.
std::span<const char* const> common_windows();
/// @brief The family's own views, the first one in front by default.
std::span<const char* const> family_windows(family f);

/// @brief Lays out `f`'s default arrangement in the dock space `dockspace` of `size` pixels
/// (call before the dock space is submitted in the frame).
void build_default_layout(ImGuiID dockspace, ImVec2 size, family f);
/// @brief Puts the family's first view and the throughput in front of their tab neighbours (call
/// once the windows exist, the frame after the layout: a new dock node shows its last tab).
void bring_default_tabs_forward(family f);

}  // namespace hs::app
