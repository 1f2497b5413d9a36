// The window path under Xvfb: the real GLFW window draws a few frames of the full UI.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include <catch2/catch_test_macros.hpp>

#include "app/commands/window_command.hpp"
#include "app/platform/png.hpp"
#include "app/ui/app_frame.hpp"
#include "app/ui/window_platform.hpp"
#include "tests/support/xvfb.hpp"

using namespace hs;
using namespace hs::app;

TEST_CASE("the window draws frames under Xvfb", "[window]") {
  test::xvfb server(1280, 800);
  if (!server.ok()) SKIP("window test skipped: " + server.error());
  const auto shot = (std::filesystem::temp_directory_path() / "hashscope-window-test.png").string();
  std::filesystem::remove(shot);
  session_config cfg;
  cfg.table.backend = backend::cpu;
  cfg.table.capacity = 1u << 14;
  const auto ini = (std::filesystem::temp_directory_path() / "hashscope-window-test.ini").string();
  std::filesystem::remove(ini);
  window_options opt;
  opt.frames = 4;
  opt.screenshot = shot;
  opt.font_size = 15;
  opt.ini_file = ini;
  const int frames = run_window(
      [&](bool) {
        auto f = std::make_unique<app_frame>(cfg, backend_choice::cpu, "test");
        f->sess().fill_to(0.5);
        f->sess().wait_idle();
        return f;
      },
      opt);
  CHECK(frames == 4);
  int w = 0, h = 0;
  const auto px = read_png(shot, w, h);
  CHECK(w == 1280);
  CHECK(h == 800);
  std::set<std::uint32_t> colors;
  for (std::size_t i = 0; i < px.size(); i += 4 * 97)
    colors.insert(px[i] | px[i + 1] << 8 | px[i + 2] << 16);
  CHECK(colors.size() > 20);  // panels, text and a filled heatmap, not a blank frame
}

TEST_CASE("a first launch fills the screen and plays the demo; a later one restores what was left",
          "[window]") {
  test::xvfb server(1280, 800);
  if (!server.ok()) SKIP("window test skipped: " + server.error());
  const auto config = std::filesystem::temp_directory_path() / "hashscope-first-launch";
  std::filesystem::remove_all(config);
  setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  const auto launch = [] {
    cli_options o;
    o.backend = backend_choice::cpu;
    o.frames = 3;
    std::ostringstream said;
    std::streambuf* old = std::cout.rdbuf(said.rdbuf());
    const int rc = run_window_command(o);
    std::cout.rdbuf(old);
    CHECK(rc == 0);
    return said.str();
  };
  const std::string first = launch();
  unsetenv("XDG_CONFIG_HOME");
  INFO(first);
  CHECK(first.find("first launch: the linear-clustering preset") != std::string::npos);
  std::ifstream ini(config / "hashscope" / "imgui.ini");
  const std::string saved((std::istreambuf_iterator<char>(ini)), std::istreambuf_iterator<char>());
  CHECK(saved.find("Window=0,0,1280,800") !=
        std::string::npos);  // the whole work area of the screen
  CHECK(saved.find("[Window][Slot occupancy]") !=
        std::string::npos);  // the docked layout persisted
  // Written whole by HashScope (a temporary file renamed into place), not by ImGui.
  CHECK(saved.find("End=1") != std::string::npos);
  for (const auto& e : std::filesystem::directory_iterator(config / "hashscope"))
    CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
  setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  const std::string second = launch();
  unsetenv("XDG_CONFIG_HOME");
  CHECK(second.find("first launch") == std::string::npos);
}

namespace {

/// What a launch of the window command said, with its settings in a fresh folder `config`.
struct launched {
  int rc = 0;
  std::string out, err;
};

/// The options of a short launch on the CPU backend.
cli_options three_frames() {
  cli_options o;
  o.backend = backend_choice::cpu;
  o.frames = 3;
  return o;
}

launched launch_fresh(const std::filesystem::path& config, const cli_options& o) {
  std::filesystem::remove_all(config);
  setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  std::ostringstream out, err;
  std::streambuf* old_out = std::cout.rdbuf(out.rdbuf());
  std::streambuf* old_err = std::cerr.rdbuf(err.rdbuf());
  launched l;
  l.rc = run_window_command(o);
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  unsetenv("XDG_CONFIG_HOME");
  l.out = out.str();
  l.err = err.str();
  return l;
}

}  // namespace

TEST_CASE("a first launch that asks for devices keeps its table rather than the demo's",
          "[window]") {
  test::xvfb server(1280, 800);
  if (!server.ok()) SKIP("window test skipped: " + server.error());
  const auto config = std::filesystem::temp_directory_path() / "hashscope-first-launch-gpus";
  cli_options o = three_frames();
  o.gpus = 4;  // --gpus 4: four simulated devices
  const launched l = launch_fresh(config, o);
  INFO(l.out << l.err);
  CHECK(l.rc == 0);
  CHECK(l.out.find("first launch") == std::string::npos);
  CHECK(std::filesystem::exists(config / "hashscope" / "imgui.ini"));  // it was a first launch
}

TEST_CASE("a launch naming a scenario file that is gone opens the window and says why",
          "[window]") {
  test::xvfb server(1280, 800);
  if (!server.ok()) SKIP("window test skipped: " + server.error());
  const auto config = std::filesystem::temp_directory_path() / "hashscope-missing-scenario";
  cli_options o = three_frames();
  o.scenario = (config / "no-such-lesson.scn").string();
  const launched l = launch_fresh(config, o);
  INFO(l.out << l.err);
  CHECK(l.rc == 0);
  CHECK(l.out.find("3 frames") != std::string::npos);  // the window opened and drew
  CHECK(l.err.find("cannot open the scenario") != std::string::npos);
  CHECK(l.err.find("no-such-lesson.scn") != std::string::npos);
}
