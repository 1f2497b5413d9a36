// The Controls panel's Fill or drain to target: a typed target load is reached from below and from
// above, within a batch; Reset empties the table.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

TEST_CASE("Fill and drain reach the target, Reset empties the table", "[ui]") {
  auto ui = test::harness_or_skip(small_table());
  session& s = ui->frame().sess();
  double filled = 0, drained = 0;
  std::uint64_t after_reset = 1;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/run-section");
    ctx->ItemInputValue("target load", 0.6f);
    ctx->ItemClick("Fill or drain to target");
    ctx->Yield(2);
    s.wait_idle();
    filled = double(s.status().live) / double(s.capacity());
    ctx->ItemInputValue("target load", 0.2f);
    ctx->ItemClick("Fill or drain to target");
    ctx->Yield(2);
    s.wait_idle();
    drained = double(s.status().live) / double(s.capacity());
    ctx->ItemClick("Reset");
    ctx->Yield(2);
    after_reset = s.status().live;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(filled >= 0.6 - 1.0 / (1 << 14));   // the target rounds down to whole keys
  CHECK(filled < 0.6 + 513.0 / (1 << 14));  // at most one batch past the target
  CHECK(drained <= 0.2);
  CHECK(drained > 0.2 - 513.0 / (1 << 14));
  CHECK(after_reset == 0);
  CHECK(ui->frame().sess().tbl().stats(stream_view{}).live == 0);
}
