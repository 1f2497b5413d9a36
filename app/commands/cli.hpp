// Command-line parsing: `hashscope` (window), `hashscope render SCENARIO`, `hashscope bench SUITE`,
// `hashscope plot RESULTS`, each with --help.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/platform/style.hpp"
#include "core/bench/suites.hpp"
#include "core/common/device.hpp"
#include "core/common/hash.hpp"
#include "core/soak/soak.hpp"
#include "core/workload/key_file.hpp"

namespace hs::app {

enum class command_kind { window, render, bench, plot, soak, help };

struct cli_options {
  command_kind command = command_kind::window;
  backend_choice backend = backend_choice::automatic;
  std::optional<std::uint64_t> capacity;
  std::optional<hash_kind> hash;
  std::optional<probe_policy> probe;  ///< window and bench: the linear family's probing
  /// @brief --gpus: devices one table is sharded over (0: every GPU); unset: one.
  std::optional<std::uint32_t> gpus;
  std::optional<key_width> table_width;  ///< window and render: --key-bits, the tables' key width
  workload::key_file_spec keys;          ///< window --keys: the workload's keys from a file
  std::string scenario;              ///< window: a scenario to load; render: the scenario to render
  std::string table_file;            ///< window: a table file to open (--table)
  std::string out_dir;               ///< render/bench output folder
  std::string suite;                 ///< bench suite
  int frames = 0;                    ///< window: exit after this many frames (0: run until closed)
  float font_size = 0;               ///< 0: chosen from the monitor (or remembered)
  std::optional<theme> ui_theme;     ///< window: unset means the remembered theme
  bool present = false;              ///< window: start in presenter mode
  std::optional<std::string> style;  ///< render: "paper" or "screen" (unset: the scenario's)
  double animate_seconds = 0;  ///< render --animate: each stage also as a video of this length
  double dpi = 300;            ///< render --style paper: the PNG's resolution
  std::string page_size;  ///< render --style paper, plot: "3.5x2.4in" (empty: the default page)
  std::vector<std::string> plot_series;  ///< plot --series: CSVs of others' rates against load
  bool figures = false;    ///< bench: also plot the figures of its results (needs --out)
  bool headless = false;   ///< window command without a window: render the demo headless
  std::string screenshot;  ///< window: write the last frame (with --frames) to this PNG
  std::uint32_t width = 1600, height = 1000;  ///< render: image size
  bench::bench_options bench;
  soak::soak_options soak;  ///< soak: operations, tables, sizes
  int live_minutes = 0;  ///< bench live --minutes: one long run a table, its rate minute by minute
  std::uint32_t processes = 0;  ///< bench sharded --processes: ranks, one process a GPU (0: one)
  std::string help_text;        ///< help: what --help or --version prints
};

/// @brief Parses argv; throws hs::user_error with a message naming the bad argument. `--help`
/// (of the whole program or of a command) and `--version` give command_kind::help with the text.
cli_options parse_cli(const std::vector<std::string>& args);
/// @brief The devices --gpus asks for on backend b: 1 when unset, every GPU for `all` (refused on
/// the CPU backend, which has no GPUs to count: it takes a number of simulated devices).
std::uint32_t devices_for(const cli_options& o, backend b);
/// @brief The whole program's help.
std::string usage();
/// @brief "hashscope 0.1.0".
std::string version_text();

}  // namespace hs::app
