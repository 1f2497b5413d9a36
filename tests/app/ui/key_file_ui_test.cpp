// Your own keys in the window: File > Open key file reads a file off the UI thread, the workload
// takes its keys, the Numbers say what was read, and a fill puts exactly those keys where the
// identity hash sends them, as the heatmap then draws; a bad file names its line and changes
// nothing; the keys combo goes back to the file read last.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "app/ui/panels/heatmap_panel.hpp"
#include "app/ui/panels/numbers_panel.hpp"
#include "tests/app/ui/family_views/drawn_views.hpp"
#include "tests/support/ui_harness.hpp"
#include "visualizers/views/linear_walk_view.hpp"

using namespace hs;
using namespace hs::app;
namespace fs = std::filesystem;

namespace {

constexpr const char* k_dialog = "//Open a key file###hashscope-open-key-file";
constexpr key_type k_first = 5000, k_count = 1024;
constexpr std::uint64_t k_slots = 1u << 13;  // the fill's target, 1/8, types exactly

std::string numbers_row(const app_frame& f, const std::string& name) {
  const auto* numbers = dynamic_cast<const numbers_panel*>(f.find_panel("Numbers"));
  REQUIRE(numbers);
  for (const auto& [row, value] : numbers->drawn())
    if (row == name) return value;
  return "";
}

// The live share the heatmap's pixel `p` should show when exactly the slots
// [k_first % k_slots, + k_count) hold keys.
double expected_live(const occupancy_query& q, std::uint64_t p) {
  const std::uint64_t pixels = std::uint64_t{q.width} * q.height;
  std::uint64_t lo = q.first_slot + p, hi = lo + 1;
  if (q.slot_count > pixels) {
    lo = q.first_slot + p * q.slot_count / pixels;
    hi = q.first_slot + (p + 1) * q.slot_count / pixels;
  } else if (p >= q.slot_count) {
    return 0;
  }
  const std::uint64_t a = k_first % k_slots, b = a + k_count;
  const std::uint64_t overlap =
      std::min(hi, b) > std::max(lo, a) ? std::min(hi, b) - std::max(lo, a) : 0;
  return static_cast<double>(overlap) / static_cast<double>(hi - lo);
}

}  // namespace

TEST_CASE(
    "File > Open key file: the workload takes the file's keys, and a fill stores exactly them",
    "[ui][keys]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-key-file-ui";
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream good(dir / "ids.txt");
    for (key_type k = k_first; k < k_first + k_count; ++k) good << k << "\n";
    good << k_first << "\n";  // a duplicate
    std::ofstream(dir / "latin1.txt") << "caf\xe9\n";
  }
  session_config cfg;
  cfg.table.backend = backend::cpu;
  cfg.table.capacity = k_slots;
  cfg.table.hash = hash_kind::identity;
  cfg.workload.batch_size = 64;
  auto ui = test::harness_or_skip(cfg);
  app_frame& f = ui->frame();
  std::string read_row, error_after_bad;
  std::shared_ptr<const workload::key_list> after_good, after_bad, after_combo;
  workload::distribution uniform_picked = workload::distribution::file;
  std::uint64_t live = 0, version = 0;
  bool heatmap_right = false;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->MenuClick("//##MainMenuBar/File/Open key file...");
    test::choose_file(ctx, k_dialog, (dir / "ids.txt").string(), "Open");
    test::wait_until(ctx, [&] { return f.sess().workload().key_file != nullptr; });
    ctx->Yield(2);
    after_good = f.sess().workload().key_file;
    read_row = numbers_row(f, "keys read");
    // Fill to exactly the file's keys: 1,024 of 8,192 slots.
    ctx->SetRef("//Controls");
    ctx->ItemInputValue("run-section/target load", static_cast<float>(k_count) / k_slots);
    ctx->ItemClick("run-section/Fill or drain to target");
    test::wait_until(ctx, [&] { return f.sess().at_rest() && f.sess().status().live > 0; });
    f.sess().wait_idle();
    live = f.sess().status().live;
    version = f.sess().version();
    const auto* heatmap = dynamic_cast<const heatmap_panel*>(f.find_panel("Slot occupancy"));
    test::wait_until(ctx, [&] { return heatmap->drawn().version >= version; });
    const occupancy_query& q = f.last_request().occupancy;
    const auto* px = f.last_sample().pixels;
    heatmap_right = px && q.width && q.height;
    for (std::uint64_t p = 0; heatmap_right && p < std::uint64_t{q.width} * q.height; ++p)
      heatmap_right = std::abs(px[p].live - expected_live(q, p)) < 1e-6;
    // A file that is not UTF-8: the error names it and its line, the keys stay.
    ctx->KeyPress(ImGuiMod_Ctrl | ImGuiKey_K);
    test::choose_file(ctx, k_dialog, (dir / "latin1.txt").string(), "Open");
    test::wait_until(ctx, [&] { return !f.error().empty(); });
    error_after_bad = f.error();
    after_bad = f.sess().workload().key_file;
    // Another distribution, then back to the file read last.
    ctx->SetRef("//Controls/workload-section");
    ctx->ComboClick("keys/uniform");
    uniform_picked = f.sess().workload().keys.dist;
    ctx->ComboClick("keys/key file");
    after_combo = f.sess().workload().key_file;
  });
  INFO(log);
  REQUIRE(log.empty());
  REQUIRE(after_good);
  CHECK(after_good->keys.size() == k_count);
  CHECK(read_row.find("1,024 keys (decimal) from 1,025 lines: 1 duplicate") != std::string::npos);
  CHECK(live == k_count);
  CHECK(heatmap_right);  // identity: key k in slot k mod 8192, a run of 1,024 live slots at 5000
  CHECK(error_after_bad.find("latin1.txt:1: not UTF-8 text") != std::string::npos);
  CHECK(after_bad == after_good);
  CHECK(uniform_picked == workload::distribution::uniform_unique);
  CHECK(after_combo == after_good);
  CHECK(f.sess().workload().keys.dist == workload::distribution::file);
}

