// Scenario files (assets/scenarios/*.scn): a table, its workload, and steps (fill, drain, run,
// clear, capture). One keyword per line, '#' comments; errors name the file and line.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/compare/compare_set.hpp"
#include "app/session/session.hpp"
#include "core/common/device.hpp"
#include "core/common/format.hpp"
#include "visualizers/heatmap_colors.hpp"

namespace hs::app {

/// @brief The views every family has; a family adds figures of its own (family_ui::figures),
/// named in scenarios the same way.
enum class view_kind : std::uint8_t {
  heatmap,
  histogram,
  throughput,
  stats,
  timeline,
  compare,
  gpus  ///< a table over several devices: each one's keys, the exchange matrix, the phases
};
std::string_view to_string(view_kind v);
/// @brief A common view by name (nullopt for a family's figure or an unknown name).
std::optional<view_kind> parse_view_kind(std::string_view s);

/// @brief `capture animation`: the stage recorded as it runs, at a fixed simulated frame rate.
struct animation_spec {
  double seconds = 4;
  int fps = 30;
  std::string view = "heatmap";
  int frames() const { return static_cast<int>(seconds * fps + 0.5); }
};

struct scenario_step {
  enum kind_t : std::uint8_t {
    fill,
    drain,
    run,
    clear,
    capture,
    rehash,
    flush,
    step,
    say,
    configure,
    back,        ///< back before the last `batches` commands
    load_table,  ///< make the table the table file `text` (resolved against the scenario's folder)
    save_table,  ///< write the table's state to the table file `text` (likewise)
    regpus       ///< move a sharded table to `batches` devices (whole virtual shards)
  } kind = run;
  double load = 0;
  std::uint64_t batches = 0;  ///< run: batches; rehash: capacity (0: the same); step: operations
  std::vector<std::string> views;  ///< capture: common views and the family's figures, by name
  std::optional<std::uint64_t> range_first;  ///< capture: heatmap slot range
  std::uint64_t range_count = 0;
  /// capture: the heatmap over this device's shard alone (its slots, as the table then stands)
  std::optional<std::uint32_t> range_device;
  std::string text;                         ///< say: the caption of the stage it stands in
  std::optional<animation_spec> animation;  ///< capture animation: the stage as a video
  std::optional<std::pair<std::uint64_t, std::uint64_t>>
      buckets;  ///< capture: a family view's bucket range
  std::optional<script_step::settings>
      configure_to;                  ///< configure: the workload lines after a step
  std::vector<given_op> given;       ///< step: the typed keys it steps (`step insert 12 44 7`)
  std::optional<question_kind> ask;  ///< step: a question before it
  int ask_line = 0;
  int line = 0;
};

struct scenario {
  std::string name;  ///< file name without extension
  std::string title;
  std::string file;
  session_config config;
  backend_choice backend = backend_choice::automatic;
  std::string colormap = "viridis";
  vis::heatmap_mode heatmap_mode = vis::heatmap_mode::occupancy;
  std::vector<scenario_step> steps;
  /// @brief Compare mode (`compare linear hive slab`): the tables every step runs on; captures
  /// are then `compare` figures.
  std::vector<compare_entry> compare;
  bool paper_style = false;  ///< `style paper`: render draws figures for print unless --style says
  /// @brief How its step lines wrote keys: decimal when every key was a decimal number, so the
  /// window shows the lesson's keys as it gave them; hex otherwise, or with no keys given.
  key_radix keys_radix = key_radix::hex;

  /// @brief The non-capture steps up to each capture, as session script steps with pauses.
  std::vector<script_step> script() const;
  /// @brief Whether a step captures views: what `render` draws (the window plays any scenario).
  bool captures() const;
};

/// @brief What the session runs for a scenario step (nothing for a capture).
std::optional<script_step> as_script_step(const scenario_step& s);
/// @brief The first and last lines of a scenario HashScope saves (scenario_text). A text whose
/// first line is the first and whose last is not the last was cut short (a crash while an older
/// HashScope wrote it in place) and is refused. Scenarios written by hand, without the first
/// line, need no last line.
inline constexpr std::string_view k_saved_scenario_first_line = "# saved by HashScope";
inline constexpr std::string_view k_saved_scenario_last_line = "# end of scenario";

/// @brief Parses scenario text; throws hs::user_error("file:line: ...") on the first problem (a
/// saved scenario cut short: "file:N: truncated: ...", N its last line).
scenario parse_scenario(const std::string& text, const std::string& file);
/// @brief Reads and parses a file (a bare name is looked up in assets/scenarios).
scenario load_scenario(const std::string& path_or_name);
/// @brief render --key-bits: the scenario's table with keys of width `w` (set_key_width on its
/// config, as the window's --key-bits), checked as a key-bits line would be (its workload's start
/// key, its typed keys). Throws hs::user_error for a family without that width, or keys the new
/// width cannot take.
void set_key_width(scenario& sc, key_width w);
/// @brief render --animate: before each still capture, a `capture animation` of `seconds` of its
/// first view that animates (a common view, else the heatmap), so every stage is also a video
/// that ends where the figures are taken. Captures that already animate are kept as they are.
/// Compare mode is refused (its tables are captured together, as stills).
void animate_every_stage(scenario& sc, double seconds);
/// @brief The shipped scenarios, by name.
std::vector<std::string> shipped_scenarios();

}  // namespace hs::app
