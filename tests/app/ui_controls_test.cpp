// The window's controls pressed as a person presses them: the Dear ImGui Test Engine moves the
// mouse to a widget found by its label and clicks, presses keys, turns the wheel, and the checks
// read what the session did. Runs on the CPU model here (and on the GPU backend under [gpu]).
#include <cmath>
#include <filesystem>
#include <set>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/families/hive_ui.hpp"
#include "app/families/linear_ui.hpp"
#include "app/families/slab_ui.hpp"
#include "app/ui/app_frame.hpp"
#include "core/common/error.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;

namespace {

constexpr const char* run_button = "//Controls/run-section/Run";
constexpr const char* pause_button = "//Controls/run-section/Pause";
constexpr const char* step_button = "//Controls/run-section/Step";
constexpr const char* reset_button = "//Controls/run-section/Reset";
constexpr const char* fill_button = "//Controls/run-section/Fill or drain to target";

session_config small_table(backend b = backend::cpu) {
  session_config cfg;
  cfg.table.backend = b;
  cfg.table.capacity = b == backend::gpu ? (1u << 24) : (1u << 14);
  cfg.workload.batch_size = b == backend::gpu ? (1u << 18) : (1u << 9);
  return cfg;
}

// A workload that runs until paused: half inserts of keys from a quarter of the table's size
// (they soon only overwrite), half lookups, so the table never fills and Run never stops itself.
workload::workload_spec endless(const session_config& cfg) {
  workload::workload_spec w = cfg.workload;
  w.keys.dist = workload::distribution::uniform_dup;
  w.keys.universe = cfg.table.capacity / 4;
  w.mix = {0.5, 0.5, 0, 0};
  return w;
}

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

TEST_CASE("Fill and drain reach the target, Reset empties the table", "[ui]") {
  auto ui = test::harness_or_skip(small_table());
  session& s = ui->frame().sess();
  double filled = 0, drained = 0;
  std::uint64_t after_reset = 1;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/run-section");
    ctx->ItemInputValue("target load", 0.6f);
    ctx->ItemClick("Fill or drain to target");
    ctx->Yield(2);
    s.wait_idle();
    filled = double(s.status().live) / double(s.capacity());
    ctx->ItemInputValue("target load", 0.2f);
    ctx->ItemClick("Fill or drain to target");
    ctx->Yield(2);
    s.wait_idle();
    drained = double(s.status().live) / double(s.capacity());
    ctx->ItemClick("Reset");
    ctx->Yield(2);
    after_reset = s.status().live;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(filled >= 0.6 - 1.0 / (1 << 14));   // the target rounds down to whole keys
  CHECK(filled < 0.6 + 513.0 / (1 << 14));  // at most one batch past the target
  CHECK(drained <= 0.2);
  CHECK(drained > 0.2 - 513.0 / (1 << 14));
  CHECK(after_reset == 0);
  CHECK(ui->frame().sess().tbl().stats(stream_view{}).live == 0);
}

TEST_CASE("changing the family and pressing Apply rebuilds the table", "[ui]") {
  auto ui = test::harness_or_skip(small_table());
  family after_slab = family::linear, after_hive = family::linear;
  std::uint64_t live_after_fill = 0, live_after_apply = 1;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->ItemClick(fill_button);
    ctx->Yield(2);
    ui->frame().sess().wait_idle();
    live_after_fill = ui->frame().sess().status().live;
    ctx->SetRef("//Controls/table-section");
    ctx->ComboClick("family/slab");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    after_slab = ui->frame().sess().config().table.family;
    live_after_apply = ui->frame().sess().status().live;
    IM_CHECK_STR_EQ(ui->frame().error().c_str(), "");
    ctx->ComboClick("family/hive");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    after_hive = ui->frame().sess().config().table.family;
    IM_CHECK_STR_EQ(ui->frame().error().c_str(), "");
    ctx->SetRef("");
    ctx->ItemClick(fill_button);  // the rebuilt table works
    ctx->Yield(2);
    ui->frame().sess().wait_idle();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(live_after_fill > 0);
  CHECK(after_slab == family::slab);
  CHECK(live_after_apply == 0);
  CHECK(after_hive == family::hive);
  CHECK(ui->frame().sess().status().live > 0);
  CHECK(!ui->frame().sess().status().error);
}

TEST_CASE("every shipped preset loads and runs stage by stage to its end", "[ui][presets]") {
  auto ui = test::harness_or_skip(small_table());
  const auto presets = shipped_scenarios();
  REQUIRE(presets.size() >= 9);
  const bool gpu = query_gpu().has_value();
  for (const std::string& name : presets) {
    if (load_scenario(name).backend == backend_choice::gpu && !gpu) {
      WARN(name << " asks for the GPU backend: skipped where there is no CUDA device");
      continue;
    }
    int stages = 0;
    std::string error;
    const std::string log = ui->run([&](ImGuiTestContext* ctx) {
      ctx->SetRef("//Controls/run-section");
      ctx->ComboClick(("preset/" + name).c_str());
      ctx->ItemClick("Load preset");
      session& s = ui->frame().sess();  // the preset made a new session
      if (compare_set* c =
              ui->frame().comparing()) {  // a compare preset: its tables run the stages
        for (;;) {
          ctx->Yield(2);
          c->wait_idle();
          error = c->error();
          if (!c->held() || !error.empty()) break;
          ++stages;
          ctx->ItemClick("//Compare/compare-controls/Next stage");
        }
        return;
      }
      for (;;) {
        ctx->Yield(2);
        s.wait_idle();
        const session_status st = s.status();
        if (st.error) error = st.note;
        if (!st.script_held || st.error) break;
        ++stages;
        ctx->ItemClick("Next stage");
      }
    });
    INFO(name << ": " << log);
    REQUIRE(log.empty());
    CHECK(error.empty());
    CHECK(stages > 0);
    if (compare_set* c = ui->frame().comparing()) {
      for (std::size_t i = 0; i < c->size(); ++i) CHECK(c->at(i).status().batches > 0);
      continue;
    }
    CHECK(ui->frame().sess().status().script_left == 0);
    CHECK(ui->frame().sess().status().batches > 0);
  }
}

TEST_CASE("the text-size control changes the font", "[ui]") {
  auto ui = test::harness_or_skip(small_table());
  float before = 0, after = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    before = ImGui::GetFontSize();
    ctx->SetRef("//Controls");
    ctx->ItemOpen("display-section/Display");
    ctx->ItemInputValue("display-section/text size", 30.f);
    ctx->Yield(3);
    after = ImGui::GetFontSize();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(before == 16.f);
  CHECK(ui->frame().state().font_size == 30.f);
  CHECK(after == 30.f);
}

TEST_CASE("the watching pace: set in Display, fewer frames only while a table runs untouched",
          "[ui]") {
  session_config cfg = small_table();
  cfg.workload = endless(cfg);
  auto ui = test::harness_or_skip(cfg);
  app_frame& f = ui->frame();
  bool changing_at_rest = true, changing_running = false, changing_paused = true;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    changing_at_rest = f.table_changing();
    ctx->SetRef("//Controls");
    ctx->ItemOpen("display-section/Display");
    ctx->ItemInputValue("display-section/frames while watching", 20.f);
    ctx->ItemClick(run_button);
    test::wait_until(ctx, [&] { return f.sess().status().live > 0; });
    changing_running = f.table_changing();
    ctx->ItemClick(pause_button);
    test::wait_until(ctx, [&] { return f.sess().status().act == activity::idle; });
    f.sess().wait_idle();
    changing_paused = f.table_changing();
  });
  INFO(log);
  REQUIRE(log.empty());
  const frame_pacing& p = f.pacing();
  CHECK(p.watching_hz == 20);
  CHECK_FALSE(changing_at_rest);
  CHECK(changing_running);
  CHECK_FALSE(changing_paused);
  // Running and untouched for longer than the grace: the rest of a twentieth of a second.
  CHECK(std::abs(p.wait_before_next(5.0, 0.01, true) - 0.04) < 1e-12);
  CHECK(p.wait_before_next(5.0, 0.2, true) == 0);    // a frame slower than the pace: no wait
  CHECK(p.wait_before_next(0.5, 0.01, true) == 0);   // input within the grace: the display's rate
  CHECK(p.wait_before_next(5.0, 0.01, false) == 0);  // at rest: the display's rate
  frame_pacing off = p;
  off.watching_hz = 0;  // "display rate" on the slider
  CHECK(off.wait_before_next(5.0, 0.01, true) == 0);
}

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
  activity after_space = activity::idle, after_second_space = activity::running;
  std::uint64_t after_s = 0, after_right = 0, typed_before = 0, typed_after = 1;
  double after_f = 0;
  std::uint64_t after_r = 1;
  float bigger = 0, smaller = 0;
  bool help_on = false, help_off = true, fullscreen = false;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->KeyPress(ImGuiKey_Space);
    ctx->Yield(2);
    after_space = s.status().act;
    ctx->KeyPress(ImGuiKey_Space);
    ctx->Yield(2);
    s.wait_idle();
    after_second_space = s.status().act;
    s.set_workload(small_table().workload);  // plain inserts for the fill below
    ctx->KeyPress(ImGuiKey_R);
    ctx->Yield(2);
    after_r = s.status().live;
    ctx->KeyPress(ImGuiKey_S);
    ctx->Yield(2);
    s.wait_idle();
    after_s = s.status().batches;
    ctx->KeyPress(ImGuiKey_RightArrow);
    ctx->Yield(2);
    s.wait_idle();
    after_right = s.status().batches;
    ctx->KeyPress(ImGuiKey_F);
    ctx->Yield(2);
    s.wait_idle();
    after_f = double(s.status().live) / double(s.capacity());
    ctx->KeyPress(ImGuiMod_Ctrl | ImGuiKey_Equal);
    ctx->Yield(2);
    bigger = f.state().font_size;
    ctx->KeyPress(ImGuiMod_Ctrl | ImGuiKey_Minus);
    ctx->KeyPress(ImGuiMod_Ctrl | ImGuiKey_Minus);
    ctx->Yield(2);
    smaller = f.state().font_size;
    ctx->KeyPress(ImGuiKey_F1);
    ctx->Yield(2);
    help_on = f.help_open();
    ctx->KeyPress(ImGuiMod_Shift | ImGuiKey_Slash);  // '?'
    ctx->Yield(2);
    help_off = f.help_open();
    ctx->KeyPress(ImGuiKey_F11);
    ctx->Yield(1);
    fullscreen = f.fullscreen_requested;
    ctx->KeyPress(ImGuiMod_Ctrl | ImGuiKey_S);
    ctx->Yield(3);
    // Typing into the seed field: 's' and 'r' are text there, not Step and Reset.
    typed_before = s.status().batches;
    ctx->ItemInput("//Controls/workload-section/seed");
    ctx->KeyCharsReplace("77");
    ctx->KeyPress(ImGuiKey_S);
    ctx->KeyPress(ImGuiKey_R);
    ctx->Yield(3);
    s.wait_idle();
    typed_after = s.status().batches;
    ctx->KeyPress(ImGuiKey_Enter);
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(after_space == activity::running);
  CHECK(after_second_space == activity::idle);
  CHECK(after_r == 0);
  CHECK(after_s == 1);      // Reset cleared the batch count; S stepped once
  CHECK(after_right == 2);  // and Right once more
  CHECK(after_f >= 0.5);    // F filled to the default target
  CHECK(bigger == 18.f);
  CHECK(smaller == 14.f);
  CHECK(help_on);
  CHECK_FALSE(help_off);
  CHECK(fullscreen);
  CHECK(typed_after == typed_before);
  CHECK(s.status().live > 0);  // R while typing did not reset either
  // Ctrl+S wrote a PNG named by date and time, and the numbers beside it.
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

