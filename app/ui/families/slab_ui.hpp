// The slab family's views as tests and tools reach them through a frame's family views.
#pragma once
#include "app/ui/families/family_ui.hpp"
#include "visualizers/views/slab_view.hpp"

namespace hs::app {

/// @brief The slab view inside `v`, or null when `v` is another family's.
const vis::slab_view* slab_view_of(const family_views* v);

}  // namespace hs::app
