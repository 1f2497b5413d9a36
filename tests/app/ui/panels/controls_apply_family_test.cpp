// The Controls panel's Table section: choosing another family and pressing Apply rebuilds the
// table as that family, empty, and the rebuilt table fills.
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

TEST_CASE("changing the family and pressing Apply rebuilds the table", "[ui]") {
  auto ui = test::harness_or_skip(small_table());
  family after_slab = family::linear, after_hive = family::linear;
  std::uint64_t live_after_fill = 0, live_after_apply = 1;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->ItemClick(fill_button);
    ctx->Yield(2);
    ui->frame().sess().wait_idle();
    live_after_fill = ui->frame().sess().status().live;
    ctx->SetRef("//Controls/table-section");
    ctx->ComboClick("family/slab");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    after_slab = ui->frame().sess().config().table.family;
    live_after_apply = ui->frame().sess().status().live;
    IM_CHECK_STR_EQ(ui->frame().error().c_str(), "");
    ctx->ComboClick("family/hive");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    after_hive = ui->frame().sess().config().table.family;
    IM_CHECK_STR_EQ(ui->frame().error().c_str(), "");
    ctx->SetRef("");
    ctx->ItemClick(fill_button);  // the rebuilt table works
    ctx->Yield(2);
    ui->frame().sess().wait_idle();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(live_after_fill > 0);
  CHECK(after_slab == family::slab);
  CHECK(live_after_apply == 0);
  CHECK(after_hive == family::hive);
  CHECK(ui->frame().sess().status().live > 0);
  CHECK(!ui->frame().sess().status().error);
}

TEST_CASE("a 64-bit linear table's settings become a 32-bit slab table when the family changes",
          "[ui]") {
  auto ui = test::harness_or_skip(small_table());
  key_width wide = key_width::bits32, after_slab = key_width::bits64;
  family made = family::linear;
  std::string error_after_slab = "not read";
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/table-section");
    ctx->ComboClick("keys/64-bit keys (16-byte slots)");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    wide = ui->frame().sess().config().table.width;
    // The slab family holds 32-bit keys only: the family combo takes the width with it.
    ctx->ComboClick("family/slab");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    made = ui->frame().sess().config().table.family;
    after_slab = ui->frame().sess().config().table.width;
    error_after_slab = ui->frame().error();
    ctx->SetRef("");
    ctx->ItemClick(fill_button);  // the slab table works
    ctx->Yield(2);
    ui->frame().sess().wait_idle();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(wide == key_width::bits64);
  CHECK(made == family::slab);
  CHECK(after_slab == key_width::bits32);
  CHECK(error_after_slab.empty());
  CHECK(ui->frame().sess().status().live > 0);
}
