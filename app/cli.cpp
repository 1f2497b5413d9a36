// Parsing of the three commands and their options, with errors that say what to type instead.
#include "app/cli.hpp"

#include "visualizers/figure/figure.hpp"

#include <cctype>
#include <charconv>

#include "core/bench/table_filter.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/slab/slab_sizing.hpp"

namespace hs::app {

std::string usage() {
  std::string s =
      "HashScope: GPU hash tables, live and at full scale.\n"
      "\n"
      "usage:\n"
      "  hashscope [options]                 open the window (without a display: render the demo headless)\n"
      "  hashscope render SCENARIO [--out DIR] [--size WxH]\n"
      "                                      render a scenario's views to PNG, with CSV/JSON numbers and metadata\n"
      "  hashscope bench SUITE [--out DIR] [--figures]   run a benchmark suite (tables on stdout, CSV/JSON in DIR)\n"
      "  hashscope plot RESULTS_DIR [--out DIR] [--dpi N] [--size 3.5x2.4in]   the seed documents' figures from bench results\n"
      "\n"
      "options:\n"
      "  --backend gpu|cpu|auto   where tables run (auto: the GPU when there is one)\n"
      "  --capacity N             slots, a power of two (e.g. 2^27, 16M)\n"
      "  --hash murmur3|knuth|identity\n"
      "  --probe linear|double    open addressing's probing: one slot on, or a second hash's step over 4-slot sectors (window, bench linear)\n"
      "  --scenario FILE          window: start from a scenario\n"
      "  --frames N               window: exit after N frames\n"
      "  --font-size PX           text size, 8 to 64 (projectors: 24 or more)\n"
      "  --theme dark|light       window colours (light for projectors and print); remembered\n"
      "  --present                window: start in presenter mode (F5; Esc leaves)\n"
      "  --style paper|screen     render: figures for print (white, axes, PNG+SVG+PDF) or the window's look\n"
      "  --dpi N                  render --style paper: PNG resolution (default 300)\n"
      "  --animate                render: each stage also as a 4-second MP4 of its first view (ffmpeg)\n"
      "  --size 3.5x2.4in         render: a panel's page (in, cm, mm; paper style; n panels: n times as wide)\n"
      "                           or WIDTHxHEIGHT pixels (screen)\n"
      "  --headless               window: render the default demo to PNG instead of opening a window\n"
      "  --screenshot FILE        window: save the last frame (with --frames) as PNG\n"
      "  bench: --reps N  --warmup N  --statuses  --no-cpu-baseline  --only TABLE[,TABLE] (hive, slab, linear, linear-churn)\n"
      "         --group 1|4|8  --cas-first auto|on|off  --partition auto|on|off   (linear table tuning)\n"
      "         --tile 2|4|8|16|32 (threads sharing a slab, slab table; threads per operation, hive: 4-32)\n"
      "         --slots 8|16|32 --hashes F+G[+H] (hive: slots per bucket; bithash1, bithash2, murmur3, city, crc32)\n"
      "         --bulk auto|on|off (hive: large batches without statuses by grouped rounds)\n"
      "  --help\n"
      "\nbench suites:\n";
  for (const auto& suite : bench::suites()) s += "  " + std::string(suite.name) + ": " + std::string(suite.summary) + "\n";
  s += "  live: the window's views sampling at 60 Hz (interop into EGL) against none, on linear 2^28, hive 2^27 and "
       "slab 10^8 keys: throughput cost, frame p50/p99\n";
  return s;
}

namespace {

struct arg_reader {
  const std::vector<std::string>& args;
  std::size_t i = 0;
  bool done() const { return i >= args.size(); }
  const std::string& next() { return args[i++]; }
  std::string value(const std::string& flag) {
    if (done()) throw user_error(flag + " needs a value");
    return next();
  }
};

template <class T>
T parse_number(const std::string& flag, const std::string& text, T lo, T hi) {
  T v{};
  auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc{} || r.ptr != text.data() + text.size() || v < lo || v > hi)
    throw user_error(flag + ": '" + text + "' is not a number between " + std::to_string(lo) + " and " +
                     std::to_string(hi));
  return v;
}

}  // namespace

