// The linear family's views as tests and tools reach them through a frame's family views.
#pragma once
#include "app/teach/code_view.hpp"
#include "app/ui/families/family_ui.hpp"
#include "visualizers/views/linear_walk_view.hpp"
#include "visualizers/views/warp_lanes_view.hpp"

namespace hs::app {

/// @brief Step mode's walk view inside `v`, or null when `v` is another family's.
const vis::linear_walk_view* linear_walk_of(const family_views* v);
/// @brief The linear family's warp lanes (null for another family's views).
const vis::warp_lanes_view* linear_lanes_of(const family_views* v);
/// @brief The linear family's Code panel (null for another family's views).
const code_view* linear_code_of(const family_views* v);

}  // namespace hs::app
