// Plot helpers on ImPlot. Histograms are framed on their bars again only when the bars outgrow
// the frame (a bar more or fewer, counts past the next power of two, the scale switched): between
// those, people pan and zoom them as any ImPlot plot, and a new bar is never hidden by an old zoom.
// Live series instead auto-fit, and the axis menu (right click) turns that off for zooming by hand.
#include "visualizers/views/plot_helpers.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <implot.h>

#include "visualizers/axis_format.hpp"

namespace hs::vis {

ImVec2 plot_size(float height) { return ImVec2(-1, height > 0 ? height : -1); }

void setup_histogram_axes(histogram_frame& last, const char* x_label, const char* y_label,
                          double x_min, double x_max, double top, bool log_y) {
  setup_legend_outside();  // bars reach every corner: no place inside hides none
  ImPlot::SetupAxes(x_label, y_label);
  if (log_y) ImPlot::SetupAxisScale(ImAxis_Y1, ImPlotScale_Log10);
  ImPlot::SetupAxisFormat(ImAxis_Y1, format_tick);
  const double frame_top = std::exp2(std::ceil(std::log2(std::max(top, 1.0))));
  const histogram_frame now{x_min, x_max, frame_top, log_y};
  const ImPlotCond cond = last == now ? ImPlotCond_Once : ImPlotCond_Always;
  last = now;
  ImPlot::SetupAxesLimits(x_min, x_max, log_y ? 0.5 : 0.0, log_y ? frame_top * 2 : frame_top * 1.05,
                          cond);
}

void setup_legend_outside() {
  ImPlot::SetupLegend(ImPlotLocation_North,
                      ImPlotLegendFlags_Outside | ImPlotLegendFlags_Horizontal);
}

std::array<double, 4> current_plot_limits() {
  const ImPlotRect r = ImPlot::GetPlotLimits();
  return {r.X.Min, r.X.Max, r.Y.Min, r.Y.Max};
}

void setup_fitted_y(const char* label, bool log) {
  // LockMin keeps a linear axis at zero while the fit moves its top: rates and counts read against
  // zero, not against the smallest value seen.
  ImPlot::SetupAxis(ImAxis_Y1, label,
                    ImPlotAxisFlags_AutoFit | (log ? 0 : ImPlotAxisFlags_LockMin));
  if (log) ImPlot::SetupAxisScale(ImAxis_Y1, ImPlotScale_Log10);
  ImPlot::SetupAxisFormat(ImAxis_Y1, format_tick);
}

std::optional<std::size_t> hovered_bar(double first_x, std::size_t count) {
  if (!ImPlot::IsPlotHovered() || count == 0) return std::nullopt;
  const double i = std::round(ImPlot::GetPlotMousePos().x - first_x);
  return static_cast<std::size_t>(std::clamp(i, 0.0, static_cast<double>(count - 1)));
}

std::optional<std::size_t> colormap_histogram(histogram_frame& last, const char* title_id,
                                              ImVec2 size, const char* x_label, const char* y_label,
                                              const char* series, std::span<const double> counts,
                                              double first_x, bool log_y, int cmap) {
  if (!ImPlot::BeginPlot(title_id, size)) return std::nullopt;
  const std::size_t n = counts.size();
  setup_histogram_axes(last, x_label, y_label, first_x - 0.5,
                       first_x + static_cast<double>(n) - 0.5,
                       std::max(1.0, *std::max_element(counts.begin(), counts.end())), log_y);
  // Ticks on the bars only, about 16 at most: bars count whole slots, moves or slabs.
  std::vector<double> ticks;
  for (std::size_t i = 0; i < n; i += (n + 15) / 16)
    ticks.push_back(first_x + static_cast<double>(i));
  ImPlot::SetupAxisTicks(ImAxis_X1, ticks.data(), static_cast<int>(ticks.size()));
  std::vector<double> xs(n);
  std::vector<ImU32> fills(n);
  for (std::size_t i = 0; i < n; ++i) {
    xs[i] = first_x + static_cast<double>(i);
    const float t = n > 1 ? static_cast<float>(i) / static_cast<float>(n - 1) : 0.f;
    fills[i] = ImGui::ColorConvertFloat4ToU32(ImPlot::SampleColormap(t, cmap));
  }
  ImPlotSpec spec;
  spec.FillColors = fills.data();
  spec.FillColor = ImPlot::SampleColormap(0.5f, cmap);  // the legend's swatch
  ImPlot::PlotBars(series, xs.data(), counts.data(), static_cast<int>(n), 0.8, spec);
  const auto hovered = hovered_bar(first_x, n);
  ImPlot::EndPlot();
  return hovered;
}

}  // namespace hs::vis
