// The Compare window and its setup dialog.
#include "app/ui/panels/compare_panel.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include <imgui_stdlib.h>

#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/family_registry.hpp"

namespace hs::app {

void compare_panel::place(frame_state& f) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowSize(ImVec2(vp->WorkSize.x * 0.8f, vp->WorkSize.y * 0.8f),
                           ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(
      ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.1f, vp->WorkPos.y + vp->WorkSize.y * 0.1f),
      ImGuiCond_FirstUseEver);
  if (std::exchange(f.focus_compare, false)) ImGui::SetNextWindowFocus();
}

void compare_panel::draw(frame_state& f) {
  f.compare_focused = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
  ImGui::PushID("compare-controls");
  const auto run = [&](command c) { f.actions->execute(c, key_target::compared_tables); };
  const bool running = f.compare->running();
  if (ImGui::Button(running ? "Pause" : "Run")) run(command::run_pause);
  ImGui::SameLine();
  if (ImGui::Button("Back")) run(command::back);  // every compared table, or none
  ImGui::SameLine();
  if (ImGui::Button("Step")) run(command::step);
  ImGui::SameLine();
  if (ImGui::Button("Forward")) run(command::forward);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(6 * ImGui::GetFontSize());
  float target = static_cast<float>(f.target_load);
  if (ImGui::SliderFloat("target", &target, 0.f, 1.f, "%.2f")) f.target_load = target;
  ImGui::SameLine();
  if (ImGui::Button("Fill or drain")) run(command::fill);
  ImGui::SameLine();
  if (ImGui::Button("Reset")) run(command::reset);
  if (f.compare->held()) {
    ImGui::SameLine();
    if (ImGui::Button("Next stage")) run(command::next_stage);
  }
  ImGui::SameLine();
  ImGui::TextDisabled(f.compare_focused ? "(keys drive these tables)"
                                        : "(click here: keys drive these tables)");
  if (const std::string e = f.compare->error(); !e.empty())
    ImGui::TextColored(role_color(ui_role::error, f.ui_theme), "%s", e.c_str());
  ImGui::PopID();
  f.compare_figure->draw();
}

// The first entries offered: the registered families, one a table (the first again where there
// are fewer families than tables).
compare_setup::compare_setup() {
  const auto registered = families();
  for (std::size_t i = 0; i < texts_.size(); ++i)
    texts_[i] = std::string(registered[i % registered.size()]->name);
}

namespace {

// The family combo: a new family starts from the window's table settings, not the entry's, so
// options of the old family do not carry over.
bool draw_family_combo(frame_state& f, table_config& t) {
  const auto registered = families();
  int fam = 0;
  for (std::size_t k = 0; k < registered.size(); ++k)
    if (registered[k]->id == t.family) fam = static_cast<int>(k);
  const auto name_of = [](void* data, int k) {
    return static_cast<const family_descriptor* const*>(data)[k]->name.data();
  };
  ImGui::SetNextItemWidth(8 * ImGui::GetFontSize());
  if (!ImGui::Combo("family", &fam, name_of,
                    const_cast<void*>(static_cast<const void*>(registered.data())),
                    static_cast<int>(registered.size())))
    return false;
  table_config fresh = f.sess->config().table;  // the window's table settings, another family
  set_family(fresh, registered[fam]->id);
  if (const auto prepare = hooks_of(fresh.family).prepare) prepare(fresh);
  if (registered[fam]->pow2_capacity)
    fresh.capacity = std::bit_floor(std::max<std::uint64_t>(fresh.capacity, 16));
  t = fresh;
  return true;
}

// One of the family's options as its registration describes it: a combo for choices, a number
// field. A number the option refuses leaves the entry as it was and says why in `error`.
bool draw_family_option(const family_option& o, table_config& t, std::string& error) {
  const std::string now = o.get(t);
  bool changed = false;
  ImGui::SetNextItemWidth(10 * ImGui::GetFontSize());
  if (!o.choices.empty()) {
    if (ImGui::BeginCombo(std::string(o.label).c_str(), now.c_str())) {
      for (std::string_view c : o.choices)
        if (ImGui::Selectable(std::string(c).c_str(), now == c))
          apply_option(o, t, std::string(c)), changed = true;
      ImGui::EndCombo();
    }
    return changed;
  }
  double v = std::stod(now);
  if (ImGui::InputDouble(std::string(o.label).c_str(), &v, 0, 0, o.whole ? "%.0f" : "%.4g",
                         ImGuiInputTextFlags_EnterReturnsTrue)) {
    try {
      apply_option(o, t,
                   o.whole ? std::to_string(static_cast<long long>(v)) : strprintf("%.6g", v));
      changed = true;
    } catch (const user_error& err) {
      error = err.what();
    }
  }
  return changed;
}

}  // namespace

