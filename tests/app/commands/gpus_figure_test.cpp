// `capture gpus`: a table over four simulated devices renders the GPUs figure (each device's keys,
// the exchange matrix, the phases) in paper style, and its CSV holds what the table did: every
// device's live keys adding up to the fill, and the last batch's keys all sent from device 0,
// where the session's keys start.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch_test_macros.hpp>

#include "app/commands/render_command.hpp"

using namespace hs;
using namespace hs::app;
namespace fs = std::filesystem;

namespace {
std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream s(line);
    for (std::string c; std::getline(s, c, ',');) cells.push_back(c);
    rows.push_back(cells);
  }
  return rows;
}
}  // namespace

TEST_CASE("capture gpus draws and numbers a table over four devices", "[render][headless][shard]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-render-gpus";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const scenario sc = parse_scenario(
      "capacity 2^14\ngpus 4\nbackend cpu\nbatch 2k\nmix insert:1\nfill 0.25\ncapture gpus\n",
      (dir / "g.scn").string());
  render_style style;
  style.paper = true;
  style.page = {7.0, 2.4, 100, 8};
  const render_result r =
      render_scenario(sc, dir.string(), backend_choice::cpu, 0, 800, 600, 14.f, style);
  REQUIRE(r.figures.size() == 1);
  CHECK(r.figures[0].view == "gpus");
  CHECK(fs::file_size(dir / "g-01-gpus.pdf") > 1000);
  const auto rows = read_csv((dir / "g-01-gpus.csv").string());
  REQUIRE(rows.size() == 5);  // the header and a row a device
  CHECK(rows[0][0] == "device");
  CHECK(rows[0][4] == "probe_mean");
  CHECK(rows[0][6] == "keys_to_0");
  REQUIRE(rows[0].back() == "batch_wall_ms");
  const double wall = std::stod(rows[1].back());
  CHECK(wall > 0);  // the last batch on the host clock, the same on every device's row
  std::uint64_t live = 0, sent_by_others = 0, sent_by_0 = 0;
  double probes = 0;
  for (std::size_t d = 1; d <= 4; ++d) {
    live += std::stoull(rows[d][1]);
    const double mean = std::stod(rows[d][4]), p99 = std::stod(rows[d][5]);
    CHECK(mean >= 0);
    CHECK(p99 >= mean);  // a 99th percentile is no shorter than a mean of whole probes here
    probes += mean;
    for (std::size_t j = 6; j < 10; ++j)
      (d == 1 ? sent_by_0 : sent_by_others) += std::stoull(rows[d][j]);
    CHECK(std::stod(rows[d].back()) == wall);
  }
  CHECK(probes > 0);    // a quarter full, some keys on some device sit past their home slot
  CHECK(live == 4096);  // a quarter of 2^14 slots
  CHECK(sent_by_0 > 0);
  CHECK(sent_by_0 <= 2048);  // the last batch of the fill, at most one batch
  CHECK(sent_by_others == 0);
}