cli_options parse_cli(const std::vector<std::string>& args) {
  cli_options o;
  arg_reader in{args};
  if (!in.done() && args[0].rfind("--", 0) != 0) {
    const std::string cmd = in.next();
    if (cmd == "render") o.command = command_kind::render;
    else if (cmd == "bench") o.command = command_kind::bench;
    else if (cmd == "plot") o.command = command_kind::plot;
    else if (cmd == "help") o.command = command_kind::help;
    else throw user_error("unknown command '" + cmd + "' (commands: render, bench, plot; see --help)");
    if (o.command == command_kind::render) {
      if (in.done()) throw user_error("render needs a scenario file (e.g. assets/scenarios/linear-clustering.scn)");
      o.scenario = in.next();
    }
    if (o.command == command_kind::plot) {
      if (in.done()) throw user_error("plot needs the folder bench wrote its results to (hashscope bench SUITE --out DIR)");
      o.scenario = in.next();  // the results folder
    }
    if (o.command == command_kind::bench) {
      if (in.done()) throw user_error("bench needs a suite name (see --help for the list)");
      o.suite = in.next();
    }
  }
  while (!in.done()) {
    const std::string a = in.next();
    if (a == "--help" || a == "-h") o.command = command_kind::help;
    else if (a == "--backend") {
      const std::string v = in.value(a);
      auto b = parse_backend_choice(v);
      if (!b) throw user_error("--backend: '" + v + "' is not gpu, cpu or auto");
      o.backend = *b;
    } else if (a == "--capacity") {
      const std::string v = in.value(a);
      auto c = parse_size(v);
      if (!c) throw user_error("--capacity: '" + v + "' is not a size (examples: 2^27, 16M, 1048576)");
      o.capacity = *c;
    } else if (a == "--hash") {
      const std::string v = in.value(a);
      auto h = parse_hash_kind(v);
      if (!h) throw user_error("--hash: '" + v + "' is not murmur3, knuth or identity");
      o.hash = *h;
    } else if (a == "--scenario") o.scenario = in.value(a);
    else if (a == "--out") o.out_dir = in.value(a);
    else if (a == "--frames") o.frames = parse_number<int>(a, in.value(a), 1, 1000000);
    else if (a == "--font-size") o.font_size = static_cast<float>(parse_number<int>(a, in.value(a), 1, 4096));  // clamped to 8-64 with a notice
    else if (a == "--theme") {
      const std::string v = in.value(a);
      o.ui_theme = parse_theme(v);
      if (!o.ui_theme) throw user_error("--theme: '" + v + "' is not dark or light");
    }
    else if (a == "--headless") o.headless = true;
    else if (a == "--present") o.present = true;
    else if (a == "--figures") o.figures = true;
    else if (a == "--animate") o.animate_seconds = 4;
    else if (a == "--style") {
      const std::string v = in.value(a);
      if (v != "paper" && v != "screen") throw user_error("--style: '" + v + "' is not paper or screen");
      o.style = v;
    } else if (a == "--dpi") o.dpi = parse_number<int>(a, in.value(a), 72, 1200);
    else if (a == "--screenshot") o.screenshot = in.value(a);
    else if (a == "--size") {
      const std::string v = in.value(a);
      if (!v.empty() && std::isalpha(static_cast<unsigned char>(v.back()))) {  // 3.5x2.4in: a paper page
        if (!fig::parse_page_size(v, 300))
          throw user_error("--size: '" + v + "' is not WIDTHxHEIGHT pixels nor a page such as 3.5x2.4in or 9x6cm");
        o.page_size = v;
        continue;
      }
      const auto x = v.find('x');
      if (x == std::string::npos) throw user_error("--size: '" + v + "' is not WIDTHxHEIGHT");
      o.width = parse_number<std::uint32_t>(a, v.substr(0, x), 320, 8192);
      o.height = parse_number<std::uint32_t>(a, v.substr(x + 1), 240, 8192);
    } else if (a == "--reps") o.bench.reps = parse_number<int>(a, in.value(a), 1, 1000);
    else if (a == "--warmup") o.bench.warmup = parse_number<int>(a, in.value(a), 0, 100);
    else if (a == "--only") o.bench.only = bench::parse_table_names(in.value(a));
    else if (a == "--probe") {
      const std::string v = in.value(a);
      const auto p = parse_probe_policy(v);
      if (!p) throw user_error("--probe: '" + v + "' is not linear or double");
      o.probe = *p;
      o.bench.probe = *p;
    } else if (a == "--group") {
      o.bench.linear.group = parse_number<int>(a, in.value(a), 0, 8);
      if (o.bench.linear.group != 0 && o.bench.linear.group != 1 && o.bench.linear.group != 4 &&
          o.bench.linear.group != 8)
        throw user_error("--group: must be 1, 4 or 8 (0 chooses automatically)");
    } else if (a == "--cas-first" || a == "--partition" || a == "--bulk") {
      const std::string v = in.value(a);
      const auto t = parse_tri(v);
      if (!t) throw user_error(a + ": '" + v + "' is not auto, on or off");
      (a == "--partition" ? o.bench.linear.partition : a == "--bulk" ? o.bench.hive_bulk : o.bench.linear.cas_first) = *t;
    } else if (a == "--tile") {
      o.bench.slab_tile = parse_number<int>(a, in.value(a), 0, 32);
      if (!slab::valid_tile(o.bench.slab_tile)) throw user_error(std::string("--tile: must be ") + slab::k_tile_choices);
      o.bench.hive_tile = o.bench.slab_tile;  // the hive table checks its own choices (4 to 32)
    } else if (a == "--slots") {
      o.bench.hive_slots = parse_number<int>(a, in.value(a), 8, 32);
    } else if (a == "--hashes") {
      o.bench.hive_hashes = in.value(a);
    } else if (a == "--statuses") o.bench.statuses = true;
    else if (a == "--no-cpu-baseline") o.bench.cpu_baseline = false;
    else throw user_error("unknown option '" + a + "' (see --help)");
  }
  return o;
}

}  // namespace hs::app
