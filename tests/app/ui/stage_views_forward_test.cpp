// A stage brings the views its capture line names to the front: linear-code-step's first stage
// captures `walk code heatmap`, so the Code view leaves the default layout's Probe lengths tab
// behind it; after Probe lengths is brought back to the front, the next stage (`walk code`) brings
// the Code view forward again.
#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

namespace {
// Whether `title` is the tab its dock node shows (or a window of its own).
bool in_front(const char* title) {
  const ImGuiWindow* w = ImGui::FindWindowByName(title);
  if (!w || !w->Active) return false;
  return !w->DockNode || w->DockNode->SelectedTabId == w->TabId;
}
}  // namespace

TEST_CASE("a stage brings the views its capture names to the front", "[ui][present]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  bool histogram_front_at_start = false, code_front_at_stage = false,
       heatmap_front_at_stage = false, histogram_front_after_click = false,
       code_front_next_stage = false;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->Yield(4);
    histogram_front_at_start = in_front("Probe lengths");
    ctx->SetRef("//Controls/run-section");
    ctx->ComboClick("preset/linear-code-step");
    ctx->ItemClick("Load preset");
    session& s = f.sess();
    test::wait_until(ctx, [&] { return s.status().script_held; });
    // A window a frame, after the new table's windows exist (and, where the Code view lacks the
    // width of its lines, again after the teaching layout is laid out).
    test::wait_until(ctx, [&] { return f.windows_settled(); });
    // The capture brings its views forward within a few frames of the stage (later on a loaded
    // machine than the layout settles): a view that never comes forward fails below.
    test::wait_until(ctx, [&] { return in_front("Code") && in_front("Slot occupancy"); }, 240);
    code_front_at_stage = in_front("Code");
    heatmap_front_at_stage = in_front("Slot occupancy");
    ctx->SetRef("");
    ctx->WindowFocus("//Probe lengths");  // as a click on its tab does
    ctx->Yield(2);
    histogram_front_after_click = in_front("Probe lengths");
    const std::uint64_t reached = s.status().stages_reached;
    s.continue_script();  // the question waits for an answer: pass it over
    test::wait_until(ctx, [&] {
      const session_status st = s.status();
      if (st.question) s.continue_script();
      return st.stages_reached > reached && st.script_held;
    });
    ctx->Yield(2);
    test::wait_until(ctx, [&] { return f.windows_settled(); });
    test::wait_until(ctx, [&] { return in_front("Code"); }, 240);
    code_front_next_stage = in_front("Code");
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(histogram_front_at_start);
  CHECK(code_front_at_stage);
  CHECK(heatmap_front_at_stage);
  CHECK(histogram_front_after_click);
  CHECK(code_front_next_stage);
}
