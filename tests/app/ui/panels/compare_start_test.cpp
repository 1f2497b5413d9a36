// Compare mode from the menu: Compare > Compare tables starts one table of each registered family
// side by side, the Compare window's Fill or drain drives them all to the target, and Stop
// comparing ends it.
#include <set>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/app/ui/window_steps.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

TEST_CASE(
    "Compare > Compare tables starts three tables side by side; the Compare window's Fill drives "
    "them all",
    "[ui][compare]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  std::size_t tables = 0;
  std::vector<std::uint64_t> live;
  std::vector<family> families_started;
  bool closed = false;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    test::start_comparing(ctx);
    compare_set* set = f.comparing();
    if (!set) return;
    tables = set->size();
    test::compare_fill(ctx, 0.4f);
    set->wait_idle();
    for (std::size_t i = 0; i < set->size(); ++i) {
      live.push_back(set->at(i).status().live);
      families_started.push_back(set->at(i).config().table.family);
    }
    ctx->SetRef("");
    ctx->MenuClick("//##MainMenuBar/Compare/Stop comparing");
    ctx->Yield(2);
    closed = f.comparing() == nullptr;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(tables == 3);
  REQUIRE(live.size() == 3);
  // The dialog offers the registered families, one a table.
  CHECK(std::set<family>(families_started.begin(), families_started.end()) ==
        std::set<family>{family::linear, family::slab, family::hive});
  const auto want = static_cast<std::uint64_t>(0.4f * (1u << 14));
  for (std::size_t i = 0; i < live.size(); ++i) {
    if (families_started[i] == family::slab)
      CHECK(live[i] >= want - 15);  // 15 pairs a bucket: its capacity rounds to whole buckets
    else
      CHECK(live[i] == want);
  }
  CHECK(closed);
}
