// The File menu as a person uses it: its items open ImFileDialog's dialogs, a path is typed into
// the dialog's file name field and its button pressed. A scenario opens as a preset; one that does
// not parse names file and line and leaves the session as it was; a cancelled dialog and a recent
// file that has gone change nothing else; a session saved as a scenario opens again to the same
// table; a folder that cannot be written gets nothing half-written; exported figures are there.
#include <filesystem>
#include <fstream>

#include <imgui.h>
#include <imgui_te_context.h>
#include <catch2/catch_test_macros.hpp>

#include "app/ui/app_frame.hpp"
#include "app/ui/file_menu.hpp"
#include "core/common/error.hpp"
#include "tests/support/ui_harness.hpp"

using namespace hs;
using namespace hs::app;
namespace fs = std::filesystem;

namespace {

constexpr const char* k_open = "//Open scenario###hashscope-open-scenario";
constexpr const char* k_save = "//Save session as scenario###hashscope-save-scenario";
constexpr const char* k_export = "//Export figures into a folder###hashscope-export-figures";

session_config small_table() {
  session_config cfg;
  cfg.table.backend = backend::cpu;
  cfg.table.capacity = 1u << 12;
  cfg.workload.batch_size = 256;
  return cfg;
}

fs::path fresh_dir(const char* name) {
  const fs::path d = fs::temp_directory_path() / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

}  // namespace

TEST_CASE(
    "File > Open scenario opens a file as a preset; a malformed one names file and line and "
    "changes nothing",
    "[ui][file]") {
  const fs::path dir = fresh_dir("hashscope-open-test");
  write(dir / "good.scn",
        "title A lesson\ncapacity 2^13\nbatch 512\nmix insert:1\nfill 0.25\ncapture heatmap\n");
  write(dir / "bad.scn", "capacity 2^13\nfill lots\ncapture heatmap\n");
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  std::uint64_t capacity_after_good = 0, live_after_good = 0, serial_after_good = 0,
                serial_after_bad = 0;
  std::string error_after_bad, error_after_cancel = "x";
  std::vector<std::string> recent;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->MenuClick("//##MainMenuBar/File/Open scenario...");
    test::choose_file(ctx, k_open, (dir / "good.scn").string(), "Open");
    f.sess().wait_idle();
    capacity_after_good = f.sess().capacity();
    live_after_good = f.sess().status().live;
    serial_after_good = f.state().table_serial;
    ctx->KeyPress(ImGuiMod_Ctrl | ImGuiKey_O);  // the shortcut opens the same dialog
    test::choose_file(ctx, k_open, (dir / "bad.scn").string(), "Open");
    error_after_bad = f.error();
    serial_after_bad = f.state().table_serial;
    ctx->MenuClick("//##MainMenuBar/File/Open scenario...");
    ctx->Yield(2);
    ctx->ItemClick((std::string(k_open) + "/Cancel").c_str());
    ctx->Yield(2);
    f.set_error({});
    recent = f.state().settings.recent;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(capacity_after_good == (1u << 13));
  CHECK(live_after_good == 2048);
  CHECK(error_after_bad.find("bad.scn:2:") != std::string::npos);  // file and line
  CHECK(error_after_bad.find("'lots' is not a load factor") != std::string::npos);
  CHECK(serial_after_bad == serial_after_good);  // the session was not replaced
  CHECK(f.sess().status().live == live_after_good);
  REQUIRE(recent.size() == 1);  // only what opened is remembered
  CHECK(recent.front() == (dir / "good.scn").string());
}

TEST_CASE(
    "Open recent on a file that has gone says so and takes it off the list, the session unchanged",
    "[ui][file]") {
  const fs::path dir = fresh_dir("hashscope-recent-test");
  write(dir / "kept.scn", "capacity 2^12\nbatch 256\nfill 0.5\ncapture heatmap\n");
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  file_menu& files = f.files();
  REQUIRE(files.open_scenario(f.state(), f, (dir / "kept.scn").string()));
  f.sess().wait_idle();
  const std::uint64_t live = f.sess().status().live;
  fs::remove(dir / "kept.scn");
  std::string error;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    std::string item =
        (dir / "kept.scn").string();  // '/' separates the parts of a test engine path
    for (std::size_t at = item.find('/'); at != std::string::npos; at = item.find('/', at + 2))
      item.insert(at, "\\");
    ctx->MenuClick(("//##MainMenuBar/File/Open recent/" + item).c_str());
    ctx->Yield(2);
    error = f.error();
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(error.find("kept.scn: the file does not exist") != std::string::npos);
  CHECK(error.find("taken off the recent files") != std::string::npos);
  CHECK(f.state().settings.recent.empty());
  CHECK(f.sess().status().live == live);
}

TEST_CASE(
    "File > Save session as scenario writes what was done, which opens again to the same table; an "
    "unwritable "
    "folder gets nothing",
    "[ui][file]") {
  const fs::path dir = fresh_dir("hashscope-save-test");
  write(dir / "not-a-folder", "a file where a folder should be");
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  std::uint64_t live = 0, live_again = 0;
  std::string refused;
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->ItemClick("//Controls/run-section/Fill or drain to target");
    ctx->Yield(2);
    f.sess().wait_idle();
    ctx->ItemClick("//Controls/run-section/Step");
    ctx->Yield(2);
    f.sess().wait_idle();
    live = f.sess().status().live;
    ctx->MenuClick("//##MainMenuBar/File/Save session as scenario...");
    test::choose_file(ctx, k_save, (dir / "not-a-folder" / "lesson.scn").string(), "Save");
    refused = f.error();
    ctx->KeyPress(ImGuiMod_Ctrl | ImGuiMod_Shift | ImGuiKey_S);
    test::choose_file(ctx, k_save, (dir / "lesson").string(), "Save");  // ".scn" is added
    f.sess().reset();
    ctx->MenuClick("//##MainMenuBar/File/Open scenario...");
    test::choose_file(ctx, k_open, (dir / "lesson.scn").string(), "Open");
    for (int stage = 0; stage < 20; ++stage) {  // play every stage
      f.sess().wait_idle();
      if (!f.sess().held()) break;
      ctx->KeyPress(ImGuiKey_N);
      ctx->Yield(2);
    }
    f.sess().wait_idle();
    live_again = f.sess().status().live;
  });
  INFO(log);
  REQUIRE(log.empty());
  CHECK(refused.find("not saved: cannot write") != std::string::npos);
  CHECK(fs::is_regular_file(dir / "not-a-folder"));  // nothing written there, nothing left over
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
  CHECK(files == 2);  // not-a-folder and lesson.scn: no temporary file left behind
  CHECK(fs::is_regular_file(dir / "lesson.scn"));
  CHECK(live > 0);
  CHECK(live_again == live);
}

