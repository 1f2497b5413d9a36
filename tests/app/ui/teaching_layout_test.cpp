// The teaching layout: a stage that shows the Code view at the presenter's text size, where the
// default layout cuts its lines off at the right, lays the family's views out across the window's
// width, so the Code view has room for its longest line, in front.
#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/teach/code_view.hpp"
#include "app/ui/app_frame.hpp"
#include "tests/app/ui/family_views/drawn_views.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;

TEST_CASE("a stage's Code view gets room for its longest line at the presenter's text size",
          "[ui][present]") {
  auto ui = test::harness_or_skip(test::small_table(), 1920, 1080);  // as a projector shows it
  app_frame& f = ui->frame();
  code_view::drawn_state first{}, settled{};
  bool code_in_front = false;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    f.set_presenting(true);
    ctx->Yield(4);
    f.load_preset(load_scenario("linear-code-step"));
    session& s = f.sess();
    test::wait_until(ctx, [&] { return s.status().script_held; });
    // The first frames the Code view is drawn in front, in the layout the stage found.
    test::wait_until(ctx, [&] {
      const code_view* cv = test::drawn<code_view>(f, "code");
      return cv && cv->drawn().width_needed > 0;
    });
    first = test::drawn<code_view>(f, "code")->drawn();
    test::wait_until(ctx, [&] { return f.windows_settled(); });
    ctx->Yield(2);
    settled = test::drawn<code_view>(f, "code")->drawn();
    const ImGuiWindow* w = ImGui::FindWindowByName("Code");
    code_in_front = w && w->Active && (!w->DockNode || w->DockNode->SelectedTabId == w->TabId);
  });
  INFO(log);
  REQUIRE(log.empty());
  INFO("first " << first.width_had << " of " << first.width_needed << ", then " << settled.width_had
                << " of " << settled.width_needed);
  CHECK(first.width_had < first.width_needed);  // the default layout cut its lines off
  CHECK(settled.width_had >= settled.width_needed);
  CHECK(settled.frames > first.frames);
  CHECK(code_in_front);
}
