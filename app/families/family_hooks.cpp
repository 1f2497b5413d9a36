// Lookups in the app's family list.
#include "app/families/family_hooks.hpp"

#include <algorithm>

#include "app/session/session.hpp"
#include "core/common/error.hpp"
#include "core/table/family_registry.hpp"

namespace hs::app {

const family_hooks& hooks_of(family f) {
  for (const family_hooks* h : detail::registered_hooks())
    if (h->id == f) return *h;
  throw user_error("the " + std::string(to_string(f)) + " family is not registered in the app");
}

std::unique_ptr<session> make_session(const session_config& cfg) {
  const auto make = hooks_of(cfg.table.family).make_recorder;
  return std::make_unique<session>(cfg, make ? make() : nullptr);
}

bool family_hooks::answers(question_kind question) const {
  return std::find(questions.begin(), questions.end(), question) != questions.end();
}

bool family_hooks::has_figure(std::string_view capture) const {
  return std::find(figures.begin(), figures.end(), capture) != figures.end();
}

std::vector<family> families_answering(question_kind question) {
  std::vector<family> out;
  for (const family_hooks* h : detail::registered_hooks())
    if (h->answers(question)) out.push_back(h->id);
  return out;
}

std::vector<family> families_of_figure(std::string_view view) {
  std::vector<family> out;
  for (const family_hooks* h : detail::registered_hooks())
    if (h->has_figure(view)) out.push_back(h->id);
  return out;
}

}  // namespace hs::app