void compare_setup::draw_entry(frame_state& f, std::size_t i) {
  table_config& t = tables_[i];
  bool changed = draw_family_combo(f, t);
  const family_descriptor& d = describe(t.family);
  ImGui::SameLine();
  int e = floor_log2_64(std::max<std::uint64_t>(t.capacity, 1));
  ImGui::SetNextItemWidth(10 * ImGui::GetFontSize());
  if (ImGui::SliderInt("capacity", &e, 4, 30, ("2^" + std::to_string(e)).c_str()))
    t.capacity = std::uint64_t{1} << e, changed = true;
  if (hooks_of(t.family).common_hash) {
    ImGui::SameLine();
    int h = static_cast<int>(t.hash);
    ImGui::SetNextItemWidth(8 * ImGui::GetFontSize());
    if (ImGui::Combo("hash", &h, "murmur3\0knuth\0identity\0universal\0"))
      t.hash = static_cast<hash_kind>(h), changed = true;
  }
  for (const family_option& o : d.options)  // labels are unique within a family: they are the IDs
    if (draw_family_option(o, t, text_errors_[i])) changed = true;
  if (changed) {
    texts_[i] = format_compare_entry(t, f.sess->config().table);
    text_errors_[i].clear();
  }
  // The text form: typed entries parse into the widgets above when Enter is pressed.
  ImGui::SetNextItemWidth(-6 * ImGui::GetFontSize());
  const bool typed = ImGui::InputText("##text", &texts_[i], ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  ImGui::TextDisabled("entry");
  ImGui::SetItemTooltip(
      "The table as a compare entry: type one and press Enter to set the widgets above");
  if (typed) {
    try {
      tables_[i] = parse_compare_entry(texts_[i], f.sess->config().table).table;
      text_errors_[i].clear();
    } catch (const user_error& err) {
      text_errors_[i] = err.what();
    }
  }
  if (!text_errors_[i].empty())
    ImGui::TextColored(role_color(ui_role::error, f.ui_theme), "%s", text_errors_[i].c_str());
}

void compare_setup::draw(frame_state& f) {
  if (open_) {
    ImGui::OpenPopup("Compare tables");
    open_ = false;
    primed_ = false;
  }
  if (!ImGui::BeginPopupModal("Compare tables", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  if (!primed_) {  // the widgets start from the entries' texts, on the window's table settings
    for (std::size_t i = 0; i < texts_.size(); ++i) {
      try {
        tables_[i] = parse_compare_entry(texts_[i], f.sess->config().table).table;
      } catch (const user_error&) {
        texts_[i] = std::string(to_string(f.sess->config().table.family));  // the window's family
        tables_[i] = parse_compare_entry(texts_[i], f.sess->config().table).table;
      }
    }
    primed_ = true;
  }
  ImGui::TextWrapped(
      "Two or three tables run the current workload side by side. Pick each table's family and "
      "options, "
      "or type its entry (family, then :name=value options, e.g. linear:probe=double or "
      "hive:slots=32) "
      "and press Enter.");
  for (std::size_t i = 0; i < texts_.size(); ++i) {
    const std::string name = "table " + std::to_string(i + 1);
    ImGui::PushID(name.c_str());
    ImGui::SeparatorText(name.c_str());
    if (i == texts_.size() - 1) ImGui::Checkbox("compare a third table", &used_[i]);
    if (used_[i]) draw_entry(f, i);
    ImGui::PopID();
  }
  ImGui::Separator();
  if (ImGui::Button("Start comparing")) {
    try {
      std::vector<compare_entry> entries;
      for (std::size_t i = 0; i < texts_.size(); ++i)
        if (used_[i]) entries.push_back(parse_compare_entry(texts_[i], f.sess->config().table));
      f.actions->start_compare(entries);
      f.error.clear();
      ImGui::CloseCurrentPopup();
    } catch (const user_error& e) {
      f.error = e.what();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
  if (!f.error.empty())
    ImGui::TextColored(role_color(ui_role::error, f.ui_theme), "%s", f.error.c_str());
  ImGui::EndPopup();
}

}  // namespace hs::app
