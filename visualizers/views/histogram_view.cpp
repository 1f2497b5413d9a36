// Histogram drawing with the plot module: each displayed bar gets one unit of x, so exact and
// power-of-two bars sit side by side and every bar stays visible.
#include "visualizers/views/histogram_view.hpp"

#include <algorithm>

#include <imgui.h>

#include "core/common/format.hpp"
#include "visualizers/plot/plot.hpp"

namespace hs::vis {

std::string histogram_stats_line(const probe_histogram& h) {
  auto q = [&](double p) {
    const quantile v = h.percentile(p);
    return strprintf("%s%.0f", v.exact ? "" : "~", v.value);
  };
  return strprintf("%s keys   mean %.4f   max %u   p50 %s   p99 %s   p99.9 %s", format_count(h.total).c_str(), h.mean(),
                   h.max, q(0.5).c_str(), q(0.99).c_str(), q(0.999).c_str());
}

void histogram_view::draw(const probe_histogram& h, float height) {
  ImGui::TextUnformatted(histogram_stats_line(h).c_str());
  ImGui::SameLine();
  ImGui::Checkbox("log counts", &log_counts);
  const auto bars = h.display_bins();
  double top = 1;
  for (const auto& b : bars) top = std::max(top, static_cast<double>(b.count));
  axis x{0, static_cast<double>(bars.size()), false, "probe length (displacement from the home slot)", {}, {}};
  // Exact bars every 8; power-of-two bars every third (2^8, 2^11, ...), as 256, 2k, 16k, ...
  for (std::size_t i = 0; i <= 64 && i < bars.size(); i += 8) {
    x.ticks.push_back(static_cast<double>(i) + 0.5);
    x.tick_labels.push_back(std::to_string(i));
  }
  for (std::size_t i = 67; i < bars.size(); i += 3) {
    const unsigned long long lo = bars[i].lo;
    x.ticks.push_back(static_cast<double>(i));
    x.tick_labels.push_back(lo >= (1ull << 20) ? strprintf("%lluM", lo >> 20)
                            : lo >= 1024      ? strprintf("%lluk", lo >> 10)
                                              : std::to_string(lo));
  }
  axis y{log_counts ? 0.5 : 0.0, top * (log_counts ? 2.0 : 1.1), log_counts, "slots", {}, {}};
  plot p("probe-histogram", nullptr, ImVec2(0, height > 0 ? height : 0), x, y);
  for (std::size_t i = 0; i < bars.size(); ++i)
    if (bars[i].count) p.bar(static_cast<double>(i), static_cast<double>(i + 1), static_cast<double>(bars[i].count), series_color(i <= 64 ? 0 : 1));
  p.legend_entry("exact length", series_color(0));
  p.legend_entry("power-of-two range", series_color(1));
  double mx, my;
  if (p.hovered(mx, my)) {
    const auto i = static_cast<std::size_t>(std::max(0.0, mx));
    if (i < bars.size()) {
      ImGui::BeginTooltip();
      if (bars[i].hi == bars[i].lo + 1) ImGui::Text("probe length %llu", static_cast<unsigned long long>(bars[i].lo));
      else ImGui::Text("probe length %llu-%llu", static_cast<unsigned long long>(bars[i].lo), static_cast<unsigned long long>(bars[i].hi - 1));
      ImGui::Text("%s slots (%.3f%%)", format_count(bars[i].count).c_str(), h.total ? 100.0 * bars[i].count / h.total : 0.0);
      ImGui::EndTooltip();
    }
  }
}

}  // namespace hs::vis
