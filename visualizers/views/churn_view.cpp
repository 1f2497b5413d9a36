// Churn plots on the shared plot module; rebuilds are vertical lines across all three.
#include "visualizers/views/churn_view.hpp"

#include <algorithm>
#include <vector>

#include <imgui.h>

#include "visualizers/plot/plot.hpp"

namespace hs::vis {

const char* tombstone_insert_note() {
  return "Tombstone inserts: the probe walks on to the key or to the first empty slot, remembering the "
         "first tombstone it passed, and only then claims that slot with one CAS (seed 002 claims the first "
         "tombstone at once, and stores a key twice when the key sits further on). Inserts and erases run in "
         "separate phases, so during inserts slots only go from free to taken: two threads inserting the "
         "same key race for the same slot, and the loser sees the winner's key and overwrites its value.";
}

void churn_view::draw(std::span<const churn_point> pts, std::span<const churn_event> events, bool explain,
                      float height) {
  if (explain) {
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextDisabled("%s", tombstone_insert_note());
    ImGui::PopTextWrapPos();
  }
  if (pts.empty()) {
    ImGui::TextDisabled("no timeline yet: turn on \"record churn timeline\" and run a workload");
    return;
  }
  const double x0 = static_cast<double>(pts.front().batch), x1 = static_cast<double>(pts.back().batch) + 1;
  std::vector<double> xs, load, tomb, erased, mean, mx, rate;
  double top_probe = 1, top_rate = 1;
  for (const auto& p : pts) {
    xs.push_back(static_cast<double>(p.batch));
    load.push_back(p.load);
    tomb.push_back(p.tombstones);
    erased.push_back(p.erased);
    mean.push_back(std::max(p.mean_probe, 1e-3));
    mx.push_back(std::max(p.max_probe, 1.0));
    rate.push_back(p.ops_per_s);
    top_probe = std::max(top_probe, p.max_probe);
    top_rate = std::max(top_rate, p.ops_per_s);
  }
  const float h = (height > 0 ? height : ImGui::GetContentRegionAvail().y) / 3.f - ImGui::GetStyle().ItemSpacing.y;
  auto marks = [&](plot& p, double y) {
    for (const auto& e : events) {
      const ImVec2 a = p.to_screen(static_cast<double>(e.batch), y), b = p.area_max();
      ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, p.area_min().y), ImVec2(a.x, b.y), IM_COL32(255, 80, 80, 200), 2.f);
      ImGui::GetWindowDrawList()->AddText(ImVec2(a.x + 3, p.area_min().y + 2), IM_COL32(255, 120, 120, 255), e.label.c_str());
    }
  };
  const axis xb{x0, x1, false, "batch", {}, {}};
  {
    plot p("churn-slots", nullptr, ImVec2(0, h), xb, axis{0, 1, false, "fraction of slots", {}, {}});
    p.line(xs, load, series_color(0), "live keys");
    p.line(xs, tomb, series_color(5), "tombstones");
    p.line(xs, erased, series_color(1), "erased values");
    marks(p, 0);
  }
  {
    plot p("churn-probe", nullptr, ImVec2(0, h), xb, axis{1e-2, top_probe * 2, true, "probe length", {}, {}});
    p.line(xs, mean, series_color(2), "mean");
    p.line(xs, mx, series_color(3), "longest");
    marks(p, 1);
  }
  {
    plot p("churn-rate", nullptr, ImVec2(0, h), xb, axis{0, top_rate * 1.1, false, "ops/s", {}, {}});
    p.points(xs, rate, series_color(0), "throughput", 2.5f);
    marks(p, 0);
  }
}

}  // namespace hs::vis
