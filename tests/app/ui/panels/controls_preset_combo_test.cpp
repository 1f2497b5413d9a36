// The preset combo names what is loaded, or nothing: a scenario opened as the command line opens
// it, one loaded from the combo, a table made with Apply (no scenario's any more), and before any.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/scenario/scenario.hpp"
#include "app/ui/app_frame.hpp"
#include "app/ui/panels/controls_panel.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

TEST_CASE("the preset combo names the scenario loaded, or none", "[ui][presets]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  std::string at_start, after_cli, after_combo, after_apply;
  family combo_family = family::linear;
  const auto shown = [&] {
    const auto* c = dynamic_cast<const controls_panel*>(f.find_panel("Controls"));
    return c ? c->preset_shown() : std::string("(no Controls panel)");
  };
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->Yield(2);
    at_start = shown();
    f.load_preset(load_scenario("linear-code-step"));  // as `hashscope linear-code-step` opens it
    ctx->Yield(2);
    after_cli = shown();
    ctx->SetRef("//Controls/run-section");
    ctx->ComboClick("preset/slab-chains");
    ctx->ItemClick("Load preset");
    ctx->Yield(2);
    after_combo = shown();
    combo_family = f.sess().config().table.family;
    ctx->SetRef("//Controls/table-section");
    ctx->ComboClick("family/hive");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    after_apply = shown();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(at_start == "none loaded");
  CHECK(after_cli == "linear-code-step");
  CHECK(after_combo == "slab-chains");
  CHECK(combo_family == family::slab);
  CHECK(after_apply == "none loaded");
  CHECK(f.sess().config().table.family == family::hive);
}
