// Throughput plots: one series per batch kind so that fills, lookups and churn read apart.
#include "visualizers/views/throughput_view.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <imgui.h>

#include "core/common/format.hpp"
#include "visualizers/plot/plot.hpp"

namespace hs::vis {

namespace {
const char* kind_label(int k) {
  static const char* names[] = {"insert batches", "find batches", "erase batches", "mixed batches"};
  return names[k & 3];
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
  ImGui::Checkbox("log rate", &log_rate);
  double rmax = 1, rmin = 1e300, t0 = pts.front().time_s, t1 = last.time_s;
  for (const auto& p : pts) rmax = std::max(rmax, p.ops_per_s), rmin = std::min(rmin, p.ops_per_s);
  const axis yr{log_rate ? std::max(1.0, rmin / 2) : 0.0, rmax * (log_rate ? 2.0 : 1.1), log_rate, "ops/s", {}, {}};
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float h = height > 0 ? height : avail.y;
  const bool side = avail.x > 2.2f * h;
  const ImVec2 size(side ? avail.x / 2 - ImGui::GetStyle().ItemSpacing.x : avail.x, side ? h : h / 2);

  std::vector<double> xs[4], ys[4], ls[4];
  for (const auto& p : pts) {
    xs[p.kind & 3].push_back(p.time_s - t0);
    ls[p.kind & 3].push_back(p.load);
    ys[p.kind & 3].push_back(p.ops_per_s);
  }
  {
    plot p("rate-time", nullptr, size, axis{0, std::max(1e-3, t1 - t0), false, "seconds", {}, {}}, yr);
    for (int k = 0; k < 4; ++k)
      if (!xs[k].empty()) p.points(xs[k], ys[k], series_color(k), kind_label(k), 2.f);
  }
  if (side) ImGui::SameLine();
  {
    plot p("rate-load", nullptr, size, axis{0, 1, false, "load factor before the batch", {}, {}}, yr);
    for (int k = 0; k < 4; ++k)
      if (!ls[k].empty()) p.points(ls[k], ys[k], series_color(k), kind_label(k), 2.5f);
  }
}

}  // namespace hs::vis
