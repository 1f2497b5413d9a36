// Back, Forward and the history strip, pressed in the window on every family: after each, the
// views draw the restored table (the heatmap's cells and counts, the numbers' live row, the
// histogram's total) and the throughput plot's batches are cut back to what they were. GPU twins
// are tagged [gpu].
#include <vector>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "app/ui/panels/heatmap_panel.hpp"
#include "app/ui/panels/numbers_panel.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;

namespace {

// What the views drew in the last frame, and the plot's batches.
struct views_drawn {
  std::uint64_t live = 0, erased = 0, tombstones = 0, histogram = 0;
  std::string live_row;
  std::vector<float> cells;  // the heatmap's pixels: live, erased, tombstone shares
  std::size_t plotted_batches = 0;
  bool operator==(const views_drawn&) const = default;
};

views_drawn drawn_now(ImGuiTestContext* ctx, app_frame& f) {
  session& s = f.sess();
  s.wait_idle();
  const auto* heatmap = dynamic_cast<const heatmap_panel*>(f.find_panel("Slot occupancy"));
  const auto* numbers = dynamic_cast<const numbers_panel*>(f.find_panel("Numbers"));
  REQUIRE(heatmap);
  REQUIRE(numbers);
  // A real sample drawn, not only a version number that matches: at start the session's version
  // and an empty sample's are both 0, and a first snapshot read before the sampler delivered had
  // no pixels, so it could never equal the empty table seen later (the once-failing case).
  const auto drawn_current = [&] {
    return f.state().sample.pixels != nullptr && heatmap->drawn().frames > 0 &&
           heatmap->drawn().version >= s.version() && !heatmap->drawn().marked_old;
  };
  test::wait_until(ctx, drawn_current);
  REQUIRE(drawn_current());
  ctx->Yield(2);
  views_drawn v;
  v.live = heatmap->drawn().stats.live;
  v.erased = heatmap->drawn().stats.erased;
  v.tombstones = heatmap->drawn().stats.tombstones;
  v.histogram = f.histogram_view().drawn_total();
  for (const auto& [name, value] : numbers->drawn())
    if (name == "live keys") v.live_row = value;
  const sample_result& sample = f.state().sample;
  if (sample.pixels && sample.space != memory_space::device) {
    const std::size_t n =
        std::size_t{f.state().request.occupancy.width} * f.state().request.occupancy.height;
    for (std::size_t i = 0; i < n; ++i)
      v.cells.insert(v.cells.end(),
                     {sample.pixels[i].live, sample.pixels[i].erased, sample.pixels[i].tombstone});
  }
  v.plotted_batches = s.throughput().size();
  return v;
}

void press_back_and_forward(family fam, backend b) {
  INFO(to_string(fam) << (b == backend::gpu ? " on the GPU" : " on the CPU"));
  session_config cfg = test::small_table(b);
  cfg.table.family = fam;
  if (b == backend::gpu) {  // every state within the history's budget (the slab's pool is large)
    cfg.table.capacity = 1u << 20;
    cfg.workload.batch_size = 1u << 16;
  }
  auto ui = test::harness_or_skip(cfg);
  app_frame& f = ui->frame();
  views_drawn empty, filled, stepped, full, after_back, after_back2, after_forward, after_mark,
      after_key;
  std::size_t marks = 0;
  const char* target = max_fill_load(fam) > 1 ? "target load (beta)" : "target load";
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    empty = drawn_now(ctx, f);
    ctx->SetRef("//Controls/run-section");
    ctx->ItemInputValue(target, 0.3f);
    ctx->ItemClick("Fill or drain to target");
    filled = drawn_now(ctx, f);
    ctx->ItemClick("Step");
    stepped = drawn_now(ctx, f);
    ctx->ItemInputValue(target, 0.6f);
    ctx->ItemClick("Fill or drain to target");
    full = drawn_now(ctx, f);
    marks = f.sess().history().marks.size();
    ctx->ItemClick("Back");
    after_back = drawn_now(ctx, f);
    ctx->ItemClick("Back");
    after_back2 = drawn_now(ctx, f);
    ctx->ItemClick("Forward");
    after_forward = drawn_now(ctx, f);
    ctx->ItemClick("1##mark0");  // the strip's first mark: before the first fill
    after_mark = drawn_now(ctx, f);
    ctx->SetRef("");
    ctx->KeyPress(ImGuiMod_Shift | ImGuiKey_B);  // Forward by its key
    after_key = drawn_now(ctx, f);
  });
  INFO(log);
  REQUIRE(log.empty());
  REQUIRE(filled.live > 0);
  REQUIRE(full.live > stepped.live);
  CHECK(marks == 3);
  CHECK(after_back == stepped);
  CHECK(after_back2 == filled);
  CHECK(after_forward.live == stepped.live);
  CHECK(after_forward.plotted_batches == stepped.plotted_batches);
  if (b == backend::cpu) CHECK(after_forward == stepped);  // the CPU model replays exactly
  CHECK(after_mark == empty);
  CHECK(after_key.live == filled.live);
  CHECK(after_key.plotted_batches == filled.plotted_batches);
}

}  // namespace

TEST_CASE("Back, Forward and the history strip show the restored table in every view",
          "[ui][history]") {
  for (family fam : {family::linear, family::slab, family::hive})
    press_back_and_forward(fam, backend::cpu);
}

TEST_CASE("Back, Forward and the history strip on GPU tables", "[ui][gpu]") {
  test::require_gpu();
  for (family fam : {family::linear, family::slab, family::hive})
    press_back_and_forward(fam, backend::gpu);
}
