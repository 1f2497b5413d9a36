// The slab family's view: until a bucket is chosen it shows the longest list the table holds.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/family_views/drawn_views.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"
#include "visualizers/views/slab_view.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

TEST_CASE("the slab view shows the longest list until a bucket is chosen", "[ui][strips]") {
  session_config cfg = small_table();
  cfg.table.family = family::slab;
  cfg.table.capacity = 15 * 500;
  auto ui = test::harness_or_skip(cfg);
  app_frame& f = ui->frame();
  f.sess().fill_to(2.5);
  f.sess().wait_idle();
  std::uint64_t shown_total = 0, longest = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->WindowFocus("//Slab lists");
    test::wait_until(ctx, [&] {
      const sample_result& s = f.last_sample();
      return s.inspected.slab.chain.total > 0 &&
             s.inspected.slab.chain.bucket == test::drawn<vis::slab_view>(f, "chains")->bucket();
    });
    ctx->Yield(4);
    shown_total = f.last_sample().inspected.slab.chain.total;
    longest = f.last_sample().stats.slab.longest_chain;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(longest >= 3);
  CHECK(shown_total == longest);
}
