// What the views draw is what the table holds: after every command that changes the table (Reset,
// Step, Apply, Next stage, compare mode's Reset) the next frame asks for a sample, and every frame
// until it arrives either shows the new table or marks what it shows as old. The checks read what
// the views drew (the heatmap's sample, the numbers' rows, the histogram's total), not only the
// session. Sampling runs at a share of 1% here, as for a huge table: without sampling at once when
// a table at rest changed, the next sample would wait a hundred times the last one's duration.
#include <cmath>
#include <cstdio>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "app/ui/panels/heatmap_panel.hpp"
#include "app/ui/panels/numbers_panel.hpp"
#include "app/ui/state/sampling_policy.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;

namespace {

session_config linear_table(std::uint64_t capacity = 1u << 16) {
  session_config cfg;
  cfg.table.backend = backend::cpu;
  cfg.table.capacity = capacity;
  cfg.workload.batch_size = 1u << 12;
  return cfg;
}

// What the common views drew in the last frame.
struct shown {
  std::uint64_t version = 0;
  table_stats stats;
  bool heatmap_old = false;
  std::string live_row;      // the numbers' "live keys" row
  bool numbers_old = false;  // the numbers say their sample is old
  std::uint64_t histogram = 0;
};

shown what_views_show(const app_frame& f) {
  shown s;
  const auto* heatmap = dynamic_cast<const heatmap_panel*>(f.find_panel("Slot occupancy"));
  const auto* numbers = dynamic_cast<const numbers_panel*>(f.find_panel("Numbers"));
  REQUIRE(heatmap);
  REQUIRE(numbers);
  s.version = heatmap->drawn().version;
  s.stats = heatmap->drawn().stats;
  s.heatmap_old = heatmap->drawn().marked_old;
  for (const auto& [name, value] : numbers->drawn()) {
    if (name == "live keys") s.live_row = value;
    if (name == "sample" && value.find("before its last change") != std::string::npos)
      s.numbers_old = true;
  }
  s.histogram = f.histogram_view().drawn_total();
  return s;
}

// After a change that left the session at version `v` (at rest): the next frames ask for a
// sample of it, and until it is drawn every view marks what it shows as old. Returns the frames
// it took to show it (the caller checks what it shows).
int frames_to_show(ImGuiTestContext* ctx, app_frame& f, std::uint64_t v, bool& asked_at_once,
                   bool& unmarked_old) {
  ctx->Yield(2);
  asked_at_once = f.asked_version() >= v;
  int frames = 2;
  for (; frames < 3000; ++frames) {
    const shown s = what_views_show(f);
    if (s.version >= v) return frames;
    // An old sample drawn without a mark is what a person would take for the table as it is.
    if (!s.heatmap_old || !s.numbers_old) unmarked_old = true;
    ctx->Yield();
  }
  return frames;
}

}  // namespace

TEST_CASE(
    "after Reset of a full table every view shows the empty table at once, an old sample marked as "
    "old",
    "[ui][freshness]") {
  auto ui = test::harness_or_skip(linear_table());
  app_frame& f = ui->frame();
  session& s = f.sess();
  shown full, after;
  bool asked_at_once = false, unmarked_old = false;
  int frames = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    s.fill_to(1.0);
    s.wait_idle();
    test::wait_until(ctx, [&] { return what_views_show(f).version >= s.version(); });
    full = what_views_show(f);
    f.sampling().share = 0.01;  // a huge table's share: the views would wait 100 samples' time
    ctx->ItemClick("//Controls/run-section/Reset");
    frames = frames_to_show(ctx, f, s.version(), asked_at_once, unmarked_old);
    ctx->Yield(1);
    after = what_views_show(f);
  });
  INFO(log);
  REQUIRE(log.empty());
  std::printf("note: a Reset of a full table showed in every view after %d frames\n", frames);
  CHECK(full.stats.live == s.capacity());  // the views showed the full table first
  CHECK(full.live_row == format_count(s.capacity()));
  CHECK(full.histogram == s.capacity());
  CHECK(asked_at_once);  // the frame after Reset asks for a sample
  CHECK_FALSE(unmarked_old);
  CHECK(after.stats.live == 0);  // and then every view shows the empty table
  CHECK(after.live_row == "0");
  CHECK(after.histogram == 0);
  CHECK_FALSE(after.heatmap_old);
  CHECK_FALSE(after.numbers_old);
}

