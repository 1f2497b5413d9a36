// The linear family's probe-length histogram: the mouse wheel zooms it, and the zoom is kept while
// the table is sampled again and its bars stay.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;
using hs::test::step_button;

TEST_CASE("the probe histogram zooms with the wheel and keeps the zoom while its bars stay",
          "[ui][plots]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  f.sess().fill_to(0.7);
  f.sess().wait_idle();
  std::array<double, 4> before{}, zoomed{}, later{};
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->Yield(3);
    before = f.histogram_view().shown_limits();
    ctx->MouseMove("//Probe lengths/##probe-histogram");
    for (int i = 0; i < 4; ++i) ctx->MouseWheelY(1.f);
    ctx->Yield(2);
    zoomed = f.histogram_view().shown_limits();
    ctx->MouseMove(step_button);  // off the plot: hovering only
    ctx->Yield(20);               // the table is sampled again on each of these frames
    later = f.histogram_view().shown_limits();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(before[1] > before[0]);
  CHECK(zoomed[1] - zoomed[0] < 0.9 * (before[1] - before[0]));  // zoomed in
  CHECK(later == zoomed);                                        // and kept
}