TEST_CASE(
    "wheel zoom on the heatmap reaches single slots and the tooltip shows the slot as the table "
    "holds it",
    "[ui][heatmap]") {
  session_config cfg = small_table();
  cfg.table.capacity = 1u << 20;  // more slots than the heatmap has pixels
  cfg.workload.batch_size = 1u << 16;
  auto ui = test::harness_or_skip(cfg);
  app_frame& f = ui->frame();
  f.sess().fill_to(0.9);
  f.sess().wait_idle();
  int cell_before = -1, cell_after = 0, wheels = 0;
  std::optional<slot_record> shown;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    const char* image = "//Slot occupancy/heatmap";
    ctx->MouseMove(image);
    cell_before = f.heatmap().slot_cell_pixels(f.sess().capacity());
    while (wheels < 120 && f.heatmap().slot_cell_pixels(f.sess().capacity()) < 48) {
      ctx->MouseWheelY(1.f);
      ++wheels;
    }
    cell_after = f.heatmap().slot_cell_pixels(f.sess().capacity());
    // Hover cells one after another until a live slot's record has been sampled for the tooltip.
    const ImRect r = ctx->ItemInfo(image).RectFull;
    for (int i = 0; i < 40 && !(shown && shown->state == slot_state::live); ++i) {
      ctx->MouseMoveToPos(
          ImVec2(r.Min.x + 20.f + 50.f * float(i % 8), r.Min.y + 20.f + 50.f * float(i / 8)));
      test::wait_until(ctx, [&] { return f.heatmap().hovered_record().has_value(); }, 600);
      shown = f.heatmap().hovered_record();
    }
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(cell_before == 0);  // the whole table: several slots per pixel
  CHECK(cell_after >= 48);  // single slots, wide enough for their keys
  REQUIRE(shown);
  REQUIRE(shown->state == slot_state::live);
  inspect_request req;
  req.dump_first = shown->slot;
  req.dump_count = 1;
  inspect_result held;
  f.sess().tbl().inspect(req, held, stream_view{});
  REQUIRE(held.slots.size() == 1);
  CHECK(held.slots[0].slot == shown->slot);
  CHECK(held.slots[0].key == shown->key);
  CHECK(held.slots[0].value == shown->value);
  CHECK(held.slots[0].state == slot_state::live);
}

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
    slab_bucket = app::slab_view_of(ui->frame().views())->bucket();
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
    picked = app::hive_view_of(hive->frame().views())->selected_bucket();
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

