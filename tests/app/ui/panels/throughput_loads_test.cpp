// The Throughput window after Fill, on the CPU model and [gpu] on the GPU (where three batches are
// in flight at once): one point per batch, each at the load the table had when that batch ran,
// and the "last batch" line ending at the load the table holds. It failed on the GPU while loads
// were read at launch, before the batches still in flight had counted: the last of eight points
// then read 0.3125 with the table at 0.5.
#include <algorithm>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "app/ui/panels/throughput_panel.hpp"
#include "tests/app/ui/window_steps.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;

namespace {

void fill_and_read_throughput(backend b) {
  session_config cfg;
  cfg.table.backend = b;
  cfg.table.capacity = b == backend::gpu ? (1u << 22) : (1u << 14);
  cfg.workload.batch_size = static_cast<std::uint32_t>(cfg.table.capacity / 16);
  auto ui = test::harness_or_skip(cfg);
  session& s = ui->frame().sess();
  const auto* panel = dynamic_cast<const throughput_panel*>(ui->frame().find_panel("Throughput"));
  REQUIRE(panel);
  const auto drawn_points = [&] {
    std::size_t n = 0;
    for (const auto& series : panel->drawn().series) n += series.load.size();
    return n;
  };
  std::size_t batches = 0, points = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    test::fill_from_controls(ctx, s, 0.5f);
    batches = s.status().batches;
    test::wait_until(ctx, [&] { return drawn_points() == batches; });
    points = drawn_points();
  });
  INFO(log);
  REQUIRE(log.empty());
  const double cap = double(s.capacity());
  REQUIRE(batches == 8);
  REQUIRE(points == 8);
  CHECK(double(s.status().live) / cap == 0.5);
  // Every batch inserted cap / 16 new keys: batch i ran from load i / 16 (exact in binary).
  std::vector<double> loads;
  for (const auto& series : panel->drawn().series)
    loads.insert(loads.end(), series.load.begin(), series.load.end());
  std::sort(loads.begin(), loads.end());
  for (std::size_t i = 0; i < loads.size(); ++i) {
    CAPTURE(i);
    CHECK(loads[i] == double(i) / 16);
  }
  CHECK(panel->drawn().last_load == 7.0 / 16);
  CHECK(panel->drawn().last_load_after == double(s.status().live) / cap);
  CHECK(panel->drawn().last_ops == cap / 16);
  CHECK(s.throughput().back().load_after == 0.5);
}

}  // namespace

TEST_CASE("Throughput: after Fill every batch is drawn at the load it ran at", "[ui]") {
  fill_and_read_throughput(backend::cpu);
}

TEST_CASE("Throughput on the GPU: the batches in flight count in the loads drawn", "[ui][gpu]") {
  test::require_gpu();
  fill_and_read_throughput(backend::gpu);
}
