// Around the panels: the menu bar, the status bar with its hint, and the shortcut overlay.
#include <imgui.h>
#include <imgui_internal.h>

#include "app/ui/app_frame.hpp"

namespace hs::app {

void app_frame::draw_menu_bar() {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    files_.draw_menu(state_, *this);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Compare")) {
    if (ImGui::MenuItem("Compare tables...")) compare_setup_.open();
    if (ImGui::MenuItem("Stop comparing", nullptr, false, state_.compare != nullptr))
      stop_compare();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Reset layout")) reset_layout();
    if (ImGui::MenuItem("Full screen", keys_for(command::fullscreen))) execute(command::fullscreen);
    if (ImGui::MenuItem("Presenter mode", keys_for(command::present), state_.presenting))
      execute(command::present);
    if (ImGui::MenuItem("Larger text", keys_for(command::text_bigger)))
      execute(command::text_bigger);
    if (ImGui::MenuItem("Smaller text", keys_for(command::text_smaller)))
      execute(command::text_smaller);
    if (ImGui::MenuItem("Dark theme", nullptr, state_.ui_theme == theme::dark))
      state_.ui_theme = theme::dark;
    if (ImGui::MenuItem("Light theme", nullptr, state_.ui_theme == theme::light))
      state_.ui_theme = theme::light;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Keyboard shortcuts", keys_for(command::help), help_open_))
      execute(command::help);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

void app_frame::draw_status_bar() {
  const float h = ImGui::GetFrameHeight();
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar;
  if (ImGui::BeginViewportSideBar("##status-bar", ImGui::GetMainViewport(), ImGuiDir_Down, h,
                                  flags)) {
    if (ImGui::BeginMenuBar()) {
      if (!state_.gpu_fault.empty()) {  // the whole note is the heatmap's status line
        ImGui::TextColored(role_color(ui_role::error, state_.ui_theme), "%s",
                           "GPU fault: the GPU tables stopped; restart HashScope to use the GPU");
        ImGui::SameLine();
        ImGui::TextDisabled("|");
      }
      if (!state_.notice.empty()) {
        ImGui::TextUnformatted(state_.notice.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("|");
      }
      if (state_.compare) {  // which tables Space, S, F, R and N reach
        ImGui::TextDisabled(state_.keys_drive() == key_target::compared_tables
                                ? "keys drive: the compared tables"
                                : "keys drive: the main table");
        ImGui::SameLine();
        ImGui::TextDisabled("|");
      }
      ImGui::TextDisabled(
          state_.presenting
              ? "presenter mode: Space or N next stage   Esc: leave"
              : "Space: run or pause   N: next stage   F5: present   F1: all shortcuts");
      ImGui::EndMenuBar();
    }
  }
  ImGui::End();
}

void app_frame::draw_help_overlay() {
  if (!help_open_) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(
      ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
      ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.95f);
  if (ImGui::Begin("Keyboard shortcuts", &help_open_,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoDocking |
                       ImGuiWindowFlags_NoSavedSettings)) {
    draw_shortcut_table();
    ImGui::TextDisabled(
        "Shortcuts wait while a text field is being edited. With the Compare window in front, "
        "Space, "
        "S, F, R and N drive the compared tables. F1 or ? closes this list.");
  }
  ImGui::End();
}

}  // namespace hs::app
