// Keyboard shortcuts: Space runs and pauses, R resets, S and Right step, F fills, Ctrl+= and
// Ctrl+- size the text, F1 and ? toggle help, F11 asks for full screen, Ctrl+S saves a screenshot
// with its numbers; while a text field is edited the keys are text, not commands.
#include <filesystem>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "tests/app/ui/ui_test_fixtures.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
using hs::test::endless;
using hs::test::small_table;

namespace {

// What each key did, read a frame or two after it.
struct keys_seen {
  activity after_space = activity::idle, after_second_space = activity::running;
  std::uint64_t after_s = 0, after_right = 0, typed_before = 0, typed_after = 1;
  double after_f = 0;
  std::uint64_t after_r = 1;
  float bigger = 0, smaller = 0;
  bool help_on = false, help_off = true, fullscreen = false;
};

void press_session_keys(ImGuiTestContext* ctx, session& s, keys_seen& seen) {
  ctx->KeyPress(ImGuiKey_Space);
  ctx->Yield(2);
  seen.after_space = s.status().act;
  ctx->KeyPress(ImGuiKey_Space);
  ctx->Yield(2);
  s.wait_idle();
  seen.after_second_space = s.status().act;
  s.set_workload(small_table().workload);  // plain inserts for the fill below
  ctx->KeyPress(ImGuiKey_R);
  ctx->Yield(2);
  seen.after_r = s.status().live;
  ctx->KeyPress(ImGuiKey_S);
  ctx->Yield(2);
  s.wait_idle();
  seen.after_s = s.status().batches;
  ctx->KeyPress(ImGuiKey_RightArrow);
  ctx->Yield(2);
  s.wait_idle();
  seen.after_right = s.status().batches;
  ctx->KeyPress(ImGuiKey_F);
  ctx->Yield(2);
  s.wait_idle();
  seen.after_f = double(s.status().live) / double(s.capacity());
}

void press_window_keys(ImGuiTestContext* ctx, app_frame& f, keys_seen& seen) {
  ctx->KeyPress(ImGuiMod_Ctrl | ImGuiKey_Equal);
  ctx->Yield(2);
  seen.bigger = f.state().font_size;
  ctx->KeyPress(ImGuiMod_Ctrl | ImGuiKey_Minus);
  ctx->KeyPress(ImGuiMod_Ctrl | ImGuiKey_Minus);
  ctx->Yield(2);
  seen.smaller = f.state().font_size;
  ctx->KeyPress(ImGuiKey_F1);
  ctx->Yield(2);
  seen.help_on = f.help_open();
  ctx->KeyPress(ImGuiMod_Shift | ImGuiKey_Slash);  // '?'
  ctx->Yield(2);
  seen.help_off = f.help_open();
  ctx->KeyPress(ImGuiKey_F11);
  ctx->Yield(1);
  seen.fullscreen = f.fullscreen_requested;
  ctx->KeyPress(ImGuiMod_Ctrl | ImGuiKey_S);
  ctx->Yield(3);
}

// Typing into the seed field: 's' and 'r' are text there, not Step and Reset.
void type_into_seed(ImGuiTestContext* ctx, session& s, keys_seen& seen) {
  seen.typed_before = s.status().batches;
  ctx->ItemInput("//Controls/workload-section/seed");
  ctx->KeyCharsReplace("77");
  ctx->KeyPress(ImGuiKey_S);
  ctx->KeyPress(ImGuiKey_R);
  ctx->Yield(3);
  s.wait_idle();
  seen.typed_after = s.status().batches;
  ctx->KeyPress(ImGuiKey_Enter);
}

// Ctrl+S wrote a PNG named by date and time, and the numbers beside it.
void check_screenshot(const std::filesystem::path& screenshots, app_frame& f) {
  int pngs = 0, csvs = 0;
  for (const auto& e : std::filesystem::directory_iterator(screenshots)) {
    const std::string n = e.path().filename().string();
    CHECK(n.rfind("hashscope-", 0) == 0);
    pngs += e.path().extension() == ".png";
    csvs += e.path().extension() == ".csv";
  }
  CHECK(pngs == 1);
  CHECK(csvs == 1);
  CHECK(f.notice().find("screenshot saved") != std::string::npos);
}

}  // namespace

TEST_CASE("keyboard shortcuts drive the session, and wait while a text field is edited",
          "[ui][shortcuts]") {
  session_config cfg = small_table();
  cfg.workload = endless(cfg);
  auto ui = test::harness_or_skip(cfg);
  app_frame& f = ui->frame();
  session& s = f.sess();
  const auto screenshots = std::filesystem::temp_directory_path() / "hashscope-ui-shots";
  std::filesystem::remove_all(screenshots);
  std::filesystem::create_directories(screenshots);
  f.screenshot_dir = screenshots.string();
  keys_seen seen;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    press_session_keys(ctx, s, seen);
    press_window_keys(ctx, f, seen);
    type_into_seed(ctx, s, seen);
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(seen.after_space == activity::running);
  CHECK(seen.after_second_space == activity::idle);
  CHECK(seen.after_r == 0);
  CHECK(seen.after_s == 1);      // Reset cleared the batch count; S stepped once
  CHECK(seen.after_right == 2);  // and Right once more
  CHECK(seen.after_f >= 0.5);    // F filled to the default target
  CHECK(seen.bigger == 18.f);
  CHECK(seen.smaller == 14.f);
  CHECK(seen.help_on);
  CHECK_FALSE(seen.help_off);
  CHECK(seen.fullscreen);
  CHECK(seen.typed_after == seen.typed_before);
  CHECK(s.status().live > 0);  // R while typing did not reset either
  check_screenshot(screenshots, f);
}
