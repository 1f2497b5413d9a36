// Compare mode in the window: the Compare menu's dialog (two or three tables, each a family with
// options), and the Compare window, whose buttons drive every table at once.
#include <cstring>

#include <imgui.h>

#include "app/ui/app_frame.hpp"
#include "core/common/error.hpp"

namespace hs::app {

void app_frame::start_compare(const std::vector<compare_entry>& entries) {
  session_config base = sess_->config();
  base.workload = sess_->workload();
  auto set = std::make_unique<compare_set>(entries, base);  // throws before anything changes
  compare_view_.reset();
  compare_ = std::move(set);
  compare_view_ = std::make_unique<compare_view>(*compare_);
  if (!sess_->gpu()) compare_view_->period_s = 0.3;  // the CPU models sample on this thread
}

void app_frame::stop_compare() {
  compare_view_.reset();
  compare_.reset();
}

void app_frame::draw_compare_dialog() {
  if (compare_dialog_) {
    ImGui::OpenPopup("Compare tables");
    compare_dialog_ = false;
  }
  if (!ImGui::BeginPopupModal("Compare tables", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::TextWrapped("Two or three tables run the current workload side by side: a family, then :name=value options "
                     "of its own (linear:hash=identity, linear:delete=tombstone, hive:slots=32, slab:mode=multi, any:capacity=2^20). "
                     "Leave a line empty for two tables.");
  for (std::size_t i = 0; i < compare_entries_.size(); ++i)
    ImGui::InputText(("table " + std::to_string(i + 1)).c_str(), compare_entries_[i], sizeof compare_entries_[i]);
  if (ImGui::Button("Start comparing")) {
    try {
      std::vector<compare_entry> entries;
      session_config base = sess_->config();
      for (const auto& text : compare_entries_)
        if (std::strlen(text)) entries.push_back(parse_compare_entry(text, base.table));
      start_compare(entries);
      error_.clear();
      ImGui::CloseCurrentPopup();
    } catch (const user_error& e) {
      error_ = e.what();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
  if (!error_.empty()) ImGui::TextColored(role_color(ui_role::error, ui_theme), "%s", error_.c_str());
  ImGui::EndPopup();
}

void app_frame::draw_compare_window() {
  if (!compare_) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowSize(ImVec2(vp->WorkSize.x * 0.8f, vp->WorkSize.y * 0.8f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.1f, vp->WorkPos.y + vp->WorkSize.y * 0.1f), ImGuiCond_FirstUseEver);
  bool open = true;
  if (ImGui::Begin("Compare", &open)) compare_view_->draw(true);
  ImGui::End();
  if (!open) stop_compare();
}

}  // namespace hs::app
