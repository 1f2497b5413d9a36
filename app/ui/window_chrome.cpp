// Around the views: the menu bar, the status bar with its hint, the shortcut overlay, and the
// commands that buttons, menus and shortcuts share.
#include <cmath>

#include <imgui.h>
#include <imgui_internal.h>

#include "app/ui/app_frame.hpp"
#include "core/common/format.hpp"

namespace hs::app {

void app_frame::execute(command c) {
  const session_status st = sess_->status();
  switch (c) {
    case command::run_pause: st.act != activity::idle ? sess_->pause() : sess_->run(); break;
    case command::step: sess_->step(static_cast<std::uint64_t>(step_ops_)); break;
    case command::fill: sess_->fill_to(target_load_); break;
    case command::reset: sess_->reset(); break;
    case command::next_stage:
      if (st.script_held) sess_->continue_script();
      else notify("no stage waits: load a preset (Controls > Run) to step through its stages");
      break;
    case command::text_bigger: change_font_size(+2.f); break;
    case command::text_smaller: change_font_size(-2.f); break;
    case command::fullscreen: fullscreen_requested = true; break;
    case command::screenshot: screenshot_requested = true; break;
    case command::help: help_open_ = !help_open_; break;
    case command::present: set_presenting(!presenting_); break;
    case command::leave_present: set_presenting(false); break;
  }
}

void app_frame::change_font_size(float delta) {
  std::string why;
  font_size = clamp_font_size(std::round(font_size + delta), &why);
  if (!why.empty()) notify(why);
}

void app_frame::handle_shortcuts() {
  const auto c = pressed_command();
  if (!c) return;
  // Presenting, Space tells the story on: the next stage, as N does.
  execute(presenting_ && *c == command::run_pause ? command::next_stage : *c);
}

void app_frame::draw_menu_bar() {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("Compare")) {
    if (ImGui::MenuItem("Compare tables...")) compare_dialog_ = true;
    if (ImGui::MenuItem("Stop comparing", nullptr, false, compare_ != nullptr)) stop_compare();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Reset layout")) reset_layout();
    if (ImGui::MenuItem("Full screen", keys_for(command::fullscreen))) execute(command::fullscreen);
    if (ImGui::MenuItem("Presenter mode", keys_for(command::present), presenting_)) execute(command::present);
    if (ImGui::MenuItem("Larger text", keys_for(command::text_bigger))) execute(command::text_bigger);
    if (ImGui::MenuItem("Smaller text", keys_for(command::text_smaller))) execute(command::text_smaller);
    if (ImGui::MenuItem("Dark theme", nullptr, ui_theme == theme::dark)) ui_theme = theme::dark;
    if (ImGui::MenuItem("Light theme", nullptr, ui_theme == theme::light)) ui_theme = theme::light;
    if (ImGui::MenuItem("Screenshot", keys_for(command::screenshot))) execute(command::screenshot);
    ImGui::Separator();
    if (ImGui::MenuItem("Quit")) quit_requested = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Keyboard shortcuts", keys_for(command::help), help_open_)) execute(command::help);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

void app_frame::draw_status_bar() {
  const float h = ImGui::GetFrameHeight();
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar;
  if (ImGui::BeginViewportSideBar("##status-bar", ImGui::GetMainViewport(), ImGuiDir_Down, h, flags)) {
    if (ImGui::BeginMenuBar()) {
      if (!notice_.empty()) {
        ImGui::TextUnformatted(notice_.c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("|");
      }
      ImGui::TextDisabled(presenting_ ? "presenter mode: Space or N next stage   Esc: leave"
                                      : "Space: run or pause   N: next stage   F5: present   F1: all shortcuts");
      ImGui::EndMenuBar();
    }
  }
  ImGui::End();
}

void app_frame::draw_help_overlay() {
  if (!help_open_) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.95f);
  if (ImGui::Begin("Keyboard shortcuts", &help_open_,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoDocking | ImGuiWindowFlags_NoSavedSettings)) {
    draw_shortcut_table();
    ImGui::TextDisabled("Shortcuts wait while a text field is being edited. F1 or ? closes this list.");
  }
  ImGui::End();
}

}  // namespace hs::app
