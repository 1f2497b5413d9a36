// A scenario HashScope saved, cut short anywhere before the end of its last line (a crash while an
// older HashScope wrote it in place), is refused with the file's name and why; whole, it opens.
// Scenarios written by hand, without the saved scenario's first line, need no end line.
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/scenario/scenario.hpp"
#include "app/scenario/scenario_writer.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;
namespace fs = std::filesystem;

namespace {

// A session of a fill and a run, as File > Save session writes it.
std::string saved_text() {
  session_to_save s;
  s.journal.table.capacity = 1u << 12;
  s.workload.batch_size = 256;
  s.workload.keys.seed = 9;
  s.title = "cut short";
  const script_step::settings settings{s.workload, s.maintenance, false};
  s.journal.entries.push_back({script_step{script_step::fill, 0.5}, settings});
  s.journal.entries.push_back({script_step{script_step::run, 0, 3}, settings});
  return scenario_text(s);
}

}  // namespace

TEST_CASE("a saved scenario cut short before its end line is refused, naming the file",
          "[scenario][save]") {
  const std::string text = saved_text();
  INFO(text);
  const std::string first = std::string(k_saved_scenario_first_line) + "\n";
  const std::string last = std::string(k_saved_scenario_last_line) + "\n";
  REQUIRE(text.rfind(first, 0) == 0);
  REQUIRE(text.size() > first.size() + last.size());
  REQUIRE(text.compare(text.size() - last.size(), last.size(), last) == 0);
  const std::string why = "truncated: a scenario saved by HashScope ends with '# end of scenario'";

  const fs::path dir = fs::temp_directory_path() / "hs-saved-scenario-cut";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path file = dir / "lesson.scn";
  std::ofstream(file, std::ios::binary) << text;
  const scenario whole = load_scenario(file.string());
  CHECK(whole.title == "cut short");
  CHECK(whole.steps.size() >= 2);

  // From a file: the error names it.
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text.substr(0, text.size() / 2);
  CHECK_THROWS_WITH(load_scenario(file.string()),
                    StartsWith(file.string() + ":") && ContainsSubstring(why));

  // Every cut from the end of its first line to the last character of its end line.
  int refused = 0;
  for (std::size_t cut = k_saved_scenario_first_line.size(); cut + 1 < text.size(); ++cut) {
    INFO("cut after " << cut << " of " << text.size() << " bytes");
    CHECK_THROWS_WITH(parse_scenario(text.substr(0, cut), "cut.scn"),
                      StartsWith("cut.scn:") && ContainsSubstring(why));
    ++refused;
  }
  CHECK(refused > 100);
  // The end line whole, its newline lost: nothing is missing.
  CHECK(parse_scenario(text.substr(0, text.size() - 1), "cut.scn").title == "cut short");
}

TEST_CASE("a scenario written by hand needs no end line", "[scenario]") {
  const scenario sc = parse_scenario(
      "# my lesson\ncapacity 2^10\nbackend cpu\nfill 0.5\ncapture heatmap\n", "hand.scn");
  CHECK(sc.steps.size() == 2);
  // Only the saved scenario's own first line asks for the end line, not a comment like it.
  CHECK_NOTHROW(parse_scenario("# saved by HashScope, I think\ncapacity 2^10\ncapture heatmap\n",
                               "hand.scn"));
}
