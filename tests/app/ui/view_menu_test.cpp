// The View menu: Light theme switches the window's colours, and Reset layout docks again a view
// that was undocked.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

TEST_CASE("View > Light theme switches the theme, and View > Reset layout docks every view again",
          "[ui][layout]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  float background_dark = 0, background_light = 0;
  ImGuiID docked_before = 0, undocked = 1, docked_after = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    const auto luminance = [] {
      const ImVec4 c = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
      return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
    };
    background_dark = luminance();
    ctx->MenuClick("//##MainMenuBar/View/Light theme");
    ctx->Yield(2);
    background_light = luminance();
    docked_before = ImGui::FindWindowByName("Throughput")->DockId;
    ctx->UndockWindow("Throughput");
    ctx->Yield(2);
    undocked = ImGui::FindWindowByName("Throughput")->DockId;
    ctx->MenuClick("//##MainMenuBar/View/Reset layout");
    ctx->Yield(3);
    docked_after = ImGui::FindWindowByName("Throughput")->DockId;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(f.state().ui_theme == theme::light);
  CHECK(background_dark < 0.3f);
  CHECK(background_light > 0.8f);
  CHECK(docked_before != 0);
  CHECK(undocked == 0);
  CHECK(docked_after != 0);
}
