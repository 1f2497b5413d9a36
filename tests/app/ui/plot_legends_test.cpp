// Every plot the window draws with a legend keeps that legend off its data: outside the plot
// area, not over the bars or points it names. It failed while the probe-length histogram kept
// ImPlot's default legend, inside its top-left corner, over the tallest bars.
#include <string>

#include <imgui.h>
#include <imgui_te_context.h>
#include <implot.h>
#include <implot_internal.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/app/ui/window_steps.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;

TEST_CASE("Plots keep their legends outside the area where they draw data", "[ui][views]") {
  auto ui = test::harness_or_skip(test::small_table());
  session& s = ui->frame().sess();
  int with_legend = 0;
  std::string over;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    test::fill_from_controls(ctx, s, 0.5f);
    ctx->Yield(30);  // the views sample the full table and draw it
    ImPlotContext& plots = *ImPlot::GetCurrentContext();
    for (int i = 0; i < plots.Plots.GetBufSize(); ++i) {
      const ImPlotPlot* p = plots.Plots.GetByIndex(i);
      if (!p || p->Items.Legend.Indices.Size == 0) continue;
      ++with_legend;
      const ImRect& area = p->PlotRect;
      const ImRect& legend = p->Items.Legend.Rect;
      if (area.Overlaps(legend))
        over += "plot " + std::to_string(p->ID) + ": legend at (" + std::to_string(legend.Min.x) +
                ", " + std::to_string(legend.Min.y) + ") inside its area (" +
                std::to_string(area.Min.x) + ", " + std::to_string(area.Min.y) + ")-(" +
                std::to_string(area.Max.x) + ", " + std::to_string(area.Max.y) + ")\n";
    }
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(s.status().live > 0);
  CHECK(with_legend >= 3);  // the probe-length histogram and the two throughput plots
  INFO(over);
  CHECK(over.empty());
}