TEST_CASE("after Step the views show the batch it ran", "[ui][freshness]") {
  auto ui = test::harness_or_skip(linear_table());
  app_frame& f = ui->frame();
  session& s = f.sess();
  shown after;
  bool asked_at_once = false, unmarked_old = false;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    test::wait_until(ctx, [&] { return what_views_show(f).version >= s.version(); });
    f.sampling().share = 0.01;
    ctx->ItemClick("//Controls/run-section/Step");
    test::wait_until(ctx, [&] { return s.status().batches == 1 && s.at_rest(); });
    frames_to_show(ctx, f, s.version(), asked_at_once, unmarked_old);
    ctx->Yield(1);
    after = what_views_show(f);
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(s.status().live == 4096);
  CHECK(asked_at_once);
  CHECK_FALSE(unmarked_old);
  CHECK(after.stats.live == 4096);
  CHECK(after.live_row == "4,096");
  CHECK(after.histogram == 4096);
}

TEST_CASE("after Apply the views show the new table, never the old one's numbers",
          "[ui][freshness]") {
  auto ui = test::harness_or_skip(linear_table());
  app_frame& f = ui->frame();
  bool old_capacity_drawn = false;
  shown after;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    f.sess().fill_to(0.5);
    f.sess().wait_idle();
    test::wait_until(ctx, [&] { return what_views_show(f).stats.live > 0; });
    f.sampling().share = 0.01;
    ctx->SetRef("//Controls/table-section");
    ctx->ItemInputValue("capacity", 12);  // 2^12
    ctx->ItemClick("Apply (rebuild the table)");
    for (int i = 0; i < 3000 && what_views_show(f).stats.capacity != 4096; ++i) {
      const shown s = what_views_show(f);
      if (s.stats.capacity == (1u << 16) && f.sess().capacity() == 4096) old_capacity_drawn = true;
      ctx->Yield();
    }
    ctx->Yield(1);
    after = what_views_show(f);
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(f.sess().capacity() == 4096);
  CHECK_FALSE(
      old_capacity_drawn);  // between the rebuild and the first sample: nothing, then the new table
  CHECK(after.stats.capacity == 4096);
  CHECK(after.stats.live == 0);
  CHECK(after.live_row == "0");
}

TEST_CASE("after Next stage the views show the stage's table", "[ui][freshness]") {
  auto ui = test::harness_or_skip(linear_table());
  app_frame& f = ui->frame();
  shown first, second;
  bool asked_at_once = false, unmarked_old = false;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    scenario sc = parse_scenario(
        "capacity 2^16\nbatch 4k\nmix insert:1\nfill 0.3\ncapture heatmap\nfill 0.6\ncapture "
        "heatmap\n",
        "stages.scn");
    sc.backend = backend_choice::cpu;
    f.load_preset(sc);
    session& s = f.sess();
    test::wait_until(
        ctx, [&] { return s.held() && s.at_rest() && what_views_show(f).version >= s.version(); });
    first = what_views_show(f);
    f.sampling().share = 0.01;
    ctx->KeyPress(ImGuiKey_N);
    test::wait_until(ctx, [&] { return s.held() && s.at_rest(); });
    frames_to_show(ctx, f, s.version(), asked_at_once, unmarked_old);
    ctx->Yield(1);
    second = what_views_show(f);
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(first.stats.live == static_cast<std::uint64_t>(0.3 * 65536));
  CHECK(asked_at_once);
  CHECK_FALSE(unmarked_old);
  CHECK(second.stats.live == static_cast<std::uint64_t>(0.6 * 65536));
  CHECK(second.histogram == second.stats.live);
}

