// The Controls panel's Display section: the watching pace is set there, and the frame waits for
// fewer frames only while a table runs untouched (at rest, paused or just touched it draws at the
// display's rate).
#include <cmath>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::endless;
using hs::test::pause_button;
using hs::test::run_button;
using hs::test::small_table;

TEST_CASE("the watching pace: set in Display, fewer frames only while a table runs untouched",
          "[ui]") {
  session_config cfg = small_table();
  cfg.workload = endless(cfg);
  auto ui = test::harness_or_skip(cfg);
  app_frame& f = ui->frame();
  bool changing_at_rest = true, changing_running = false, changing_paused = true;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    changing_at_rest = f.table_changing();
    ctx->SetRef("//Controls");
    ctx->ItemOpen("display-section/Display");
    ctx->ItemInputValue("display-section/frames while watching", 20.f);
    ctx->ItemClick(run_button);
    test::wait_until(ctx, [&] { return f.sess().status().live > 0; });
    changing_running = f.table_changing();
    ctx->ItemClick(pause_button);
    test::wait_until(ctx, [&] { return f.sess().status().act == activity::idle; });
    f.sess().wait_idle();
    changing_paused = f.table_changing();
  });
  INFO(log);
  REQUIRE(log.empty());
  const frame_pacing& p = f.pacing();
  CHECK(p.watching_hz == 20);
  CHECK_FALSE(changing_at_rest);
  CHECK(changing_running);
  CHECK_FALSE(changing_paused);
  // Running and untouched for longer than the grace: the rest of a twentieth of a second.
  CHECK(std::abs(p.wait_before_next(5.0, 0.01, true) - 0.04) < 1e-12);
  CHECK(p.wait_before_next(5.0, 0.2, true) == 0);    // a frame slower than the pace: no wait
  CHECK(p.wait_before_next(0.5, 0.01, true) == 0);   // input within the grace: the display's rate
  CHECK(p.wait_before_next(5.0, 0.01, false) == 0);  // at rest: the display's rate
  frame_pacing off = p;
  off.watching_hz = 0;  // "display rate" on the slider
  CHECK(off.wait_before_next(5.0, 0.01, true) == 0);
}
