// Churn plots on ImPlot; rebuilds are vertical lines across all three, labelled at the top.
#include "visualizers/views/churn_view.hpp"

#include <algorithm>
#include <vector>

#include <imgui.h>
#include <implot.h>
#include <implot_internal.h>

#include "visualizers/series_colors.hpp"
#include "visualizers/views/plot_helpers.hpp"

namespace hs::vis {

namespace {
/// The rebuilds as one legend entry of vertical lines, each labelled at the top of the plot.
void plot_rebuilds(const std::vector<churn_input::event>& events) {
  if (events.empty()) return;
  std::vector<double> batches;
  for (const auto& e : events) batches.push_back(e.batch);
  ImPlot::PlotInfLines(
      "rebuilds", batches.data(), static_cast<int>(batches.size()),
      {ImPlotProp_LineColor, ImVec4(1.f, 0.31f, 0.31f, 0.8f), ImPlotProp_LineWeight, 2.f});
  // PlotText is no item of its own: hide the labels with the lines they name (ImPlot's public API
  // has no query for an item's visibility, hence the internal one).
  const ImPlotItem* lines = ImPlot::GetItem("rebuilds");
  if (lines && !lines->Show) return;
  const double top = ImPlot::GetPlotLimits().Y.Max;
  ImPlot::PushStyleColor(ImPlotCol_InlayText, IM_COL32(255, 120, 120, 255));
  for (const churn_input::event& e : events) {
    const ImVec2 size =
        ImGui::CalcTextSize(e.label.c_str());  // PlotText centres the text on the point
    ImPlot::PlotText(e.label.c_str(), e.batch, top, ImVec2(size.x / 2 + 3, size.y / 2 + 2),
                     {ImPlotProp_Flags, ImPlotItemFlags_NoFit});
  }
  ImPlot::PopStyleColor();
}

ImPlotSpec line_spec(int series) {
  return {ImPlotProp_LineColor, series_color(series), ImPlotProp_LineWeight, 2.f};
}
}  // namespace

const char* tombstone_insert_note() {
  return "Tombstone inserts: the probe walks on to the key or to the first empty slot, remembering "
         "the "
         "first tombstone it passed, and only then claims that slot with one CAS (Reusing Deleted "
         "Slots claims "
         "the first "
         "tombstone at once, and stores a key twice when the key sits further on). Inserts and "
         "erases run in "
         "separate phases, so during inserts slots only go from free to taken: two threads "
         "inserting the "
         "same key race for the same slot, and the loser sees the winner's key and overwrites its "
         "value.";
}

void churn_view::draw(const churn_input& in, bool explain, float height) {
  if (explain) {
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextDisabled("%s", tombstone_insert_note());
    ImGui::PopTextWrapPos();
  }
  if (in.batch.empty()) {
    ImGui::TextDisabled("no timeline yet: turn on \"record churn timeline\" and run a workload");
    return;
  }
  // Floors for the log axis, where zero has no place.
  std::vector<double> mean(in.mean_probe), mx(in.max_probe);
  for (double& v : mean) v = std::max(v, 1e-3);
  for (double& v : mx) v = std::max(v, 1.0);
  const std::vector<double>& xs = in.batch;
  const std::vector<double>&load = in.load, &tomb = in.tombstones, &erased = in.erased,
        &rate = in.ops_per_s;
  const auto& events = in.events;
  const int n = static_cast<int>(xs.size());
  const ImVec2 size(-1, (height > 0 ? height : ImGui::GetContentRegionAvail().y) / 3.f -
                            ImGui::GetStyle().ItemSpacing.y);
  if (ImPlot::BeginPlot("##churn-slots", size)) {
    setup_legend_outside();
    ImPlot::SetupAxis(ImAxis_X1, "batch", ImPlotAxisFlags_AutoFit);
    ImPlot::SetupAxis(ImAxis_Y1, "fraction of slots");
    ImPlot::SetupAxisLimits(ImAxis_Y1, 0, 1);
    ImPlot::PlotLine("live keys", xs.data(), load.data(), n, line_spec(0));
    ImPlot::PlotLine("tombstones", xs.data(), tomb.data(), n, line_spec(5));
    ImPlot::PlotLine("erased values", xs.data(), erased.data(), n, line_spec(1));
    plot_rebuilds(events);
    ImPlot::EndPlot();
  }
  if (ImPlot::BeginPlot("##churn-probe", size)) {
    setup_legend_outside();
    ImPlot::SetupAxis(ImAxis_X1, "batch", ImPlotAxisFlags_AutoFit);
    setup_fitted_y("probe length", true);
    ImPlot::PlotLine("mean", xs.data(), mean.data(), n, line_spec(2));
    ImPlot::PlotLine("longest", xs.data(), mx.data(), n, line_spec(3));
    plot_rebuilds(events);
    ImPlot::EndPlot();
  }
  if (ImPlot::BeginPlot("##churn-rate", size)) {
    setup_legend_outside();
    ImPlot::SetupAxis(ImAxis_X1, "batch", ImPlotAxisFlags_AutoFit);
    setup_fitted_y("ops/s", false);
    ImPlot::PlotScatter(
        "throughput", xs.data(), rate.data(), n,
        {ImPlotProp_Marker, ImPlotMarker_Circle, ImPlotProp_MarkerSize, 2.5f,
         ImPlotProp_MarkerLineColor, series_color(0), ImPlotProp_Flags, ImPlotScatterFlags_NoClip});
    plot_rebuilds(events);
    ImPlot::EndPlot();
  }
}

}  // namespace hs::vis
