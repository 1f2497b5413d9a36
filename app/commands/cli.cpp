// The command line through CLI11: each option defined once (its name, its value's check, its help
// line), so `hashscope COMMAND --help` is generated from the same definitions that parse.
#include "app/commands/cli.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

#include <CLI/CLI.hpp>

#include "app/scenario/scenario.hpp"
#include "app/scenario/scenario_keywords.hpp"

#include "core/bench/load_sweep.hpp"
#include "core/bench/table_filter.hpp"
#include "core/common/assets.hpp"
#include "core/common/device.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/slab/slab_sizing.hpp"
#include "visualizers/figure/figure.hpp"

namespace hs::app {

namespace {

// Each value is read through a function that says what is wrong in the terms of the option;
// CLI11 reports the message with the option's name.
template <class T, class Parse>
CLI::Option* add_parsed(CLI::App& app, const std::string& name, T& target, Parse parse,
                        const std::string& help, const std::string& type) {
  CLI::Option* o = app.add_option_function<std::string>(
      name,
      [&target, parse, name](const std::string& v) {
        try {
          target = parse(v);
        } catch (const user_error& e) {
          throw CLI::ValidationError(name, e.what());
        }
      },
      help);
  o->type_name(type);
  return o;
}

template <class T>
T number_between(const std::string& text, T lo, T hi) {
  T v{};
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc{} || r.ptr != text.data() + text.size() || v < lo || v > hi)
    throw user_error("'" + text + "' is not a number between " + std::to_string(lo) + " and " +
                     std::to_string(hi));
  return v;
}

template <class T>
auto between(T lo, T hi) {
  return [lo, hi](const std::string& v) { return number_between<T>(v, lo, hi); };
}

backend_choice backend_of(const std::string& v) {
  const auto b = parse_backend_choice(v);
  if (!b) throw user_error("'" + v + "' is not gpu, cpu or auto");
  return *b;
}

std::optional<std::uint64_t> size_of(const std::string& v) {
  const auto c = parse_size(v);
  if (!c) throw user_error("'" + v + "' is not a size (examples: 2^27, 16M, 1048576)");
  return c;
}

std::optional<hash_kind> hash_of(const std::string& v) {
  const auto h = parse_hash_kind(v);
  if (!h) throw user_error("'" + v + "' is not murmur3, knuth, identity or universal");
  return h;
}

auto_on_off tri_of(const std::string& v) {
  const auto t = parse_auto_on_off(v);
  if (!t) throw user_error("'" + v + "' is not auto, on or off");
  return *t;
}

void add_table_options(CLI::App& app, cli_options& o) {
  add_parsed(app, "--backend", o.backend, backend_of,
             "where tables run: the GPU, the CPU model, or the GPU when there is one",
             "gpu|cpu|auto");
  add_parsed(app, "--capacity", o.capacity, size_of, "slots, a power of two (e.g. 2^27, 16M)", "N");
  add_parsed(
      app, "--gpus", o.gpus,
      [](const std::string& v) -> std::optional<std::uint32_t> {
        if (v == "all") return 0u;
        return number_between<std::uint32_t>(v, 1, k_max_devices);
      },
      "shard one table over N GPUs through NCCL (all: every GPU; with --backend cpu, N "
      "simulated devices)",
      "N|all");
}

void add_key_bits_option(CLI::App& app, cli_options& o) {
  add_parsed(app, "--key-bits", o.table_width, key_width_from,
             "the linear table's keys and values: 32 or 64 bits (16-byte slots)", "32|64");
}

void add_window_options(CLI::App& app, cli_options& o) {
  add_table_options(app, o);
  add_parsed(app, "--hash", o.hash, hash_of, "the hash of the table's keys",
             "murmur3|knuth|identity|universal");
  add_parsed(
      app, "--probe", o.probe,
      [](const std::string& v) -> std::optional<probe_policy> {
        const auto p = parse_probe_policy(v);
        if (!p) throw user_error("'" + v + "' is not linear or double");
        return p;
      },
      "open addressing's probing: one slot on, or a second hash's step over 4-slot sectors",
      "linear|double");
  add_key_bits_option(app, o);
  app.add_option("--keys", o.keys.path,
                 "the workload's keys from a file: one per line (decimal, hex or words), a CSV "
                 "column (--keys-column), or raw 32- or 64-bit words (.u32, .bin, .u64)")
      ->type_name("FILE");
  add_parsed(app, "--keys-column", o.keys.column, between<std::uint32_t>(1, 1u << 20),
             "--keys: the CSV column of the keys, from 1", "N");
  add_parsed(
      app, "--keys-format", o.keys.format,
      [](const std::string& v) {
        const auto f = workload::parse_key_format(v);
        if (!f) throw user_error("'" + v + "' is not auto, decimal, hex, text, u32le or u64le");
        return *f;
      },
      "--keys: how the file is read (default auto)", "auto|decimal|hex|text|u32le|u64le");
  app.add_option("--scenario", o.scenario,
                 "a scenario to start from (a file, or a shipped scenario's name)")
      ->type_name("SCENARIO");
  app.add_option("--table", o.table_file,
                 "a table file to open: a table's exact state, saved from File > Save table or a "
                 "scenario's `save table`")
      ->type_name("FILE");
  app.add_option("FILE.scn", o.scenario,
                 "a scenario file to open (what a desktop launcher passes)");
  add_parsed(app, "--frames", o.frames, between<int>(1, 1000000), "exit after this many frames",
             "N");
  add_parsed(
      app, "--font-size", o.font_size,
      [](const std::string& v) { return static_cast<float>(number_between<int>(v, 1, 4096)); },
      "text size in pixels, 8 to 64 (projectors: 24 or more)", "PX");
  add_parsed(
      app, "--theme", o.ui_theme,
      [](const std::string& v) {
        const auto t = parse_theme(v);
        if (!t) throw user_error("'" + v + "' is not dark or light");
        return t;
      },
      "window colours (light for projectors and print); remembered", "dark|light");
  app.add_flag("--present", o.present, "start in presenter mode (F5; Esc leaves)");
  app.add_flag("--headless", o.headless,
               "render the default demo to PNG instead of opening a window");
  app.add_option("--screenshot", o.screenshot, "with --frames: save the last frame as this PNG");
}

// --size is a page for paper figures (3.5x2.4in, 9x6cm) or WIDTHxHEIGHT pixels for the screen.
void read_size(const std::string& v, cli_options& o) {
  if (!v.empty() && std::isalpha(static_cast<unsigned char>(v.back()))) {
    if (!fig::parse_page_size(v, 300))
      throw user_error("'" + v +
                       "' is not WIDTHxHEIGHT pixels nor a page such as 3.5x2.4in or 9x6cm");
    o.page_size = v;
    return;
  }
  const auto x = v.find('x');
  if (x == std::string::npos) throw user_error("'" + v + "' is not WIDTHxHEIGHT");
  o.width = number_between<std::uint32_t>(v.substr(0, x), 320, 8192);
  o.height = number_between<std::uint32_t>(v.substr(x + 1), 240, 8192);
}

void add_render(CLI::App& root, cli_options& o) {
  CLI::App* r = root.add_subcommand(
      "render", "render a scenario's views to PNG, with CSV/JSON numbers and metadata");
  r->add_option("SCENARIO", o.scenario, "the scenario: a file, or a shipped scenario's name")
      ->required();
  add_table_options(*r, o);
  add_key_bits_option(*r, o);
  r->add_option("--out", o.out_dir, "the folder for the figures (default: out/render/NAME)");
  add_parsed(
      *r, "--size", o.page_size,
      [&o](const std::string& v) {
        read_size(v, o);
        return o.page_size;
      },
      "a panel's page in paper style (3.5x2.4in, cm, mm), or WIDTHxHEIGHT pixels on screen",
      "SIZE");
  add_parsed(
      *r, "--style", o.style,
      [](const std::string& v) -> std::optional<std::string> {
        if (v != "paper" && v != "screen") throw user_error("'" + v + "' is not paper or screen");
        return v;
      },
      "figures for print (white, axes, PNG+SVG+PDF) or the window's look", "paper|screen");
  add_parsed(*r, "--dpi", o.dpi, between<int>(72, 1200),
             "paper style: the PNG's resolution (default 300)", "N");
  r->add_flag_callback(
      "--animate", [&o] { o.animate_seconds = 4; },
      "each stage also as a 4-second MP4 of its first view");
  add_parsed(
      *r, "--font-size", o.font_size,
      [](const std::string& v) { return static_cast<float>(number_between<int>(v, 1, 4096)); },
      "text size in pixels on screen-style figures", "PX");
  r->callback([&o] { o.command = command_kind::render; });
}

// The families' own bench options: each suite reads those of its family.
void add_bench_family_options(CLI::App& b, cli_options& o) {
  add_parsed(
      b, "--probe", o.bench.probe,
      [&o](const std::string& v) {
        const auto p = parse_probe_policy(v);
        if (!p) throw user_error("'" + v + "' is not linear or double");
        o.probe = *p;
        return *p;
      },
      "the linear table's probing", "linear|double");
  add_parsed(b, "--key-bits", o.bench.width, key_width_from,
             "bench linear: keys and values of 32 or 64 bits", "32|64");
  add_parsed(
      b, "--group", o.bench.linear.group,
      [](const std::string& v) {
        const int g = number_between<int>(v, 0, 8);
        if (g != 0 && g != 1 && g != 4 && g != 8)
          throw user_error("must be 1, 4 or 8 (0 chooses automatically)");
        return g;
      },
      "linear table: threads per operation", "1|4|8");
  add_parsed(b, "--cas-first", o.bench.linear.cas_first, tri_of,
             "linear table: claim the home slot blindly first", "auto|on|off");
  add_parsed(b, "--partition", o.bench.linear.partition, tri_of,
             "linear table: group large inserts by region first", "auto|on|off");
  add_parsed(b, "--bulk", o.bench.hive_bulk, tri_of,
             "hive: large batches without statuses by grouped rounds", "auto|on|off");
  add_parsed(
      b, "--tile", o.bench.slab_tile,
      [&o](const std::string& v) {
        const int t = number_between<int>(v, 0, 32);
        if (!slab::valid_tile(t)) throw user_error(std::string("must be ") + slab::k_tile_choices);
        o.bench.hive_tile = t;  // the hive table checks its own choices (4 to 32)
        return t;
      },
      "threads sharing a slab (slab), threads per operation (hive)", "2|4|8|16|32");
  add_parsed(b, "--slots", o.bench.hive_slots, between<int>(8, 32), "hive: slots per bucket",
             "8|16|32");
  b.add_option("--hashes", o.bench.hive_hashes,
               "hive: its hash functions (bithash1, bithash2, murmur3, city, crc32)")
      ->type_name("F+G[+H]");
}

void add_bench(CLI::App& root, cli_options& o) {
  std::string suites = "suites:\n";
  for (const auto& s : bench::suites())
    suites += "  " + std::string(s.name) + ": " + std::string(s.summary) + "\n";
  suites +=
      "  live: the window's views sampling at 60 Hz (interop into EGL) against none, on linear "
      "2^28, hive 2^27 "
      "and slab 10^8 keys (slab under maintain rehash=0.25): throughput cost, frame p50/p99; "
      "--only TABLE, --minutes N for the rate minute by minute\n"
      "  mixed: the three families' sessions on mixed batches with statuses (the window's mix and "
      "the Hive paper's two; repeated and unique keys; the hive instrumented and plain) at loads "
      "0.3, 0.5 and 0.7, and their fills against a bulk insert; --only linear,slab,hive,fill; "
      "--gpus N: each table over N GPUs, with the slots and batch keys of one a GPU\n";
  CLI::App* b =
      root.add_subcommand("bench", "run a benchmark suite (tables on stdout, CSV/JSON in --out)");
  b->footer(suites);
  b->add_option("SUITE", o.suite, "the suite (listed below)")->required();
  add_table_options(*b, o);
  add_parsed(*b, "--hash", o.hash, hash_of, "the hash of the tables' keys",
             "murmur3|knuth|identity|universal");
  b->add_option("--out", o.out_dir, "a folder for CSV and JSON results");
  b->add_flag("--figures", o.figures, "also plot the suite's figures into --out");
  add_parsed(*b, "--dpi", o.dpi, between<int>(72, 1200), "--figures: the PNGs' resolution", "N");
  add_parsed(*b, "--reps", o.bench.reps, between<int>(1, 1000),
             "timed repetitions (the median is reported, with min and max)", "N");
  add_parsed(
      *b, "--loads", o.bench.loads, [](const std::string& v) { return bench::parse_load_sweep(v); },
      "linear, hive: the bulk tables' loads (default 0.05:0.95:0.05, then 0.97; the hive also "
      "0.99); slab: Fig. 4's memory utilizations, each reached from the smallest beta expected "
      "to give it (below 0.93; default the SlabHash paper's 15 betas); mixed: the loads the "
      "sessions are "
      "filled to (default 0.3, 0.5, 0.7)",
      "FROM:TO:STEP");
  add_parsed(*b, "--minutes", o.live_minutes, between<int>(1, 600),
             "live: instead of the windows, run each table this long at the default share and "
             "print its rate for every minute",
             "N");
  add_parsed(*b, "--processes", o.processes, between<std::uint32_t>(1, k_max_devices),
             "sharded: one process a GPU, joined by NCCL (ncclCommInitRank), as mpirun runs it",
             "N");
  add_parsed(
      *b, "--chunk", o.bench.chunk_keys, [](const std::string& v) { return *size_of(v); },
      "sharded: keys a GPU a pipelined chunk (default 64M)", "N");
  add_parsed(*b, "--warmup", o.bench.warmup, between<int>(0, 100), "untimed repetitions first",
             "N");
  add_parsed(
      *b, "--only", o.bench.only, [](const std::string& v) { return bench::parse_table_names(v); },
      "only these tables or rows of the suite", "TABLE[,TABLE]");
  add_bench_family_options(*b, o);
  b->add_flag("--statuses", o.bench.statuses, "ask every operation for its status");
  b->add_flag_callback(
      "--no-cpu-baseline", [&o] { o.bench.cpu_baseline = false; }, "skip the CPU model's rates");
  b->callback([&o] { o.command = command_kind::bench; });
}

void add_plot(CLI::App& root, cli_options& o) {
  CLI::App* p = root.add_subcommand(
      "plot", "the source documents' figures from the JSON reports bench wrote");
  p->add_option("RESULTS_DIR", o.scenario,
                "the folder bench wrote its results to (bench SUITE --out DIR)")
      ->required();
  p->add_option("--out", o.out_dir, "the folder for the figures (default: the results folder)");
  add_parsed(*p, "--dpi", o.dpi, between<int>(72, 1200), "the PNGs' resolution", "N");
  add_parsed(
      *p, "--size", o.page_size,
      [&o](const std::string& v) {
        read_size(v, o);
        return o.page_size;
      },
      "a panel's page (3.5x2.4in, cm, mm)", "SIZE");
  p->add_option("--series", o.plot_series,
                "a CSV of others' rates against load to draw beside the families (columns: label, "
                "family, operation, load, rate; optional min, max, style); may repeat")
      ->check(CLI::ExistingFile)
      ->type_name("FILE");
  p->callback([&o] { o.command = command_kind::plot; });
}

// A count of operations in digits, or as 1e10 / 2.5e9.
std::uint64_t operation_count(const std::string& v) {
  const auto e = v.find_first_of("eE");
  if (e == std::string::npos) return number_between<std::uint64_t>(v, 1, 1ull << 62);
  const double mantissa = number_between<double>(v.substr(0, e), 1, 10);
  const int exponent = number_between<int>(v.substr(e + 1), 0, 18);
  double n = mantissa;
  for (int i = 0; i < exponent; ++i) n *= 10;
  if (n > double(1ull << 62))
    throw user_error("'" + v + "' is more operations than can be counted");
  return static_cast<std::uint64_t>(n);
}

void add_soak(CLI::App& root, cli_options& o) {
  CLI::App* k = root.add_subcommand(
      "soak",
      "a long mixed workload on every family (both key widths, both delete modes, rehash, grow, "
      "shrink, save and restore), each answer checked against an account of what the table must "
      "hold; ends with one PASS or FAIL line");
  add_parsed(*k, "--backend", o.backend, backend_of, "where the tables run", "gpu|cpu|auto");
  add_parsed(*k, "--ops", o.soak.operations, operation_count,
             "operations in all, shared by the tables (digits, or 1e10)", "N");
  add_parsed(
      *k, "--capacity", o.soak.capacity, [](const std::string& v) { return size_of(v).value(); },
      "slots each table starts with (default 2^26 on the GPU, 2^14 on the CPU)", "N");
  add_parsed(
      *k, "--batch", o.soak.batch, [](const std::string& v) { return size_of(v).value(); },
      "operations a batch (default 2^22 on the GPU, 2^11 on the CPU)", "N");
  add_parsed(*k, "--seed", o.soak.seed, between<std::uint64_t>(0, ~0ull), "the workload's seed",
             "N");
  add_parsed(
      *k, "--only", o.soak.only, [](const std::string& v) { return bench::parse_table_names(v); },
      "only these tables (linear, linear-double-tombstone, linear-64, linear-64-tombstone, slab, "
      "hive)",
      "TABLE[,TABLE]");
  k->add_option("--scratch", o.soak.scratch, "a folder for the table files of save and restore")
      ->type_name("DIR");
  k->callback([&o] { o.command = command_kind::soak; });
}

// The parser with every command and option bound to `o`.
std::unique_ptr<CLI::App> make_parser(cli_options& o) {
  auto app = std::make_unique<CLI::App>(
      "HashScope: GPU hash tables, live and at full scale. Without a command it opens the window "
      "(without a display "
      "it renders the default demo headless).",
      "hashscope");
  app->set_version_flag("--version", version_text());
  app->require_subcommand(0, 1);
  add_window_options(*app, o);
  add_render(*app, o);
  add_bench(*app, o);
  add_plot(*app, o);
  add_soak(*app, o);
  app->footer(
      "hashscope COMMAND --help: a command's options.\nhashscope help scenarios: what a scenario "
      "file may say.");
  return app;
}

}  // namespace

