// The Controls panel's Table section: choosing double hashing and pressing Apply rebuilds a
// double-hashing table, which fills and passes the linear family's invariant checker.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::fill_button;
using hs::test::small_table;

TEST_CASE(
    "choosing double hashing in the Table section and pressing Apply rebuilds a double-hashing "
    "table",
    "[ui][double]") {
  auto ui = test::harness_or_skip(small_table());
  probe_policy after = probe_policy::linear;
  std::string check;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/table-section");
    ctx->ComboClick("probing/double hashing");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    after = ui->frame().sess().config().table.linear.probe;
    IM_CHECK_STR_EQ(ui->frame().error().c_str(), "");
    ctx->SetRef("");
    ctx->ItemClick(fill_button);
    ctx->Yield(2);
    ui->frame().sess().wait_idle();
    check = describe(family::linear).check_invariants(ui->frame().sess().tbl(), {});
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(after == probe_policy::double_hash);
  CHECK(ui->frame().sess().status().live > 0);
  CHECK(check == "");
}
