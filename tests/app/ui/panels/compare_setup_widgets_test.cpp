// The Compare tables dialog: each family's options are widgets (family, slots per bucket) kept in
// step with the typed entry, a typed entry is taken as typed, and a third table can be left out.
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
    "the Compare setup offers each family's options as widgets, kept in step with the typed entry",
    "[ui][compare]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  std::vector<std::string> started;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->MenuClick("//##MainMenuBar/Compare/Compare tables...");
    ctx->Yield(5);                            // the dialog sizes itself to its contents first
    ctx->SetRef("//Compare tables/table 1");  // table 1: the hive, then its bucket size
    ctx->ComboClick("family/hive");
    ctx->Yield(1);
    ctx->ComboClick("slots per bucket/32");
    ctx->Yield(1);
    ctx->SetRef("//Compare tables");
    ctx->ItemInput("table 2/##text");  // table 2: typed
    ctx->KeyCharsReplaceEnter("linear:probe=double:delete=tombstone");
    ctx->Yield(1);
    ctx->ItemClick("table 3/compare a third table");  // two tables only
    ctx->ItemClick("Start comparing");
    ctx->Yield(2);
    if (compare_set* c = f.comparing())
      for (std::size_t i = 0; i < c->size(); ++i)
        started.push_back(format_compare_entry(c->at(i).config().table, f.sess().config().table));
  });
  INFO(log);
  REQUIRE(log.empty());
  REQUIRE(started.size() == 2);
  CHECK(started[0] == "hive:slots=32");
  CHECK(started[1] == "linear:probe=double:delete=tombstone");
  compare_set& c = *f.comparing();
  CHECK(c.at(0).config().table.hive.bucket_slots == 32);
  CHECK(c.at(1).config().table.linear.probe == probe_policy::double_hash);
  CHECK(c.at(1).config().table.linear.deletes == linear_delete_mode::tombstone);
}