TEST_CASE("the probe histogram zooms with the wheel and keeps the zoom while its bars stay",
          "[ui][plots]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  f.sess().fill_to(0.7);
  f.sess().wait_idle();
  std::array<double, 4> before{}, zoomed{}, later{};
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->Yield(3);
    before = f.histogram_view().shown_limits();
    ctx->MouseMove("//Probe lengths/##probe-histogram");
    for (int i = 0; i < 4; ++i) ctx->MouseWheelY(1.f);
    ctx->Yield(2);
    zoomed = f.histogram_view().shown_limits();
    ctx->MouseMove(step_button);  // off the plot: hovering only
    ctx->Yield(20);               // the table is sampled again on each of these frames
    later = f.histogram_view().shown_limits();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(before[1] > before[0]);
  CHECK(zoomed[1] - zoomed[0] < 0.9 * (before[1] - before[0]));  // zoomed in
  CHECK(later == zoomed);                                        // and kept
}

TEST_CASE("View > Light theme switches the theme, and View > Reset layout docks every view again",
          "[ui][layout]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  float background_dark = 0, background_light = 0;
  ImGuiID docked_before = 0, undocked = 1, docked_after = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    const auto luminance = [] {
      const ImVec4 c = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
      return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
    };
    background_dark = luminance();
    ctx->MenuClick("//##MainMenuBar/View/Light theme");
    ctx->Yield(2);
    background_light = luminance();
    docked_before = ImGui::FindWindowByName("Throughput")->DockId;
    ctx->UndockWindow("Throughput");
    ctx->Yield(2);
    undocked = ImGui::FindWindowByName("Throughput")->DockId;
    ctx->MenuClick("//##MainMenuBar/View/Reset layout");
    ctx->Yield(3);
    docked_after = ImGui::FindWindowByName("Throughput")->DockId;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(f.state().ui_theme == theme::light);
  CHECK(background_dark < 0.3f);
  CHECK(background_light > 0.8f);
  CHECK(docked_before != 0);
  CHECK(undocked == 0);
  CHECK(docked_after != 0);
}

