// The heatmap panel: the mouse wheel zooms from many slots a pixel down to single slots, and the
// tooltip of a hovered slot shows the slot as the table holds it (read back by inspection).
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

TEST_CASE(
    "wheel zoom on the heatmap reaches single slots and the tooltip shows the slot as the table "
    "holds it",
    "[ui][heatmap]") {
  session_config cfg = small_table();
  cfg.table.capacity = 1u << 20;  // more slots than the heatmap has pixels
  cfg.workload.batch_size = 1u << 16;
  auto ui = test::harness_or_skip(cfg);
  app_frame& f = ui->frame();
  f.sess().fill_to(0.9);
  f.sess().wait_idle();
  int cell_before = -1, cell_after = 0, wheels = 0;
  std::optional<slot_record> shown;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    const char* image = "//Slot occupancy/heatmap";
    ctx->MouseMove(image);
    cell_before = f.heatmap().slot_cell_pixels(f.sess().capacity());
    while (wheels < 120 && f.heatmap().slot_cell_pixels(f.sess().capacity()) < 48) {
      ctx->MouseWheelY(1.f);
      ++wheels;
    }
    cell_after = f.heatmap().slot_cell_pixels(f.sess().capacity());
    // Hover cells one after another until a live slot's record has been sampled for the tooltip.
    const ImRect r = ctx->ItemInfo(image).RectFull;
    for (int i = 0; i < 40 && !(shown && shown->state == slot_state::live); ++i) {
      ctx->MouseMoveToPos(
          ImVec2(r.Min.x + 20.f + 50.f * float(i % 8), r.Min.y + 20.f + 50.f * float(i / 8)));
      test::wait_until(ctx, [&] { return f.heatmap().hovered_record().has_value(); }, 600);
      shown = f.heatmap().hovered_record();
    }
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(cell_before == 0);  // the whole table: several slots per pixel
  CHECK(cell_after >= 48);  // single slots, wide enough for their keys
  REQUIRE(shown);
  REQUIRE(shown->state == slot_state::live);
  inspect_request req;
  req.dump_first = shown->slot;
  req.dump_count = 1;
  inspect_result held;
  f.sess().tbl().inspect(req, held, stream_view{});
  REQUIRE(held.slots.size() == 1);
  CHECK(held.slots[0].slot == shown->slot);
  CHECK(held.slots[0].key == shown->key);
  CHECK(held.slots[0].value == shown->value);
  CHECK(held.slots[0].state == slot_state::live);
}
