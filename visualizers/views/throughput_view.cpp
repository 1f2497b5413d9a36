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
/// Each series as a scatter, thinned to a point a marker-sized cell of the plot
/// (point_thinning.hpp) within [x0, x1] and the y axis as shown; the newest batch of each is
/// always drawn. `x` picks the x column (time or load).
void plot_series(const throughput_input& in, std::vector<double> rate_series::*x, float radius,
                 double x0, double x1, bool log_y) {
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
  for (const rate_series& s : in.series) {
    const std::vector<double>& xs = s.*x;
    if (xs.empty()) continue;
    std::vector<std::size_t> keep = thin_to_cells(xs, s.ops_per_s, grid);
    if (keep.empty() || keep.back() != xs.size() - 1) keep.push_back(xs.size() - 1);
    std::vector<double> px, py;
    px.reserve(keep.size());
    py.reserve(keep.size());
    for (std::size_t i : keep) px.push_back(xs[i]), py.push_back(s.ops_per_s[i]);
    const ImVec4 c = series_color(s.color);
    ImPlot::PlotScatter(s.name.c_str(), px.data(), py.data(), static_cast<int>(px.size()),
                        {ImPlotProp_Marker, ImPlotMarker_Circle, ImPlotProp_MarkerSize, radius,
                         ImPlotProp_MarkerLineColor, c, ImPlotProp_MarkerFillColor, c,
                         ImPlotProp_Flags, ImPlotScatterFlags_NoClip});
  }
}
}  // namespace

void throughput_view::draw(const throughput_input& in, float height) {
  if (in.empty()) {
    ImGui::TextDisabled("no batches yet: press Run, Step or Fill");
    return;
  }
  ImGui::Text("last batch: %s ops at %s, load %.3f to %.3f", format_count(in.last_ops).c_str(),
              format_rate(in.last_rate).c_str(), in.last_load, in.last_load_after);
  ImGui::SameLine();
  // Back from log: the linear axes restart at zero, or they would keep the log axis' lower end.
  const bool restart = ImGui::Checkbox("log rate", &log_rate) && !log_rate;
  double rmax = 1, t_last = 0;
  for (const rate_series& s : in.series) {
    for (double r : s.ops_per_s) rmax = std::max(rmax, r);
    if (!s.time_s.empty()) t_last = std::max(t_last, s.time_s.back());
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float h = height > 0 ? height : avail.y;
  const bool side = avail.x > 2.2f * h;
  const ImVec2 size(side ? avail.x / 2 - ImGui::GetStyle().ItemSpacing.x : avail.x,
                    side ? h : h / 2);

  // Every batch goes in; plot_series draws one a marker-sized cell (the time axis always fits every
  // batch; the load axis thins what its zoom shows).
  if (restart) ImPlot::SetNextAxisLimits(ImAxis_Y1, 0, rmax, ImPlotCond_Always);
  if (ImPlot::BeginPlot("##rate-time", size)) {
    setup_legend_outside();
    if (t_last > 0) {
      ImPlot::SetupAxis(ImAxis_X1, "seconds", ImPlotAxisFlags_AutoFit);
    } else {  // one instant (a single batch): from zero, not the auto-fit's -0.5 s to 0.5 s
      ImPlot::SetupAxis(ImAxis_X1, "seconds");
      ImPlot::SetupAxisLimits(ImAxis_X1, -0.05, 1, ImPlotCond_Always);
    }
    setup_fitted_y("ops/s", log_rate);
    plot_series(in, &rate_series::time_s, 2.f, 0, t_last, log_rate);
    ImPlot::EndPlot();
  }
  if (side) ImGui::SameLine();
  if (restart) ImPlot::SetNextAxisLimits(ImAxis_Y1, 0, rmax, ImPlotCond_Always);
  if (ImPlot::BeginPlot("##rate-load", size)) {
    setup_legend_outside();
    ImPlot::SetupAxis(ImAxis_X1, "load factor before the batch");
    ImPlot::SetupAxisLimits(ImAxis_X1, -0.02, 1.02);  // a batch at load 0 or 1 shows whole
    setup_fitted_y("ops/s", log_rate);
    const auto shown = current_plot_limits();
    plot_series(in, &rate_series::load, 2.5f, shown[0], shown[1], log_rate);
    ImPlot::EndPlot();
  }
}

}  // namespace hs::vis