TEST_CASE(
    "presenter mode: F5 hides the controls and enlarges the text, Space tells the next stage, Esc "
    "leaves",
    "[ui][present]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  const float normal = f.state().font_size;
  bool controls_hidden = false, controls_back = false;
  float present_font = 0;
  std::string first_caption, second_caption;
  std::size_t left_before = 0, left_after = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/run-section");
    ctx->ComboClick("preset/linear-clustering");
    ctx->ItemClick("Load preset");
    session& s = f.sess();
    ctx->Yield(2);
    s.wait_idle();
    first_caption = s.status().caption;
    left_before = s.status().script_left;
    ctx->SetRef("");
    ctx->KeyPress(ImGuiKey_F5);
    ctx->Yield(3);
    ImGuiWindow* controls = ImGui::FindWindowByName("Controls");
    controls_hidden = f.presenting() && controls && !controls->Active;
    present_font = f.state().font_size;
    ctx->KeyPress(ImGuiKey_Space);  // presenting: the next stage, not run
    test::wait_until(ctx, [&] { return s.status().caption != first_caption; });
    s.wait_idle();
    second_caption = s.status().caption;
    left_after = s.status().script_left;
    ctx->KeyPress(ImGuiKey_Escape);
    ctx->Yield(3);
    controls = ImGui::FindWindowByName("Controls");
    controls_back = !f.presenting() && controls && controls->Active;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK_FALSE(first_caption.empty());
  CHECK(controls_hidden);
  CHECK(present_font >= 28.f);
  CHECK_FALSE(second_caption.empty());
  CHECK(second_caption != first_caption);
  CHECK(left_after < left_before);
  CHECK(f.sess().status().act != activity::running);  // Space did not start a run
  CHECK(controls_back);
  CHECK(f.state().font_size == normal);
}

