// Presenter mode: F5 hides the controls and enlarges the text, Space tells the script's next stage
// (it does not start a run), Esc leaves and restores both.
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
    "presenter mode: F5 hides the controls and enlarges the text, Space tells the next stage, Esc "
    "leaves",
    "[ui][present]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  const float normal = f.state().font_size;
  bool controls_hidden = false, controls_back = false;
  float present_font = 0;
  std::string first_caption, second_caption;
  std::size_t left_before = 0, left_after = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/run-section");
    ctx->ComboClick("preset/linear-clustering");
    ctx->ItemClick("Load preset");
    session& s = f.sess();
    ctx->Yield(2);
    s.wait_idle();
    first_caption = s.status().caption;
    left_before = s.status().script_left;
    ctx->SetRef("");
    ctx->KeyPress(ImGuiKey_F5);
    ctx->Yield(3);
    ImGuiWindow* controls = ImGui::FindWindowByName("Controls");
    controls_hidden = f.presenting() && controls && !controls->Active;
    present_font = f.state().font_size;
    ctx->KeyPress(ImGuiKey_Space);  // presenting: the next stage, not run
    test::wait_until(ctx, [&] { return s.status().caption != first_caption; });
    s.wait_idle();
    second_caption = s.status().caption;
    left_after = s.status().script_left;
    ctx->KeyPress(ImGuiKey_Escape);
    ctx->Yield(3);
    controls = ImGui::FindWindowByName("Controls");
    controls_back = !f.presenting() && controls && controls->Active;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK_FALSE(first_caption.empty());
  CHECK(controls_hidden);
  CHECK(present_font >= 28.f);
  CHECK_FALSE(second_caption.empty());
  CHECK(second_caption != first_caption);
  CHECK(left_after < left_before);
  CHECK(f.sess().status().act != activity::running);  // Space did not start a run
  CHECK(controls_back);
  CHECK(f.state().font_size == normal);
}
