// The Compare window is a panel like the others (the frame's list finds it by its title) and its
// close box ends compare mode, as Compare > Stop comparing does.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/app/ui/window_steps.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;

TEST_CASE("The Compare window's close box stops comparing", "[ui][compare]") {
  auto ui = test::harness_or_skip(test::small_table());
  app_frame& f = ui->frame();
  bool started = false, registered = false, stopped = false;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    test::start_comparing(ctx);
    started = f.comparing() != nullptr;
    registered = f.find_panel("Compare") != nullptr;
    ctx->SetRef("//Compare");
    ctx->ItemClick("#CLOSE");
    ctx->Yield(2);
    stopped = f.comparing() == nullptr;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(started);
  CHECK(registered);
  CHECK(stopped);
  CHECK(f.sess().status().error == false);  // the window's own table goes on
}