TEST_CASE(
    "linear step mode: a traced step's walks, the arrows move through them, the heatmap zooms to "
    "each",
    "[ui][step]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  std::size_t ops = 0, shown_after_next = 0, shown_after_prev = 9;
  bool marked = false;
  int cell_pixels = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/run-section");
    ctx->ComboClick("preset/linear-step");
    ctx->ItemClick("Load preset");
    session& s = f.sess();
    ctx->Yield(2);
    s.wait_idle();
    ctx->ItemClick("Next stage");  // the traced step of 16 operations
    ctx->Yield(2);
    s.wait_idle();
    ctx->WindowFocus("//Probe walk");
    test::wait_until(ctx, [&] { return app::linear_walk_of(f.views())->has_step(); });
    ctx->Yield(3);
    ops = app::linear_walk_of(f.views())->ops();
    ctx->SetRef("//Probe walk");
    ctx->ItemClick("walk-next");
    ctx->Yield(3);
    shown_after_next = app::linear_walk_of(f.views())->shown_op();
    marked = !f.heatmap().marks().empty();
    cell_pixels = f.heatmap().slot_cell_pixels(s.capacity());
    ctx->ItemClick("walk-prev");
    ctx->Yield(2);
    shown_after_prev = app::linear_walk_of(f.views())->shown_op();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(ops == 16);
  CHECK(shown_after_next == 1);
  CHECK(shown_after_prev == 0);
  CHECK(marked);
  CHECK(cell_pixels > 0);  // one cell per slot: the walk's keys are readable
}

TEST_CASE(
    "Compare > Compare tables starts three tables side by side; the Compare window's Fill drives "
    "them all",
    "[ui][compare]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  std::size_t tables = 0;
  std::vector<std::uint64_t> live;
  std::vector<family> families_started;
  bool closed = false;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("");
    ctx->MenuClick("//##MainMenuBar/Compare/Compare tables...");
    ctx->Yield(2);
    ctx->SetRef("//Compare tables");
    ctx->ItemClick("Start comparing");
    ctx->Yield(2);
    compare_set* set = f.comparing();
    if (!set) return;
    tables = set->size();
    ctx->SetRef("//Compare/compare-controls");
    ctx->ItemInputValue("target", 0.4f);
    ctx->ItemClick("Fill or drain");
    ctx->Yield(2);
    set->wait_idle();
    for (std::size_t i = 0; i < set->size(); ++i) {
      live.push_back(set->at(i).status().live);
      families_started.push_back(set->at(i).config().table.family);
    }
    ctx->SetRef("");
    ctx->MenuClick("//##MainMenuBar/Compare/Stop comparing");
    ctx->Yield(2);
    closed = f.comparing() == nullptr;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(tables == 3);
  REQUIRE(live.size() == 3);
  // The dialog offers the registered families, one a table.
  CHECK(std::set<family>(families_started.begin(), families_started.end()) ==
        std::set<family>{family::linear, family::slab, family::hive});
  const auto want = static_cast<std::uint64_t>(0.4f * (1u << 14));
  for (std::size_t i = 0; i < live.size(); ++i) {
    if (families_started[i] == family::slab)
      CHECK(live[i] >= want - 15);  // 15 pairs a bucket: its capacity rounds to whole buckets
    else
      CHECK(live[i] == want);
  }
  CHECK(closed);
}

