// The linear family in step mode: a traced step's probe walks are shown one operation at a time,
// the Probe walk window's arrows move through them, and the heatmap marks and zooms to each so
// that one cell is one slot.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/family_views/drawn_views.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"
#include "visualizers/views/linear_walk_view.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

TEST_CASE(
    "linear step mode: a traced step's walks, the arrows move through them, the heatmap zooms to "
    "each",
    "[ui][step]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  std::size_t ops = 0, shown_after_next = 0, shown_after_prev = 9;
  bool marked = false;
  int cell_pixels = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/run-section");
    ctx->ComboClick("preset/linear-step");
    ctx->ItemClick("Load preset");
    session& s = f.sess();
    ctx->Yield(2);
    s.wait_idle();
    ctx->ItemClick("Next stage");  // the traced step of 16 operations
    ctx->Yield(2);
    s.wait_idle();
    ctx->WindowFocus("//Probe walk");
    test::wait_until(ctx,
                     [&] { return test::drawn<vis::linear_walk_view>(f, "walk")->has_step(); });
    ctx->Yield(3);
    ops = test::drawn<vis::linear_walk_view>(f, "walk")->ops();
    ctx->SetRef("//Probe walk");
    ctx->ItemClick("walk-next");
    ctx->Yield(3);
    shown_after_next = test::drawn<vis::linear_walk_view>(f, "walk")->shown_op();
    marked = !f.heatmap().marks().empty();
    cell_pixels = f.heatmap().slot_cell_pixels(s.capacity());
    ctx->ItemClick("walk-prev");
    ctx->Yield(2);
    shown_after_prev = test::drawn<vis::linear_walk_view>(f, "walk")->shown_op();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(ops == 16);
  CHECK(shown_after_next == 1);
  CHECK(shown_after_prev == 0);
  CHECK(marked);
  CHECK(cell_pixels > 0);  // one cell per slot: the walk's keys are readable
}
