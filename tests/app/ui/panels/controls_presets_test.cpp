// The Controls panel's presets: every shipped scenario loads from the preset combo and runs stage
// by stage (Next stage, or the Compare window's for a compare preset) to its end without an error.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

TEST_CASE("every shipped preset loads and runs stage by stage to its end", "[ui][presets]") {
  auto ui = test::harness_or_skip(small_table());
  const auto presets = shipped_scenarios();
  REQUIRE(presets.size() >= 9);
  const bool gpu = query_gpu().has_value();
  for (const std::string& name : presets) {
    if (load_scenario(name).backend == backend_choice::gpu && !gpu) {
      WARN(name << " asks for the GPU backend: skipped where there is no CUDA device");
      continue;
    }
    int stages = 0;
    std::string error;
    const std::string log = ui->run([&](ImGuiTestContext* ctx) {
      ctx->SetRef("//Controls/run-section");
      ctx->ComboClick(("preset/" + name).c_str());
      ctx->ItemClick("Load preset");
      session& s = ui->frame().sess();  // the preset made a new session
      if (compare_set* c =
              ui->frame().comparing()) {  // a compare preset: its tables run the stages
        for (;;) {
          ctx->Yield(2);
          c->wait_idle();
          error = c->error();
          if (!c->held() || !error.empty()) break;
          ++stages;
          ctx->ItemClick("//Compare/compare-controls/Next stage");
          if (ctx->IsError()) break;
        }
        return;
      }
      for (;;) {
        ctx->Yield(2);
        s.wait_idle();
        const session_status st = s.status();
        if (st.error) error = st.note;
        if (!st.script_held || st.error) break;
        ++stages;
        test::wait_until(ctx, [&] { return ui->frame().windows_settled(); });  // a new layout
        ctx->ItemClick("Next stage");
        if (ctx->IsError()) break;  // the button was not there: the log says why
      }
    });
    INFO(name << ": " << log);
    REQUIRE(log.empty());
    CHECK(error.empty());
    CHECK(stages > 0);
    if (compare_set* c = ui->frame().comparing()) {
      for (std::size_t i = 0; i < c->size(); ++i) CHECK(c->at(i).status().batches > 0);
      continue;
    }
    CHECK(ui->frame().sess().status().script_left == 0);
    CHECK(ui->frame().sess().status().batches > 0);
  }
}
