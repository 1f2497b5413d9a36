// Throughput plots: one series per batch kind so that fills, lookups and churn read apart.
#include "visualizers/views/throughput_view.hpp"

#include <algorithm>
#include <vector>

#include <imgui.h>
#include <implot.h>

#include "core/common/format.hpp"
#include "visualizers/series_colors.hpp"
#include "visualizers/views/plot_helpers.hpp"
#include "visualizers/views/point_thinning.hpp"

namespace hs::vis {

namespace {
const char* kind_label(int k) {
  static const char* names[] = {"insert batches", "find batches", "erase batches", "mixed batches"};
  return names[k & 3];
}

/// The batches of each kind as points (xs[k], ys[k]), one scatter series per kind, thinned to a
/// point a marker-sized cell of the plot (point_thinning.hpp) within [x0, x1] and the y axis as
/// shown; the newest batch of each kind is always drawn.
void plot_kinds(const std::vector<double> (&xs)[4], const std::vector<double> (&ys)[4], float radius, double x0,
                double x1, bool log_y) {
  const ImVec2 area = ImPlot::GetPlotSize();
  const auto shown = current_plot_limits();
  thinning_grid grid;
  grid.x0 = x0;
  grid.x1 = x1;
  grid.y0 = shown[2];
  grid.y1 = shown[3];
  grid.columns = static_cast<std::size_t>(std::max(area.x / (2 * radius), 1.f));
  grid.rows = static_cast<std::size_t>(std::max(area.y / (2 * radius), 1.f));
  grid.log_y = log_y;
  for (int k = 0; k < 4; ++k) {
    if (xs[k].empty()) continue;
    std::vector<std::size_t> keep = thin_to_cells(xs[k], ys[k], grid);
    if (keep.empty() || keep.back() != xs[k].size() - 1) keep.push_back(xs[k].size() - 1);
    std::vector<double> x, y;
    x.reserve(keep.size());
    y.reserve(keep.size());
    for (std::size_t i : keep) x.push_back(xs[k][i]), y.push_back(ys[k][i]);
    ImPlot::PlotScatter(kind_label(k), x.data(), y.data(), static_cast<int>(x.size()),
                        {ImPlotProp_Marker, ImPlotMarker_Circle, ImPlotProp_MarkerSize, radius,
                         ImPlotProp_MarkerLineColor, series_color(k), ImPlotProp_Flags, ImPlotScatterFlags_NoClip});
  }
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

  // Every batch goes in; plot_kinds draws one a marker-sized cell (the time axis always fits every
  // batch; the load axis thins what its zoom shows).
  std::vector<double> xs[4], ys[4], ls[4];
  for (const throughput_point& p : pts) {
    xs[p.kind & 3].push_back(p.time_s - pts.front().time_s);
    ls[p.kind & 3].push_back(p.load);
    ys[p.kind & 3].push_back(p.ops_per_s);
  }
  const double t_last = pts.back().time_s - pts.front().time_s;
  if (restart) ImPlot::SetNextAxisLimits(ImAxis_Y1, 0, rmax, ImPlotCond_Always);
  if (ImPlot::BeginPlot("##rate-time", size)) {
    ImPlot::SetupAxis(ImAxis_X1, "seconds", ImPlotAxisFlags_AutoFit);
    setup_fitted_y("ops/s", log_rate);
    plot_kinds(xs, ys, 2.f, 0, t_last, log_rate);
    ImPlot::EndPlot();
  }
  if (side) ImGui::SameLine();
  if (restart) ImPlot::SetNextAxisLimits(ImAxis_Y1, 0, rmax, ImPlotCond_Always);
  if (ImPlot::BeginPlot("##rate-load", size)) {
    ImPlot::SetupAxis(ImAxis_X1, "load factor before the batch");
    ImPlot::SetupAxisLimits(ImAxis_X1, 0, 1);
    setup_fitted_y("ops/s", log_rate);
    const auto shown = current_plot_limits();
    plot_kinds(ls, ys, 2.5f, shown[0], shown[1], log_rate);
    ImPlot::EndPlot();
  }
}

}  // namespace hs::vis
