// What a family's view drew, read through the frame's view table (the entry a scenario captures
// by that name), as the window shows it.
#pragma once
#include <string_view>

#include "app/ui/app_frame.hpp"
#include "app/ui/family_views/family_ui.hpp"

namespace hs::test {

/// @brief The object view `name` of the frame's family draws with, if it is a V; else null.
template <class V>
const V* drawn(const app::app_frame& f, std::string_view name) {
  return app::ui_of(f.sess().config().table.family).drawn<V>(f.views(), name);
}

}  // namespace hs::test
