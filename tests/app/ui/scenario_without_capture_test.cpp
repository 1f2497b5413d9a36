// A scenario with no capture line: the window plays it through (its fill reaches the table and the
// heatmap draws it), and `render`, which draws only what a scenario captures, refuses it by name.
// Both the window and render refused it before ("the scenario captures nothing").
#include <filesystem>

#include <unistd.h>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/commands/render_command.hpp"
#include "app/scenario/scenario.hpp"
#include "app/ui/app_frame.hpp"
#include "app/ui/panels/heatmap_panel.hpp"
#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;

namespace {
const char* k_text = "capacity 2^14\nbatch 1k\nmix insert:1\nfill 0.4\n";
}

TEST_CASE("the window plays a scenario that captures nothing", "[ui][scenario]") {
  auto ui = test::harness_or_skip(test::small_table());
  app_frame& f = ui->frame();
  std::uint64_t live = 0, drawn_live = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    scenario sc = parse_scenario(k_text, "no-capture.scn");
    sc.backend = backend_choice::cpu;
    f.load_preset(sc);
    session& s = f.sess();
    const auto* heatmap = dynamic_cast<const heatmap_panel*>(f.find_panel("Slot occupancy"));
    REQUIRE(heatmap);
    const auto shown = [&] {
      return s.at_rest() && s.status().live > 0 && f.state().sample.pixels != nullptr &&
             heatmap->drawn().version >= s.version() && !heatmap->drawn().marked_old;
    };
    test::wait_until(ctx, shown);
    REQUIRE(shown());
    live = s.status().live;
    drawn_live = heatmap->drawn().stats.live;
  });
  INFO(log);
  REQUIRE(log.empty());
  // Fill stops at the target, the last batch cut to the keys it needs (whole keys, rounded down).
  CHECK(live >= static_cast<std::uint64_t>(0.4 * (1u << 14)));
  CHECK(live < static_cast<std::uint64_t>(0.4 * (1u << 14)) + 1024);
  CHECK(drawn_live == live);
}

TEST_CASE("render refuses a scenario that captures nothing, naming the file",
          "[render][scenario]") {
  const auto path = std::filesystem::temp_directory_path() /
                    ("hs-no-capture-" + std::to_string(::getpid()) + ".scn");
  write_file_atomically(path, k_text);
  cli_options o;
  o.command = command_kind::render;
  o.scenario = path.string();
  CHECK_THROWS_WITH(run_render(o),
                    Catch::Matchers::ContainsSubstring(path.string() + ": the scenario captures "
                                                                       "nothing for render"));
  std::filesystem::remove(path);
}
