// The families' bucket strips, clicked as a person picks a bucket: the slab strip shows the list
// of the bucket under the mouse, the hive strip selects its bucket and the heatmap jumps to that
// bucket's slots.
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/family_views/drawn_views.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"
#include "visualizers/views/hive_view.hpp"
#include "visualizers/views/slab_view.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::small_table;

namespace {
// Fills the table to `load`, brings `window` forward and clicks its bucket strip at `fraction` of
// its width, as a person picks a bucket.
void click_strip(ImGuiTestContext* ctx, app_frame& f, double load, const std::string& window,
                 const char* strip, float fraction) {
  f.sess().fill_to(load);
  f.sess().wait_idle();
  ctx->Yield(3);
  ctx->WindowFocus(("//" + window).c_str());
  ctx->Yield(2);
  const ImRect r = ctx->ItemInfo(("//" + window + "/" + strip).c_str()).RectFull;
  ctx->MouseMoveToPos(ImVec2(r.Min.x + r.GetWidth() * fraction, r.GetCenter().y));
  ctx->MouseClick(0);
  ctx->Yield(3);
}
}  // namespace

TEST_CASE("clicking a bucket in the slab strip shows its list; in the hive strip, its slots",
          "[ui][strips]") {
  session_config cfg = small_table();
  cfg.table.family = family::slab;
  cfg.table.capacity = 15 * 4000;
  auto ui = test::harness_or_skip(cfg);
  std::uint64_t slab_bucket = 0;
  std::string log = ui->run([&](ImGuiTestContext* ctx) {
    click_strip(ctx, ui->frame(), 0.7, "Slab lists", "strip", 0.75f);
    slab_bucket = test::drawn<vis::slab_view>(ui->frame(), "chains")->bucket();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(slab_bucket > 4000 * 0.7);
  CHECK(slab_bucket < 4000 * 0.8);

  ui.reset();  // one ImGui context at a time
  cfg.table.family = family::hive;
  cfg.table.capacity = 1u << 14;
  auto hive = test::harness_or_skip(cfg);
  std::optional<std::uint64_t> picked;
  std::uint64_t first_shown = 0;
  log = hive->run([&](ImGuiTestContext* ctx) {
    click_strip(ctx, hive->frame(), 0.5, "Buckets", "hive-strip", 0.25f);
    picked = test::drawn<vis::hive_view>(hive->frame(), "buckets")->selected_bucket();
    first_shown = hive->frame().last_request().occupancy.first_slot;
  });
  INFO(log);
  REQUIRE(log.empty());
  REQUIRE(picked);
  const std::uint64_t buckets = (1u << 14) / 16;
  CHECK(*picked > buckets * 0.2);
  CHECK(*picked < buckets * 0.3);
  CHECK(first_shown == *picked * 16);  // the heatmap jumped to the bucket's slots
}
