// Lookups in the app's family list.
#include "app/families/family_ui.hpp"

#include <algorithm>

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

std::vector<const char*> family_ui::window_titles() const {
  std::vector<const char*> out;
  for (const view_entry& v : views)
    if (v.title) out.push_back(v.title);
  return out;
}

const view_entry* family_ui::figure(std::string_view capture) const {
  for (const view_entry& v : views)
    if (!v.capture.empty() && v.capture == capture) return &v;
  return nullptr;
}

std::vector<std::string_view> family_ui::figure_names() const {
  std::vector<std::string_view> out;
  for (const view_entry& v : views)
    if (!v.capture.empty()) out.push_back(v.capture);
  return out;
}

bool family_ui::answers(question_kind question) const {
  return std::find(questions.begin(), questions.end(), question) != questions.end();
}

std::vector<family> families_answering(question_kind question) {
  std::vector<family> out;
  for (const family_ui* u : detail::registered_uis())
    if (u->answers(question)) out.push_back(u->id);
  return out;
}

std::vector<family> families_of_figure(std::string_view view) {
  std::vector<family> out;
  for (const family_ui* u : detail::registered_uis())
    if (u->figure(view)) out.push_back(u->id);
  return out;
}

}  // namespace hs::app
