// The app's registration list: one line per family (its views live in app/families/).
#include "app/ui/family_views/family_ui.hpp"

namespace hs::app {
const family_ui& linear_ui();
const family_ui& slab_ui();
const family_ui& hive_ui();

namespace detail {
std::span<const family_ui* const> registered_uis() {
  static const family_ui* const list[] = {&linear_ui(), &slab_ui(), &hive_ui()};
  return list;
}
}  // namespace detail
}  // namespace hs::app
