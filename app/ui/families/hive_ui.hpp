// The hive family's views, as tests reach them.
#pragma once
#include "app/ui/families/family_ui.hpp"
#include "visualizers/views/hive_view.hpp"
#include "visualizers/views/tile_lanes_view.hpp"

namespace hs::app {

class code_view;

/// @brief The hive view inside `v`, or null when `v` is another family's.
const vis::hive_view* hive_view_of(const family_views* v);
/// @brief The hive's Code view and warp lanes inside `v`, or null.
const code_view* hive_code_of(const family_views* v);
const vis::tile_lanes_view* hive_lanes_of(const family_views* v);

}  // namespace hs::app
