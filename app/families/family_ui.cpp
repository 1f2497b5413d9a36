// Lookups in the app's family list.
#include "app/families/family_ui.hpp"

#include "core/common/error.hpp"
#include "core/table/family_registry.hpp"

namespace hs::app {

const family_ui& ui_of(family f) {
  for (const family_ui* u : detail::registered_uis())
    if (u->id == f) return *u;
  throw user_error("the " + std::string(to_string(f)) + " family has no views registered");
}

std::optional<family> family_of_figure(std::string_view view) {
  for (const family_ui* u : detail::registered_uis())
    for (std::string_view v : u->figures)
      if (v == view) return u->id;
  return std::nullopt;
}

}  // namespace hs::app
