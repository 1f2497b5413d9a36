// A scenario's `back` in a render: the figures captured after it hold the same numbers as those
// captured before the commands it undid, on every family; and a table a scenario saved (`save
// table`, next to the scenario) opens in another scenario (`load table`) with the same numbers.
// GPU twins are tagged [gpu].
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>

#include <catch2/catch_test_macros.hpp>

#include "app/commands/render_command.hpp"
#include "app/scenario/scenario.hpp"
#include "tests/support/file_support.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;
using namespace hs::app;
namespace fs = std::filesystem;

namespace {

render_result render_text(const fs::path& dir, const std::string& name, const std::string& text,
                          backend_choice b) {
  const scenario sc = parse_scenario(text, (dir / (name + ".scn")).string());
  return render_scenario(sc, (dir / name).string(), b, 0, 640, 480, 12.f);
}

std::string csv_of(const fs::path& dir, const std::string& name) {
  return test::read_text(dir / name);
}

void check_back_in_render(family f, backend_choice b) {
  const std::string fam(to_string(f));
  INFO(fam);
  const fs::path dir = fs::temp_directory_path() / ("hashscope-render-back-" + fam);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string table = "table " + fam + "\ncapacity 2^13\nbatch 512\n";
  render_text(dir, "lesson",
              table +
                  "fill 0.3\ncapture heatmap histogram\nfill 0.6\nstep insert 12 76 140\n"
                  "back 2\ncapture heatmap histogram\nsave table saved.hstable\n",
              b);
  for (const char* view : {"heatmap", "histogram"}) {
    INFO(view);
    const std::string before = csv_of(dir / "lesson", std::string("lesson-01-") + view + ".csv");
    REQUIRE_FALSE(before.empty());
    CHECK(csv_of(dir / "lesson", std::string("lesson-02-") + view + ".csv") == before);
  }
  REQUIRE(fs::exists(dir / "saved.hstable"));
  render_text(dir, "opened", table + "load table saved.hstable\ncapture heatmap histogram\n", b);
  for (const char* view : {"heatmap", "histogram"})
    CHECK(csv_of(dir / "opened", std::string("opened-01-") + view + ".csv") ==
          csv_of(dir / "lesson", std::string("lesson-01-") + view + ".csv"));
}

}  // namespace

TEST_CASE("a rendered back captures what was captured before the commands it undid",
          "[render][history]") {
  for (family f : {family::linear, family::slab, family::hive})
    check_back_in_render(f, backend_choice::cpu);
}

TEST_CASE("a rendered back on GPU tables, and a table saved and loaded by scenarios",
          "[render][gpu]") {
  test::require_gpu();
  for (family f : {family::linear, family::slab, family::hive})
    check_back_in_render(f, backend_choice::gpu);
}

TEST_CASE("linear-race renders its runs: on the CPU model every key lands where it did before",
          "[render][history]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-render-race";
  fs::remove_all(dir);
  render_scenario(load_scenario("linear-race"), dir.string(), backend_choice::cpu, 0, 640, 480,
                  12.f);
  std::istringstream csv(test::read_text(dir / "linear-race-04-runs.csv"));
  std::string line;
  std::getline(csv, line);
  CHECK(line == "run,operation,key,slot,changed");
  int rows = 0, changed = 0, runs = 0;
  while (std::getline(csv, line)) {
    int run = 0, op = 0, slot = 0, ch = 0;
    unsigned key = 0;
    REQUIRE(std::sscanf(line.c_str(), "%d,%d,%u,%d,%d", &run, &op, &key, &slot, &ch) == 5);
    CHECK(key == 5u + 4096u * unsigned(op));
    CHECK(slot == 5 + op);  // in batch order, run after run
    changed += ch;
    runs = std::max(runs, run);
    ++rows;
  }
  CHECK(runs == 4);
  CHECK(rows == 4 * 64);
  CHECK(changed == 0);
}
