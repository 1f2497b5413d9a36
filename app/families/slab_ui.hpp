// The slab family's views as tests and tools reach them through a frame's family views.
#pragma once
#include "app/families/family_ui.hpp"
#include "visualizers/views/slab_view.hpp"
#include "visualizers/views/tile_lanes_view.hpp"

namespace hs::app {

/// @brief The slab view inside `v`, or null when `v` is another family's.
const vis::slab_view* slab_view_of(const family_views* v);
/// @brief The slab's warp lanes view inside `v`, or null.
const vis::tile_lanes_view* slab_lanes_of(const family_views* v);

}  // namespace hs::app
