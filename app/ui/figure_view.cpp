// A single view filling the image, with the numbers beside it: what `render` captures in screen
// style, drawn by the same views as the window.
#include <algorithm>

#include <imgui.h>

#include "app/ui/app_frame.hpp"
#include "app/ui/panels/devices_panel.hpp"
#include "app/ui/panels/heatmap_panel.hpp"
#include "app/ui/panels/numbers_panel.hpp"
#include "app/ui/state/record_views.hpp"
#include "visualizers/views/churn_view.hpp"
#include "visualizers/views/throughput_view.hpp"

namespace hs::app {

namespace {

// The caption wraps at the window's width, under both the view and the numbers.
float caption_height(const std::string& caption, float width) {
  if (caption.empty()) return 0.f;
  const ImGuiStyle& style = ImGui::GetStyle();
  return ImGui::CalcTextSize(caption.c_str(), nullptr, false, width - 2 * style.WindowPadding.x).y +
         2 * style.ItemSpacing.y;
}

// The heatmap keeps room for its legend beside it, and the figure's area is its image alone.
std::array<float, 4> draw_heatmap_figure(frame_state& f, ImVec2 avail) {
  const float legend_w = f.heatmap.legend_width(), gap = ImGui::GetStyle().ItemSpacing.x;
  f.heatmap.set_area(static_cast<int>(avail.x - legend_w - gap), static_cast<int>(avail.y));
  const ImVec2 at = ImGui::GetCursorScreenPos();
  f.heatmap.set_bands(shard_bands(f.sample));
  f.heatmap.draw_figure(*f.image, f.sample.inspected.slots, f.sess->capacity());
  const ImVec2 end = ImGui::GetItemRectMax();
  ImGui::SameLine();
  f.heatmap.draw_legend(ImVec2(legend_w, end.y - at.y));
  return {at.x, at.y, end.x - at.x, end.y - at.y};
}

// One of the views every family has; `rect` is left as the whole area but for the heatmap.
void draw_common_figure(frame_state& f, view_kind kind, ImVec2 avail, float fs,
                        std::array<float, 4>& rect) {
  switch (kind) {
    case view_kind::heatmap: rect = draw_heatmap_figure(f, avail); break;
    case view_kind::histogram:
      f.histogram.draw(f.sample.inspected.histogram, avail.y - 2 * fs);
      break;
    case view_kind::throughput: {
      vis::throughput_view v;
      v.draw(throughput_input_of(f.sess->throughput()), avail.y - 2 * fs);
      break;
    }
    case view_kind::timeline: {
      const auto explains = f.hooks().explains_tombstone_inserts;
      vis::churn_view v;
      v.draw(churn_input_of(f.sess->timeline(), f.sess->rebuilds()),
             explains && explains(f.sess->config().table), avail.y - 6 * fs);
      break;
    }
    case view_kind::stats: draw_number_rows(numbers(f)); break;
    case view_kind::compare:
      if (f.compare_figure) f.compare_figure->draw(avail.y);
      break;
    case view_kind::gpus: {
      devices_drawn drawn;
      draw_devices(f, drawn);
      break;
    }
  }
}

}  // namespace

std::array<float, 4> app_frame::draw_figure(std::string_view view, float width, float height,
                                            const std::string& title) {
  write_keys_as_given();
  frame_state& f = state_;
  const std::optional<view_kind> common =
      parse_view_kind(view);  // else one of the family's figures
  const bool stats_only =
      common == view_kind::stats || common == view_kind::compare;  // compare: numbers per column
  const float fs = ImGui::GetFontSize();
  const float side = stats_only ? 0.f : std::min(26.f * fs, width * 0.34f);
  const float view_w = width - side;
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, height), ImGuiCond_Always);
  std::array<float, 4> rect{};
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoScrollbar;
  if (ImGui::Begin("figure", nullptr, flags)) {
    ImGui::TextUnformatted(title.c_str());
    if (common != view_kind::compare) draw_status_line(f);  // compare: each column says its own
    ImGui::Separator();
    // The stage's caption (a scenario's `say`) goes under the view and the numbers.
    const std::string caption = f.sess->status().caption;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float caption_h = caption_height(caption, width);
    ImGui::BeginChild("view", ImVec2(view_w - 2 * style.WindowPadding.x, -caption_h),
                      ImGuiChildFlags_None, ImGuiWindowFlags_NoScrollbar);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    rect = {origin.x, origin.y, avail.x,
            avail.y};  // the view's area; the heatmap narrows it to its image
    if (!common) {
      view_context ctx = f.context(avail.y - fs, -1.0);
      if (const view_entry* v = f.ui().figure(view)) v->draw(*f.views, ctx);
    } else {
      draw_common_figure(f, *common, avail, fs, rect);
    }
    ImGui::EndChild();
    if (!stats_only) {
      ImGui::SameLine();
      ImGui::BeginChild("numbers", ImVec2(0, -caption_h), ImGuiChildFlags_Borders);
      draw_number_rows(numbers());
      ImGui::EndChild();
    }
    if (!caption.empty()) {
      ImGui::PushTextWrapPos(0.f);
      ImGui::TextUnformatted(caption.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  ImGui::End();
  return rect;
}

}  // namespace hs::app
