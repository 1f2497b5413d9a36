// Telling a preset's story: the stage's caption across the top of the window, and presenter mode
// (controls hidden, large text, Space or N for the next stage, Esc to leave).
#include <algorithm>

#include <imgui.h>
#include <imgui_internal.h>  // BeginViewportSideBar

#include "app/ui/app_frame.hpp"

namespace hs::app {

namespace {
constexpr float k_present_font_size = 28.f;  // read from the back of a lecture room
}

void app_frame::set_presenting(bool on, bool quiet) {
  if (on == state_.presenting) return;
  state_.presenting = on;
  if (on) {
    font_before_present_ = state_.font_size;
    state_.font_size =
        std::max(state_.font_size, k_present_font_size);  // the status bar says which keys do what
  } else {
    state_.font_size = font_before_present_;
    if (!quiet) notify("presenter mode left");
  }
}

void app_frame::draw_caption_bar() {
  const std::string caption = state_.sess->status().caption;
  // Once the user's own commands change the table, the caption describes the stage that ended.
  const bool ended = !caption.empty() && caption == state_.ended_caption;
  const std::string shown = ended ? "The stage that ended: " + caption : caption;
  caption_drawn_ = {shown, ended, caption_drawn_.frames + 1};
  if (caption.empty()) return;
  ImGuiViewport* vp = ImGui::GetMainViewport();
  const float size = ImGui::GetFontSize() * (state_.presenting ? 1.5f : 1.25f);
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  const float wrap = std::max(100.f, vp->WorkSize.x - 2 * pad.x);
  ImGui::PushFont(nullptr, size);
  const float text_h = ImGui::CalcTextSize(shown.c_str(), nullptr, false, wrap).y;
  ImGui::PopFont();
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::BeginViewportSideBar("##caption", vp, ImGuiDir_Up, text_h + 2 * pad.y, flags)) {
    ImGui::PushFont(nullptr, size);
    ImGui::PushTextWrapPos(0.f);
    if (ended)
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextUnformatted(shown.c_str());
    if (ended) ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
  }
  ImGui::End();
}

}  // namespace hs::app
