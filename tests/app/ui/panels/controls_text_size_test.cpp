// The Controls panel's Display section: the text-size control changes the font the frame draws
// with.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

TEST_CASE("the text-size control changes the font", "[ui]") {
  auto ui = test::harness_or_skip(small_table());
  float before = 0, after = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    before = ImGui::GetFontSize();
    ctx->SetRef("//Controls");
    ctx->ItemOpen("display-section/Display");
    ctx->ItemInputValue("display-section/text size", 30.f);
    ctx->Yield(3);
    after = ImGui::GetFontSize();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(before == 16.f);
  CHECK(ui->frame().state().font_size == 30.f);
  CHECK(after == 30.f);
}
