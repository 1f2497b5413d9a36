// The Controls panel's Run, Pause and Step pressed as a person presses them: Run makes the load
// rise, Pause stops the batches, Step adds exactly one; on the CPU model, and on the GPU table
// under [gpu].
#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::endless;
using hs::test::pause_button;
using hs::test::run_button;
using hs::test::small_table;
using hs::test::step_button;

namespace {

// One test per backend: the CPU model here, the GPU table under [gpu] where there is a device.
void run_pause_step(backend b) {
  session_config cfg = small_table(b);
  cfg.workload = endless(cfg);
  auto ui = test::harness_or_skip(cfg);
  session& s = ui->frame().sess();
  activity while_running = activity::idle;
  std::uint64_t live_running = 0, batches_paused = 0, batches_later = 0, step_before = 0,
                step_after = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->ItemClick(run_button);
    test::wait_until(ctx, [&] { return s.status().live > 0; });
    while_running = s.status().act;
    live_running = s.status().live;
    ctx->ItemClick(pause_button);
    test::wait_until(ctx, [&] { return s.status().act == activity::idle; });
    s.wait_idle();
    batches_paused = s.status().batches;
    ctx->Yield(10);
    batches_later = s.status().batches;
    step_before = s.status().batches;
    ctx->ItemClick(step_button);
    test::wait_until(ctx, [&] { return s.status().batches > step_before; });
    s.wait_idle();
    step_after = s.status().batches;
  });
  INFO(log);
  INFO("session: " << to_string(s.status().act) << ", " << s.status().batches
                   << " batches, note: " << s.status().note);
  REQUIRE(log.empty());
  CHECK(while_running == activity::running);
  CHECK(live_running > 0);
  CHECK(batches_later == batches_paused);  // paused means paused
  CHECK(step_after == step_before + 1);    // exactly one batch
}

}  // namespace

TEST_CASE("Run makes the load rise, Pause stops it, Step adds one batch", "[ui]") {
  run_pause_step(backend::cpu);
}

TEST_CASE("Run, Pause and Step drive the GPU table", "[ui][gpu]") {
  test::require_gpu();
  run_pause_step(backend::gpu);
}
