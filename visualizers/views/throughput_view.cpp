// Throughput plots: one series per batch kind so that fills, lookups and churn read apart.
#include "visualizers/views/throughput_view.hpp"

#include <algorithm>
#include <vector>

#include <imgui.h>
#include <implot.h>

#include "core/common/format.hpp"
#include "visualizers/series_colors.hpp"
#include "visualizers/views/plot_helpers.hpp"

namespace hs::vis {

namespace {
const char* kind_label(int k) {
  static const char* names[] = {"insert batches", "find batches", "erase batches", "mixed batches"};
  return names[k & 3];
}

/// The batches of each kind as points (xs[k], ys[k]), one scatter series per kind.
void plot_kinds(const std::vector<double> (&xs)[4], const std::vector<double> (&ys)[4], float radius) {
  for (int k = 0; k < 4; ++k)
    if (!xs[k].empty())
      ImPlot::PlotScatter(kind_label(k), xs[k].data(), ys[k].data(), static_cast<int>(xs[k].size()),
                          {ImPlotProp_Marker, ImPlotMarker_Circle, ImPlotProp_MarkerSize, radius,
                           ImPlotProp_MarkerLineColor, series_color(k), ImPlotProp_Flags, ImPlotScatterFlags_NoClip});
}
}  // namespace

void throughput_view::draw(std::span<const throughput_point> pts, float height) {
  if (pts.empty()) {
    ImGui::TextDisabled("no batches yet: press Run, Step or Fill");
    return;
  }
  const throughput_point& last = pts.back();
  ImGui::Text("last batch: %s ops at %s, load %.3f", format_count(last.ops).c_str(), format_rate(last.ops_per_s).c_str(), last.load);
  ImGui::SameLine();
  // Back from log: the linear axes restart at zero, or they would keep the log axis' lower end.
  const bool restart = ImGui::Checkbox("log rate", &log_rate) && !log_rate;
  double rmax = 1;
  for (const auto& p : pts) rmax = std::max(rmax, p.ops_per_s);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float h = height > 0 ? height : avail.y;
  const bool side = avail.x > 2.2f * h;
  const ImVec2 size(side ? avail.x / 2 - ImGui::GetStyle().ItemSpacing.x : avail.x, side ? h : h / 2);

  // At most ~4000 markers a plot: a GPU session retires thousands of batches a second, and 20,000
  // markers per plot cost the frame several milliseconds to build. Every stride-th batch is shown
  // (the last always); the numbers and the CSV keep them all.
  constexpr std::size_t k_shown = 4000;
  const std::size_t stride = (pts.size() + k_shown - 1) / k_shown;
  std::vector<double> xs[4], ys[4], ls[4];
  for (std::size_t i = 0; i < pts.size(); ++i) {
    if (i % stride != 0 && i + 1 != pts.size()) continue;
    const throughput_point& p = pts[i];
    xs[p.kind & 3].push_back(p.time_s - pts.front().time_s);
    ls[p.kind & 3].push_back(p.load);
    ys[p.kind & 3].push_back(p.ops_per_s);
  }
  if (restart) ImPlot::SetNextAxisLimits(ImAxis_Y1, 0, rmax, ImPlotCond_Always);
  if (ImPlot::BeginPlot("##rate-time", size)) {
    ImPlot::SetupAxis(ImAxis_X1, "seconds", ImPlotAxisFlags_AutoFit);
    setup_fitted_y("ops/s", log_rate);
    plot_kinds(xs, ys, 2.f);
    ImPlot::EndPlot();
  }
  if (side) ImGui::SameLine();
  if (restart) ImPlot::SetNextAxisLimits(ImAxis_Y1, 0, rmax, ImPlotCond_Always);
  if (ImPlot::BeginPlot("##rate-load", size)) {
    ImPlot::SetupAxis(ImAxis_X1, "load factor before the batch");
    ImPlot::SetupAxisLimits(ImAxis_X1, 0, 1);
    setup_fitted_y("ops/s", log_rate);
    plot_kinds(ls, ys, 2.5f);
    ImPlot::EndPlot();
  }
}

}  // namespace hs::vis
