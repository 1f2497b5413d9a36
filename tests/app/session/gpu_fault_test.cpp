// A GPU fault in the middle of running: the window's session notices it, stops using its table,
// says what happened and that HashScope must restart (in the window and once on the terminal),
// refuses the buttons that would touch the table again, and no view or export shows a sample
// taken after the fault. The fault is a test-only kernel that reads out of bounds
// (tests/support/gpu_fault_injection.cu); it leaves CUDA unusable in this process, so this file
// is its own test program and each case runs in a process of its own.
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "app/ui/panels/heatmap_panel.hpp"
#include "core/common/gpu_fault.hpp"
#include "tests/support/gpu_fault_injection.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
namespace fs = std::filesystem;

namespace {

constexpr const char* k_fill = "//Controls/run-section/Fill or drain to target";
constexpr const char* k_run = "//Controls/run-section/Run";
constexpr const char* k_reset = "//Controls/run-section/Reset";
constexpr const char* k_export = "//Export figures into a folder###hashscope-export-figures";

// Standard error into a string while alive.
class captured_stderr {
 public:
  captured_stderr() : old_(std::cerr.rdbuf(text_.rdbuf())) {}
  ~captured_stderr() { std::cerr.rdbuf(old_); }
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::streambuf* old_;
};

// A GPU table of 2^22 slots, batches of 2^16.
session_config gpu_table() {
  session_config cfg;
  cfg.table.backend = backend::gpu;
  cfg.table.capacity = 1u << 22;
  cfg.workload.batch_size = 1u << 16;
  return cfg;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// What the script saw around the fault, for the checks after it.
struct fault_run {
  std::string log;
  std::uint64_t live_before = 0, version_before = 0, batches_before = 0;
  double faulted_by = 0;  // the fault happened before this time (the injection waits for it)
  std::string fault, export_error, freshness;
  int frames_at_fault = 0;
  activity after_run = activity::running;
};

// Fills the table, faults the GPU, then presses Run and Reset and exports figures, as a user
// who has not noticed the fault would.
fault_run fill_then_fault(test::ui_harness& ui, const heatmap_panel* heatmap, const fs::path& dir) {
  app_frame& f = ui.frame();
  session& s = f.sess();
  fault_run out;
  out.log = ui.run([&](ImGuiTestContext* ctx) {
    ctx->SetRef("//Controls/run-section");
    ctx->ItemInputValue("target load", 0.5f);
    ctx->SetRef("");
    ctx->ItemClick(k_fill);
    s.wait_idle();
    // The window shows the filled table, and no sample is in the works.
    test::wait_until(ctx, [&] {
      return f.last_sample().version == s.version() && !f.state().freshness.sampling &&
             heatmap->drawn().version == s.version();
    });
    out.live_before = s.status().live;
    out.version_before = s.version();
    out.batches_before = s.status().batches;
    // Noted at once, as HashScope's first checked call after a fault in one of its own kernels
    // notes it: a launch from the frame between a fault and its notice was seen to hang in the
    // driver on the H200, so this test does not leave that window open (the next case covers a
    // batch meeting a fault no one has noted).
    out.fault = test::inject_gpu_fault(test::fault_notice::checked);
    out.faulted_by = steady_seconds();
    out.frames_at_fault = heatmap->drawn().frames;
    ctx->ItemClick(k_run);
    test::wait_until(ctx, [&] { return s.status().gpu_lost; });
    s.wait_idle();
    ctx->Yield(10);  // frames after the fault: the views go on drawing
    ctx->ItemClick(k_run);
    ctx->ItemClick(k_reset);
    ctx->Yield(3);
    out.after_run = s.status().act;
    ctx->KeyPress(ImGuiMod_Ctrl | ImGuiKey_E);
    test::choose_file(ctx, k_export, dir.string(), "Open");
    out.export_error = f.error();
    out.freshness = f.state().freshness.label();
  });
  return out;
}

// The session noticed, stopped and says why; the note reached the terminal once.
void check_stopped_and_told(app_frame& f, const session_status& st, const fault_run& run,
                            const captured_stderr& err) {
  CHECK(st.gpu_lost);
  CHECK(st.error);
  CHECK(contains(st.note, "GPU fault"));
  CHECK(contains(st.note, run.fault));
  CHECK(contains(st.note, "Restart HashScope"));
  CHECK(gpu_faulted());
  const std::string terminal = err.text();
  CHECK(contains(terminal, "Restart HashScope"));
  CHECK(terminal.find("GPU fault") == terminal.rfind("GPU fault"));  // said once
  CHECK(contains(f.state().gpu_fault, "Restart HashScope"));         // the status bar's line
  // Run and Reset pressed after the fault did nothing: no batch ran, nothing was cleared.
  CHECK(run.after_run == activity::idle);
  CHECK(st.batches == run.batches_before);
  CHECK(st.live == run.live_before);
}

void check_no_sample_after_fault(app_frame& f, session& s, const heatmap_panel* heatmap,
                                 const fault_run& run, const fs::path& dir) {
  // The views still draw, and what they draw is the sample from before the fault, labelled so.
  CHECK(heatmap->drawn().frames > run.frames_at_fault);
  CHECK(heatmap->drawn().version == run.version_before);
  CHECK(heatmap->drawn().stats.live == run.live_before);
  // A sample may finish while the faulting kernel is queued (the table is whole until it runs);
  // none that finished after it is shown.
  CHECK(f.last_sample().taken_at > 0);
  CHECK(f.last_sample().taken_at <= run.faulted_by);
  CHECK(contains(run.freshness, "before the GPU fault"));
  // A sample asked for now is refused, and no figure was exported.
  sample_result r;
  CHECK_THROWS_AS(s.sample(sample_request{}, r), gpu_fault);
  CHECK(r.taken_at == 0);
  CHECK(contains(run.export_error, "not exported"));
  CHECK(contains(run.export_error, "GPU fault"));
  CHECK(fs::is_empty(dir));
}

}  // namespace

TEST_CASE(
    "a GPU fault stops the window's table: it says so and that HashScope must restart, runs "
    "nothing more, and draws or exports no sample taken after it",
    "[gpu][fault][ui]") {
  test::require_gpu();
  const session_config cfg = gpu_table();
  auto ui = test::harness_or_skip(cfg);
  app_frame& f = ui->frame();
  session& s = f.sess();
  const auto* heatmap = dynamic_cast<const heatmap_panel*>(f.find_panel("Slot occupancy"));
  REQUIRE(heatmap);
  const fs::path dir = fs::temp_directory_path() / "hashscope-gpu-fault-export";
  fs::remove_all(dir);
  fs::create_directories(dir);
  captured_stderr err;

  const fault_run run = fill_then_fault(*ui, heatmap, dir);
  INFO(run.log);
  REQUIRE(run.log.empty());
  INFO("the injected fault: " << run.fault);

  check_stopped_and_told(f, s.status(), run, err);
  check_no_sample_after_fault(f, s, heatmap, run, dir);
  fs::remove_all(dir);
}

TEST_CASE(
    "a GPU batch that meets a fault no one has noted stops its session, drops what was in flight "
    "and says HashScope must restart",
    "[gpu][fault]") {
  test::require_gpu();
  const session_config cfg = gpu_table();
  session s(cfg);
  s.fill_to(0.5);
  s.wait_idle();
  const std::uint64_t live_before = s.status().live;
  REQUIRE(live_before > 0);
  captured_stderr err;
  const std::string fault = test::inject_gpu_fault(test::fault_notice::unnoticed);
  REQUIRE_FALSE(gpu_faulted());
  s.run();  // the batch's launch or its wait meets the fault
  s.wait_idle();
  const session_status st = s.status();
  CHECK(gpu_faulted());
  CHECK(st.gpu_lost);
  CHECK(contains(st.note, fault));
  CHECK(contains(st.note, "Restart HashScope"));
  CHECK(contains(err.text(), "Restart HashScope"));
  CHECK(st.live == live_before);  // a batch that faulted counts for nothing
  CHECK(st.act == activity::idle);
  sample_result r;
  CHECK_THROWS_AS(s.sample(sample_request{}, r), gpu_fault);
}
