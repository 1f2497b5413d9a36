// Lookups in the app's family list.
#include "app/families/family_ui.hpp"

#include "app/session/session.hpp"
#include "core/common/error.hpp"
#include "core/table/family_registry.hpp"

namespace hs::app {

const family_ui& ui_of(family f) {
  for (const family_ui* u : detail::registered_uis())
    if (u->id == f) return *u;
  throw user_error("the " + std::string(to_string(f)) + " family has no views registered");
}

std::unique_ptr<session> make_session(const session_config& cfg) {
  const auto make = ui_of(cfg.table.family).make_recorder;
  return std::make_unique<session>(cfg, make ? make() : nullptr);
}

std::optional<family> family_of_figure(std::string_view view) {
  for (const family_ui* u : detail::registered_uis())
    for (std::string_view v : u->figures)
      if (v == view) return u->id;
  return std::nullopt;
}

}  // namespace hs::app
