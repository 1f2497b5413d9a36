#include "app/ui/panels/history_strip.hpp"

#include <imgui.h>

#include "app/ui/state/frame_state.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::app {

void draw_history_strip(frame_state& f) {
  const session::history_view h = f.sess->history();
  if (h.off) {
    ImGui::TextDisabled("%s", h.limit.c_str());
    return;
  }
  ImGui::TextUnformatted("history");
  ImGui::SameLine();
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  std::optional<std::uint64_t> clicked;
  for (std::size_t i = 0; i < h.marks.size(); ++i) {
    const history_mark& m = h.marks[i];
    const std::string text = strprintf("%zu##mark%zu", i + 1, i);
    if (ImGui::SmallButton(text.c_str())) clicked = m.serial;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("back to before: %s%s%s", m.label.c_str(),
                        m.caption.empty() ? "" : "\nstage: ", m.caption.c_str());
    const float next = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x +
                       ImGui::CalcTextSize("64").x + 2 * ImGui::GetStyle().FramePadding.x;
    if (next < right) ImGui::SameLine();
  }
  ImGui::TextDisabled(h.redo ? "now (%zu to replay)" : "now", h.redo);
  if (!h.limit.empty()) ImGui::TextDisabled("%s", h.limit.c_str());
  if (!clicked) return;
  try {
    f.sess->back_to_mark(*clicked);
    f.error.clear();
    f.ended_caption.clear();
    f.question.reset();
    f.heatmap.set_marks({});
  } catch (const user_error& e) {
    f.error = e.what();
  }
}

}  // namespace hs::app
