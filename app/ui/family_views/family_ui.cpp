// Lookups in the app's family list.
#include "app/ui/family_views/family_ui.hpp"

#include "core/common/error.hpp"
#include "core/table/family_registry.hpp"

namespace hs::app {

const family_ui& ui_of(family f) {
  for (const family_ui* u : detail::registered_uis())
    if (u->id == f) return *u;
  throw user_error("the " + std::string(to_string(f)) + " family has no views registered");
}

std::vector<const char*> family_ui::window_titles() const {
  std::vector<const char*> out;
  for (const view_entry& v : views)
    if (v.title) out.push_back(v.title);
  return out;
}

const view_entry* family_ui::entry(std::string_view name) const {
  if (const view_entry* f = figure(name)) return f;
  for (const view_entry& v : views)
    if (v.title && name == v.title) return &v;
  return nullptr;
}

const view_entry* family_ui::figure(std::string_view capture) const {
  for (const view_entry& v : views)
    if (!v.capture.empty() && v.capture == capture) return &v;
  return nullptr;
}

}  // namespace hs::app
