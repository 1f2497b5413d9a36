// Compare mode's Back and Forward: the Compare window's buttons take every compared table back to
// before its last command together, and forward again, and each column then draws the restored
// table: its live count, and cost points only from the commands still done.
#include <algorithm>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "app/ui/state/compare_view.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/app/ui/window_steps.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

namespace {

struct columns_seen {
  std::vector<std::uint64_t> live, drawn_live;
  std::vector<double> top_cost_load;  // the highest load among each column's cost points
};

columns_seen settle_and_read(ImGuiTestContext* ctx, app_frame& f) {
  compare_set& set = *f.comparing();
  set.wait_idle();
  const compare_view& view = *f.compare_figure();
  const auto drawn_now = [&] {
    for (std::size_t i = 0; i < set.size(); ++i) {
      const auto d = view.drawn(i);
      if (d.version < set.at(i).version() || d.marked_old || d.live != set.at(i).status().live)
        return false;
    }
    return true;
  };
  test::wait_until(ctx, drawn_now);
  REQUIRE(drawn_now());
  columns_seen seen;
  for (std::size_t i = 0; i < set.size(); ++i) {
    seen.live.push_back(set.at(i).status().live);
    seen.drawn_live.push_back(view.drawn(i).live);
    double top = 0;
    for (const auto& [load, cost] : view.cost_points(i)) top = std::max(top, load);
    seen.top_cost_load.push_back(top);
  }
  return seen;
}

}  // namespace

TEST_CASE("Compare mode: Back and Forward restore every compared table and what it draws",
          "[ui][compare][history]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  columns_seen low, high, back, forward;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    test::start_comparing(ctx);
    REQUIRE(f.comparing());
    test::compare_fill(ctx, 0.3f);
    low = settle_and_read(ctx, f);
    test::compare_fill(ctx, 0.6f);
    high = settle_and_read(ctx, f);
    ctx->ItemClick("Back");
    ctx->Yield(2);
    back = settle_and_read(ctx, f);
    ctx->ItemClick("Forward");
    ctx->Yield(2);
    forward = settle_and_read(ctx, f);
  });
  INFO(log);
  REQUIRE(log.empty());
  REQUIRE(low.live.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(low.live[i] > 0);
    CHECK(high.live[i] > low.live[i]);
    CHECK(back.live[i] == low.live[i]);  // every table, together
    CHECK(back.drawn_live[i] == low.live[i]);
    CHECK(high.top_cost_load[i] > low.top_cost_load[i]);
    CHECK(back.top_cost_load[i] <= low.top_cost_load[i] + 1e-9);  // the undone fill's points go
    CHECK(forward.live[i] == high.live[i]);
    CHECK(forward.drawn_live[i] == high.live[i]);
  }
}