TEST_CASE(
    "in compare mode Reset shows every compared table empty at once, and the keys drive the "
    "compared tables",
    "[ui][freshness][compare]") {
  auto ui = test::harness_or_skip(linear_table(1u << 14));
  app_frame& f = ui->frame();
  bool compared_run = false, main_ran = false, marked = true, asked_keys_compare = false,
       asked_at_once = false;
  std::vector<compare_view::drawn_column> filled, emptied;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    const table_config base = f.sess().config().table;
    f.start_compare({parse_compare_entry("linear", base), parse_compare_entry("hive", base)});
    ctx->Yield(3);
    compare_set& c = *f.comparing();
    asked_keys_compare =
        f.state().keys_drive() == key_target::compared_tables;  // the new window has focus
    ctx->KeyPress(ImGuiKey_F);  // fill the compared tables to the target (0.5)
    ctx->Yield(2);
    c.wait_idle();
    compare_view& v = *f.state().compare_figure;
    test::wait_until(ctx, [&] {
      return v.drawn(0).version >= c.at(0).version() && v.drawn(1).version >= c.at(1).version();
    });
    filled = {v.drawn(0), v.drawn(1)};
    ctx->KeyPress(ImGuiKey_Space);  // run: the compared tables, not the main one
    ctx->Yield(3);
    compared_run = c.running();
    main_ran = f.sess().running() || f.sess().status().batches > 0;
    ctx->KeyPress(ImGuiKey_Space);
    ctx->Yield(2);
    c.wait_idle();
    v.period_s = 60;  // only a change may ask for a sample now
    ctx->ItemClick("//Compare/compare-controls/Reset");
    const std::uint64_t v0 = c.at(0).version(), v1 = c.at(1).version();
    ctx->Yield(2);
    asked_at_once = v.asked_version(0) >= v0 && v.asked_version(1) >= v1;
    for (int i = 0; i < 3000 && (v.drawn(0).version < v0 || v.drawn(1).version < v1); ++i) {
      if ((v.drawn(0).version < v0 && !v.drawn(0).marked_old) ||
          (v.drawn(1).version < v1 && !v.drawn(1).marked_old))
        marked = false;
      ctx->Yield();
    }
    ctx->Yield(1);
    emptied = {v.drawn(0), v.drawn(1)};
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(asked_keys_compare);
  CHECK(compared_run);
  CHECK_FALSE(main_ran);
  REQUIRE(filled.size() == 2);
  CHECK(filled[0].live == (1u << 13));
  CHECK(filled[1].live == (1u << 13));
  CHECK(asked_at_once);
  CHECK(marked);
  REQUIRE(emptied.size() == 2);
  CHECK(emptied[0].live == 0);
  CHECK(emptied[1].live == 0);
}

TEST_CASE(
    "the sampling policy samples a changed table at rest at once, else within its share, capped",
    "[freshness]") {
  sampling_policy p;
  p.share = 0.05;
  CHECK(std::abs(p.wait_after(0.01) - 0.2) < 1e-12);  // 10 ms at 5%: every 200 ms while batches run
  CHECK(p.wait_after(3.0) == p.max_wait_s);   // a slow sample holds the next back at most 1.5 s
  CHECK(p.due(0.0, 3.0, true, true));         // changed and at rest: now
  CHECK_FALSE(p.due(0.5, 3.0, true, false));  // running: the share, capped
  CHECK(p.due(1.5, 3.0, true, false));
  p.period_s = 5;  // a period the user set is kept
  CHECK_FALSE(p.due(2.0, 0.01, false, true));
  CHECK(p.due(0.0, 0.01, true, true));
  sample_freshness fr;
  CHECK(fr.label().empty());
  fr.age_s = 3.25;
  CHECK(fr.label() == "sample 3.2 s old");
  fr.sampling = true;
  CHECK(fr.label() == "sample 3.2 s old: sampling...");
  fr.old = true;
  CHECK(fr.label() == "showing the table before its last change: sampling...");
  fr = {};
  fr.never = true;
  CHECK(fr.label() == "sampling...");
}