std::string version_text() {
  std::string where;
  try {
    where = assets_dir().string();
  } catch (const user_error& e) {
    where = e.what();
  }
  return "hashscope " HS_VERSION "\nassets: " + where;
}

std::uint32_t devices_for(const cli_options& o, backend b) {
  if (!o.gpus) return 1;
  if (*o.gpus != 0) return *o.gpus;
  if (b == backend::cpu)
    throw user_error(
        "--gpus all counts GPUs, and the CPU backend runs none: give a number of "
        "simulated devices (--gpus 4)");
  return static_cast<std::uint32_t>(std::max(1, gpu_count()));
}

std::string usage() {
  cli_options o;
  return make_parser(o)->help();
}

cli_options parse_cli(const std::vector<std::string>& args) {
  cli_options o;
  if (args.size() == 2 && args[0] == "help" && args[1] == "scenarios") {
    o.command = command_kind::help;
    o.help_text = scenario_reference();
    return o;
  }
  auto app = make_parser(o);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  if (!args.empty() && args.front() == "help") reversed.back() = "--help";
  try {
    app->parse(reversed);
  } catch (const CLI::CallForHelp& e) {  // --help, of the command it follows
    std::ostringstream out, err;
    app->exit(e, out, err);
    o.command = command_kind::help;
    o.help_text = out.str();
  } catch (const CLI::CallForVersion& e) {
    std::ostringstream out, err;
    app->exit(e, out, err);
    o.command = command_kind::help;
    o.help_text = out.str();
  } catch (const CLI::ParseError& e) {
    std::string where;
    for (const CLI::App* sub : app->get_subcommands()) where = std::string(sub->get_name()) + " ";
    throw user_error(std::string(e.what()) + " (see hashscope " + where + "--help)");
  }
  // A word where a command or a scenario file goes: a file path opens the window (which says
  // why, should the file be gone), a shipped scenario's name plays it, anything else is a typo.
  if (o.command == command_kind::window && !args.empty() && args.front() == o.scenario &&
      o.scenario.find('/') == std::string::npos && o.scenario.find(".scn") == std::string::npos) {
    const auto shipped = shipped_scenarios();
    if (std::find(shipped.begin(), shipped.end(), o.scenario) == shipped.end())
      throw user_error("unknown command '" + o.scenario +
                       "' (commands: render, bench, plot; or a scenario file; see --help)");
  }
  return o;
}

}  // namespace hs::app
