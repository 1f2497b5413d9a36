// A table over four devices in the window, simulated ones and, under [gpu][multi], four GPUs
// through NCCL: the Table section's GPUs combo rebuilds the table over 4 devices, Fill runs batches
// through the exchange, and the GPUs window then shows each device's keys (what its shard holds)
// and their probe lengths, the exchange matrix of the last batch (what the table sent from each
// device to each), each device's phases with the slowest marked and the batch's time on the host
// clock beside them; the heatmap's bands are the four shards, each labelled with its device.
#include <numeric>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "app/ui/panels/devices_panel.hpp"
#include "app/ui/panels/heatmap_panel.hpp"
#include "core/common/device.hpp"
#include "core/common/format.hpp"
#include "core/shard/sharded_view.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;

namespace {

/// Skips visibly where the GPU tests lack their four GPUs.
void require_four_gpus() {
  test::require_gpu();
  if (gpu_count() < 4) SKIP("needs 4 GPUs; this machine has " + std::to_string(gpu_count()));
}

void four_devices_shown(backend b) {
  auto h = test::harness_or_skip(test::small_table(b));
  app_frame& f = h->frame();
  devices_drawn before, after;
  std::vector<std::string> bands;
  std::vector<std::uint64_t> shard_live;
  batch_exchange sent;
  const std::string log = h->run([&](ImGuiTestContext* ctx) {
    ctx->WindowFocus("//GPUs");  // as a click on its tab does
    ctx->Yield(3);
    before = dynamic_cast<const devices_panel*>(f.find_panel("GPUs"))->drawn();
    ctx->SetRef("//Controls/table-section");
    ctx->ComboClick("GPUs/4");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    ctx->ItemClick(test::fill_button);
    test::wait_until(ctx, [&] { return f.sess().status().batches > 2 && !f.sess().running(); });
    f.sess().wait_idle();
    sharded_view& v = *as_sharded(f.sess().tbl());
    for (std::uint32_t d = 0; d < v.devices(); ++d) shard_live.push_back(v.shard(d).stats({}).live);
    sent = v.last_exchange();
    ctx->WindowFocus("//GPUs");
    test::wait_until(ctx, [&] { return f.state().sample.version == f.sess().version(); });
    ctx->Yield(3);
    after = dynamic_cast<const devices_panel*>(f.find_panel("GPUs"))->drawn();
    ctx->WindowFocus("//Slot occupancy");
    ctx->Yield(3);
    bands = dynamic_cast<const heatmap_panel*>(f.find_panel("Slot occupancy"))->drawn().bands;
  });
  REQUIRE(log.empty());
  CHECK(before.devices == 0);  // one device: the window says how to shard
  REQUIRE(after.devices == 4);
  CHECK(f.sess().config().table.devices == 4);
  CHECK(after.live == shard_live);
  CHECK(after.probed == shard_live);  // each device's probe lengths: its own keys, one a key
  CHECK(std::accumulate(shard_live.begin(), shard_live.end(), std::uint64_t{0}) ==
        f.sess().tbl().stats({}).live);
  for (const std::uint64_t n : shard_live) CHECK(n > 0);
  CHECK(after.matrix == sent.keys);
  REQUIRE(after.matrix.size() == 16);
  for (std::uint32_t j = 0; j < 4; ++j) CHECK(after.matrix[j] > 0);  // rank 0 sent to all
  for (std::uint32_t i = 1; i < 4; ++i)
    for (std::uint32_t j = 0; j < 4; ++j) CHECK(after.matrix[i * 4 + j] == 0);
  CHECK(after.phase_ms.size() == 4 * k_shard_phases);
  CHECK(after.slowest == sent.slowest());
  // The batch on the host clock, and what the critical path's phases leave of it.
  double slowest_ms = 0;
  for (const double ms : sent.phase_ms[sent.slowest()]) slowest_ms += ms;
  CHECK(sent.wall_ms > 0);
  CHECK(slowest_ms <= sent.wall_ms);  // one chunk: a device's phases run one after another
  CHECK(after.wall_ms == sent.wall_ms);
  CHECK(after.host_steps.find(strprintf("took %.2f ms on the host clock", sent.wall_ms)) !=
        std::string::npos);
  CHECK(after.host_steps.find("went between them") != std::string::npos);
  CHECK(after.link.find(b == backend::gpu ? "NCCL" : "simulated") != std::string::npos);
  // The heatmap divides the table into the four shards' bands, each labelled with its device.
  CHECK(bands == std::vector<std::string>{"device 0", "device 1", "device 2", "device 3"});
}

void move_two_to_four(backend b) {
  auto h = test::harness_or_skip(test::small_table(b));
  app_frame& f = h->frame();
  std::uint64_t live_before = 0;
  devices_drawn after;
  const std::string log = h->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/table-section");
    ctx->ComboClick("GPUs/2");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    ctx->ItemClick(test::fill_button);
    test::wait_until(ctx, [&] { return f.sess().status().batches > 2 && !f.sess().running(); });
    f.sess().wait_idle();
    live_before = f.sess().status().live;
    ctx->WindowFocus("//GPUs");
    // The window shows the filled table (its matrix and phases) before the control is pressed:
    // drawn from an older sample, the control sat higher and moved down under the click.
    test::wait_until(ctx, [&] { return f.state().sample.version == f.sess().version(); });
    ctx->Yield(3);
    ctx->SetRef("//GPUs");
    ctx->ItemInputValue("devices", 4);
    ctx->ItemClick("Move (regpus)");
    test::wait_until(ctx, [&] { return f.sess().config().table.devices == 4; });
    f.sess().wait_idle();
    test::wait_until(ctx, [&] { return f.state().sample.version == f.sess().version(); });
    ctx->Yield(3);
    after = dynamic_cast<const devices_panel*>(f.find_panel("GPUs"))->drawn();
  });
  INFO(log);
  REQUIRE(log.empty());
  INFO(f.sess().status().note);
  CHECK(f.sess().status().note.find("moved from 2 to 4 devices") != std::string::npos);
  REQUIRE(after.devices == 4);
  CHECK(live_before > 0);
  CHECK(std::accumulate(after.live.begin(), after.live.end(), std::uint64_t{0}) == live_before);
  CHECK(f.sess().tbl().stats({}).live == live_before);
  // The matrix shows the move: devices 0 and 1 sent pairs to the new devices 2 and 3.
  REQUIRE(after.matrix.size() == 16);
  CHECK(after.matrix[0 * 4 + 2] > 0);
  CHECK(after.matrix[1 * 4 + 3] > 0);
}

}  // namespace

TEST_CASE("GPUs window: four simulated devices, their keys and the exchange", "[ui][shard]") {
  four_devices_shown(backend::cpu);
}

TEST_CASE("GPUs window: four GPUs through NCCL, their keys and the exchange", "[ui][gpu][multi]") {
  require_four_gpus();
  four_devices_shown(backend::gpu);
}

TEST_CASE("GPUs window: Move (regpus) takes two simulated devices to four, every key kept",
          "[ui][shard]") {
  move_two_to_four(backend::cpu);
}

TEST_CASE("GPUs window: Move (regpus) takes two GPUs to four, every key kept", "[ui][gpu][multi]") {
  require_four_gpus();
  move_two_to_four(backend::gpu);
}