TEST_CASE("typed keys step one by one as traced operations; an entry that is no key steps nothing",
          "[ui][keys]") {
  auto ui = test::harness_or_skip(test::identity_table(1u << 10));
  app_frame& f = ui->frame();
  std::vector<key_type> stepped;
  std::uint64_t live_after = 0, batches_before_bad = 0, batches_after_bad = 1;
  std::string typed_error, error_after_bad_step;
  bool walk_shows_ada = false;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/run-section");
    ctx->ItemInput("your keys");
    ctx->KeyCharsReplaceEnter("12, 44 ada");
    ctx->Yield(2);
    for (int i = 0; i < 3; ++i) {
      const std::uint64_t before = f.sess().status().batches;
      ctx->ItemClick("Step");
      test::wait_until(ctx, [&] { return f.sess().status().batches > before; });
      f.sess().wait_idle();
      const auto trace = f.sess().last_step();
      if (trace && trace->ops.size() == 1) stepped.push_back(trace->ops[0].key);
    }
    live_after = f.sess().status().live;
    // The step view replays the last typed key's walk.
    ctx->WindowFocus("//Probe walk");
    test::wait_until(ctx, [&] {
      const auto* walk = test::drawn<vis::linear_walk_view>(f, "walk");
      return walk && walk->has_step() && walk->ops() == 1 &&
             walk->csv().find("," + std::to_string(workload::text_key("ada")) + ",") !=
                 std::string::npos;
    });
    walk_shows_ada =
        test::drawn<vis::linear_walk_view>(f, "walk")->csv().find(
            "," + std::to_string(workload::text_key("ada")) + ",") != std::string::npos;
    ctx->SetRef("//Controls/run-section");
    ctx->ItemInput("your keys");
    ctx->KeyCharsReplaceEnter("12, 12abc");
    ctx->Yield(2);
    typed_error = f.state().typed.error();
    batches_before_bad = f.sess().status().batches;
    ctx->ItemClick("Step");
    ctx->Yield(5);
    f.sess().wait_idle();
    batches_after_bad = f.sess().status().batches;
    error_after_bad_step = f.error();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(stepped == std::vector<key_type>{12, 44, workload::text_key("ada")});
  CHECK(live_after == 3);
  CHECK(walk_shows_ada);
  CHECK(typed_error.find("'12abc' is neither a key") != std::string::npos);
  CHECK(batches_after_bad == batches_before_bad);  // nothing stepped
  CHECK(error_after_bad_step.find("nothing stepped: '12abc'") != std::string::npos);
}