TEST_CASE(
    "choosing double hashing in the Table section and pressing Apply rebuilds a double-hashing "
    "table",
    "[ui][double]") {
  auto ui = test::harness_or_skip(small_table());
  probe_policy after = probe_policy::linear;
  std::string check;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/table-section");
    ctx->ComboClick("probing/double hashing");
    ctx->ItemClick("Apply (rebuild the table)");
    ctx->Yield(3);
    after = ui->frame().sess().config().table.linear.probe;
    IM_CHECK_STR_EQ(ui->frame().error().c_str(), "");
    ctx->SetRef("");
    ctx->ItemClick(fill_button);
    ctx->Yield(2);
    ui->frame().sess().wait_idle();
    check = describe(family::linear).check_invariants(ui->frame().sess().tbl(), {});
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(after == probe_policy::double_hash);
  CHECK(ui->frame().sess().status().live > 0);
  CHECK(check == "");
}

TEST_CASE("the slab view shows the longest list until a bucket is chosen", "[ui][strips]") {
  session_config cfg = small_table();
  cfg.table.family = family::slab;
  cfg.table.capacity = 15 * 500;
  auto ui = test::harness_or_skip(cfg);
  app_frame& f = ui->frame();
  f.sess().fill_to(2.5);
  f.sess().wait_idle();
  std::uint64_t shown_total = 0, longest = 0;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->WindowFocus("//Slab lists");
    test::wait_until(ctx, [&] {
      const sample_result& s = f.last_sample();
      return s.inspected.slab.chain.total > 0 &&
             s.inspected.slab.chain.bucket == app::slab_view_of(f.views())->bucket();
    });
    ctx->Yield(4);
    shown_total = f.last_sample().inspected.slab.chain.total;
    longest = f.last_sample().stats.slab.longest_chain;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(longest >= 3);
  CHECK(shown_total == longest);
}

TEST_CASE(
    "the Compare setup offers each family's options as widgets, kept in step with the typed entry",
    "[ui][compare]") {
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  std::vector<std::string> started;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->MenuClick("//##MainMenuBar/Compare/Compare tables...");
    ctx->Yield(5);                            // the dialog sizes itself to its contents first
    ctx->SetRef("//Compare tables/table 1");  // table 1: the hive, then its bucket size
    ctx->ComboClick("family/hive");
    ctx->Yield(1);
    ctx->ComboClick("slots per bucket/32");
    ctx->Yield(1);
    ctx->SetRef("//Compare tables");
    ctx->ItemInput("table 2/##text");  // table 2: typed
    ctx->KeyCharsReplaceEnter("linear:probe=double:delete=tombstone");
    ctx->Yield(1);
    ctx->ItemClick("table 3/compare a third table");  // two tables only
    ctx->ItemClick("Start comparing");
    ctx->Yield(2);
    if (compare_set* c = f.comparing())
      for (std::size_t i = 0; i < c->size(); ++i)
        started.push_back(format_compare_entry(c->at(i).config().table, f.sess().config().table));
  });
  INFO(log);
  REQUIRE(log.empty());
  REQUIRE(started.size() == 2);
  CHECK(started[0] == "hive:slots=32");
  CHECK(started[1] == "linear:probe=double:delete=tombstone");
  compare_set& c = *f.comparing();
  CHECK(c.at(0).config().table.hive.bucket_slots == 32);
  CHECK(c.at(1).config().table.linear.probe == probe_policy::double_hash);
  CHECK(c.at(1).config().table.linear.deletes == linear_delete_mode::tombstone);
}