TEST_CASE("File > Export figures writes each view shown as PNG, SVG and PDF with its numbers",
          "[ui][file]") {
  const fs::path dir = fresh_dir("hashscope-export-test");
  auto ui = test::harness_or_skip(small_table());
  app_frame& f = ui->frame();
  f.sess().fill_to(0.5);
  f.sess().wait_idle();
  f.sess().step(8);  // a traced step: the probe walk figure has walks to draw
  f.sess().wait_idle();
  const std::string log = ui->run([&](ImGuiTestContext* ctx) {
    ctx->Yield(2);
    ctx->KeyPress(ImGuiMod_Ctrl | ImGuiKey_E);
    test::choose_file(ctx, k_export, dir.string(), "Open");
  });
  INFO(log);
  REQUIRE(log.empty());
  INFO(f.error());
  for (const char* view : {"heatmap", "histogram", "throughput", "walk", "code", "lanes"})
    for (const char* ext : {".png", ".svg", ".pdf", ".csv"}) {
      const fs::path p = dir / (std::string("hashscope-") + view + ext);
      INFO(p);
      CHECK(fs::is_regular_file(p));
      CHECK(fs::file_size(p) > 100);
    }
  CHECK(fs::is_regular_file(dir / "hashscope-numbers.csv"));
  CHECK(f.notice().find("exported 6 figures") != std::string::npos);
}
