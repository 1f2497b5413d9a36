// Histogram drawing on ImPlot: each displayed bar gets one unit of x, so exact and power-of-two
// bars sit side by side and every bar stays visible; custom ticks name the bars' probe lengths.
#include "visualizers/views/histogram_view.hpp"

#include <algorithm>
#include <vector>

#include <imgui.h>
#include <implot.h>

#include "core/common/format.hpp"
#include "visualizers/series_colors.hpp"
#include "visualizers/views/plot_helpers.hpp"

namespace hs::vis {

std::string histogram_stats_line(const probe_histogram& h) {
  auto q = [&](double p) {
    const quantile v = h.percentile(p);
    return strprintf("%s%.0f", v.exact ? "" : "~", v.value);
  };
  return strprintf("%s keys   mean %.4f   max %u   p50 %s   p99 %s   p99.9 %s",
                   format_count(h.total).c_str(), h.mean(), h.max, q(0.5).c_str(), q(0.99).c_str(),
                   q(0.999).c_str());
}

void histogram_view::draw(const probe_histogram& h, float height) {
  drawn_total_ = h.total;
  ImGui::TextUnformatted(histogram_stats_line(h).c_str());
  ImGui::SameLine();
  ImGui::Checkbox("log counts", &log_counts);
  const auto bars = h.display_bins();
  double top = 1;
  for (const auto& b : bars) top = std::max(top, static_cast<double>(b.count));
  // Exact bars every 8 (at their centres); power-of-two bars every third (2^8, 2^11, ...) at their
  // left edges, as 256, 2k, 16k, ...
  std::vector<double> ticks;
  std::vector<std::string> labels;
  // Past 64 the power-of-two ticks begin three bars on: the exact ticks stop at 56 then, so that
  // labels do not run into each other.
  const std::size_t last_exact = bars.size() > 65 ? 56 : 64;
  for (std::size_t i = 0; i <= last_exact && i < bars.size(); i += 8) {
    ticks.push_back(static_cast<double>(i) + 0.5);
    labels.push_back(std::to_string(i));
  }
  for (std::size_t i = 67; i < bars.size(); i += 3) {
    const unsigned long long lo = bars[i].lo;
    ticks.push_back(static_cast<double>(i));
    labels.push_back(lo >= (1ull << 20) ? strprintf("%lluM", lo >> 20)
                     : lo >= 1024       ? strprintf("%lluk", lo >> 10)
                                        : std::to_string(lo));
  }
  std::vector<const char*> label_ptrs;
  for (const auto& l : labels) label_ptrs.push_back(l.c_str());
  // Bar i at x = i + 0.5, in two series so that the legend tells the bin widths apart.
  std::vector<double> xs[2], ys[2];
  for (std::size_t i = 0; i < bars.size(); ++i) {
    xs[i > 64].push_back(static_cast<double>(i) + 0.5);
    ys[i > 64].push_back(static_cast<double>(bars[i].count));
  }
  if (!ImPlot::BeginPlot("##probe-histogram", plot_size(height))) return;
  setup_histogram_axes(frame_, x_label.c_str(), "slots", 0, static_cast<double>(bars.size()), top,
                       log_counts);
  ImPlot::SetupAxisTicks(ImAxis_X1, ticks.data(), static_cast<int>(ticks.size()),
                         label_ptrs.data());
  const char* names[2] = {"exact length", "power-of-two range"};
  for (int s = 0; s < 2; ++s)
    ImPlot::PlotBars(names[s], xs[s].data(), ys[s].data(), static_cast<int>(xs[s].size()), 0.9,
                     {ImPlotProp_FillColor, series_color(s)});
  const auto i = hovered_bar(0.5, bars.size());
  shown_ = current_plot_limits();
  ImPlot::EndPlot();
  if (i) {
    ImGui::BeginTooltip();
    if (bars[*i].hi == bars[*i].lo + 1)
      ImGui::Text("probe length %llu", static_cast<unsigned long long>(bars[*i].lo));
    else
      ImGui::Text("probe length %llu-%llu", static_cast<unsigned long long>(bars[*i].lo),
                  static_cast<unsigned long long>(bars[*i].hi - 1));
    ImGui::Text("%s slots (%.3f%%)", format_count(bars[*i].count).c_str(),
                h.total ? 100.0 * bars[*i].count / h.total : 0.0);
    ImGui::EndTooltip();
  }
}

}  // namespace hs::vis
