// The app's registration list below the views: one line per family (its drawing registers in
// app/ui/family_views/family_ui_list.cpp).
#include "app/families/family_hooks.hpp"

namespace hs::app {
const family_hooks& linear_hooks();
const family_hooks& slab_hooks();
const family_hooks& hive_hooks();

namespace detail {
std::span<const family_hooks* const> registered_hooks() {
  static const family_hooks* const list[] = {&linear_hooks(), &slab_hooks(), &hive_hooks()};
  return list;
}
}  // namespace detail
}  // namespace hs::app
