// Keys are shown as the lesson gave them: linear-code-step's decimal `step insert 12 76 140`
// writes 12 in the Code view, the lanes and the question; the Display section's "keys" combo
// turns them to hex and back; a table made with Apply (generated keys) writes hex.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/teach/code_view.hpp"
#include "app/ui/app_frame.hpp"
#include "tests/app/ui/family_views/drawn_views.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"
#include "visualizers/views/linear_walk_view.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

TEST_CASE("keys are shown as the lesson gave them, or as the Display section says", "[ui][keys]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  std::string decimal_title, hex_title, back_title, walk_csv;
  key_radix after_apply = key_radix::decimal;
  const auto code_title = [&] {
    const auto* code = test::drawn<code_view>(f, "code");
    return code ? code->walkthrough().title : std::string("(no Code view)");
  };
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/run-section");
    ctx->ComboClick("preset/linear-code-step");
    ctx->ItemClick("Load preset");
    test::wait_until(ctx, [&] { return f.sess().status().script_held; });
    // The stage's views come forward and the layout narrows the Controls for the code a few
    // frames later: focusing or scrolling before then raced with it on a loaded machine (the Probe
    // walk took focus back; the Controls reflowed under a scroll, which stopped a pixel short).
    test::wait_until(ctx, [&] { return f.windows_settled(); });
    ctx->WindowFocus("//Code");
    test::wait_until(ctx, [&] { return !code_title().empty(); });
    decimal_title = code_title();
    ctx->SetRef("//Controls");
    ctx->ItemOpen("display-section/Display");
    ctx->SetRef("//Controls/display-section");
    ctx->ComboClick("keys/hex");
    test::wait_until(ctx, [&] { return code_title() != decimal_title; });
    hex_title = code_title();
    ctx->ComboClick("keys/as given");
    test::wait_until(ctx, [&] { return code_title() != hex_title; });
    back_title = code_title();
    ctx->SetRef("//Controls/table-section");
    ctx->ComboClick("family/slab");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    after_apply = f.state().keys_radix();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(decimal_title == "insert(12) -> inserted");
  CHECK(hex_title == "insert(0x0000000c) -> inserted");
  CHECK(back_title == decimal_title);
  CHECK(after_apply == key_radix::hex);
}
