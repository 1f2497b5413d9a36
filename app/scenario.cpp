// The scenario parser: strict about keywords and values, with messages that say what to write.
#include "app/scenario.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/families/family_ui.hpp"
#include "core/common/assets.hpp"
#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/family_registry.hpp"

namespace hs::app {

namespace fs = std::filesystem;

std::string_view to_string(view_kind v) {
  switch (v) {
    case view_kind::heatmap: return "heatmap";
    case view_kind::histogram: return "histogram";
    case view_kind::throughput: return "throughput";
    case view_kind::stats: return "stats";
    case view_kind::timeline: return "timeline";
    case view_kind::compare: return "compare";
  }
  return "?";
}

std::optional<view_kind> parse_view_kind(std::string_view s) {
  for (auto v : {view_kind::heatmap, view_kind::histogram, view_kind::throughput, view_kind::stats,
                 view_kind::timeline, view_kind::compare})
    if (to_string(v) == s) return v;
  return std::nullopt;
}

namespace {
// "heatmap, histogram, throughput, stats, timeline, chains, allocator (slab), buckets, ... (hive)"
std::string view_names() {
  std::string s = "heatmap, histogram, throughput, stats, timeline, compare";
  for (const family_descriptor* f : families()) {
    const auto figures = ui_of(f->id).figure_names();
    if (figures.empty()) continue;
    for (std::string_view v : figures) s += ", " + std::string(v);
    s += " (" + std::string(f->name) + ")";
  }
  return s;
}
}  // namespace

std::optional<script_step> as_script_step(const scenario_step& s) {
  switch (s.kind) {
    case scenario_step::fill: return script_step{script_step::fill, s.load, 0};
    case scenario_step::drain: return script_step{script_step::drain, s.load, 0};
    case scenario_step::run: return script_step{script_step::run, 0, s.batches};
    case scenario_step::clear: return script_step{script_step::clear, 0, 0};
    case scenario_step::rehash: return script_step{script_step::rehash, 0, s.batches};
    case scenario_step::flush: return script_step{script_step::flush, 0, 0};
    case scenario_step::step: return script_step{script_step::step, 0, s.batches};
    case scenario_step::say: return script_step{script_step::say, 0, 0, s.text};
    case scenario_step::configure:
      return script_step{script_step::configure, 0, 0, {}, s.configure_to};
    case scenario_step::capture: break;
  }
  return std::nullopt;
}

std::vector<script_step> scenario::script() const {
  std::vector<script_step> out;
  for (const scenario_step& s : steps)
    out.push_back(as_script_step(s).value_or(script_step{script_step::pause, 0, 0}));
  return out;
}

namespace {

struct line_parser {
  const std::string& file;
  int line;
  [[noreturn]] void fail(const std::string& msg) const {
    throw user_error(file + ":" + std::to_string(line) + ": " + msg);
  }
  double load(const std::string& w, double max = 1.0) const {
    double v = 0;
    auto r = std::from_chars(w.data(), w.data() + w.size(), v);
    if (r.ec != std::errc{} || r.ptr != w.data() + w.size() || !(v >= 0.0) || v > max)
      fail("'" + w + "' is not a load factor between 0 and " + strprintf("%g", max));
    return v;
  }
  std::uint64_t size(const std::string& w, const char* what) const {
    auto v = parse_size(w);
    if (!v) fail("'" + w + "' is not a " + what + " (examples: 1048576, 1M, 2^20)");
    return *v;
  }
  double number(const std::string& w, const char* what) const {
    double v = 0;
    auto r = std::from_chars(w.data(), w.data() + w.size(), v);
    if (r.ec != std::errc{} || r.ptr != w.data() + w.size())
      fail("'" + w + "' is not a number (" + what + ")");
    return v;
  }
  void arity(const std::vector<std::string>& w, std::size_t lo, std::size_t hi,
             const char* usage) const {
    if (w.size() - 1 < lo || w.size() - 1 > hi) fail(std::string("usage: ") + usage);
  }
};

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> w;
  std::istringstream in(line);
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

// `say "caption"`: the caption of the stage the line stands in (a stage ends at a capture).
// Returns nothing for any other line.
std::optional<scenario_step> parse_say(const std::string& raw, const line_parser& p) {
  const auto first = raw.find_first_not_of(" \t");
  if (first == std::string::npos || raw.compare(first, 3, "say") != 0) return std::nullopt;
  const auto after = first + 3;
  if (after < raw.size() && raw[after] != ' ' && raw[after] != '\t' && raw[after] != '"')
    return std::nullopt;  // "sayings"
  const auto open = raw.find_first_not_of(" \t", after);
  if (open == std::string::npos || raw[open] != '"')
    p.fail("usage: say \"CAPTION\" (the text in double quotes)");
  const auto close = raw.find('"', open + 1);
  if (close == std::string::npos) p.fail("say: the caption has no closing quote");
  const auto rest = raw.find_first_not_of(" \t\r", close + 1);
  if (rest != std::string::npos && raw[rest] != '#')
    p.fail("say: nothing may follow the closing quote but a comment");
  scenario_step s;
  s.kind = scenario_step::say;
  s.text = raw.substr(open + 1, close - open - 1);
  if (s.text.find_first_not_of(" \t") == std::string::npos) p.fail("say: the caption is empty");
  return s;
}

// Lines that set the workload, maintenance or timeline: after a step, they change them from there.
bool is_settings_keyword(std::string_view k) {
  return k == "distribution" || k == "seed" || k == "batch" || k == "mix" || k == "maintain" ||
         k == "timeline";
}

// Lines that are steps of the script (a `say` line is found before this check).
bool is_step_keyword(std::string_view k) {
  return k == "fill" || k == "drain" || k == "run" || k == "step" || k == "clear" ||
         k == "rehash" || k == "flush" || k == "capture";
}

// A line of one of the families' own keywords ("hive slots=16", "delete tombstone"): the family
// that took it, or none.
std::optional<family> parse_family_line(const line_parser& p, const std::vector<std::string>& w,
                                        table_config& cfg) {
  for (const family_descriptor* f : families()) {
    try {
      if (f->parse_line && f->parse_line(w, cfg)) return f->id;
    } catch (const user_error& e) {
      p.fail(e.what());
    }
  }
  return std::nullopt;
}

// A family's line ("probe double") names its family; it must be the scenario's table's, unless
// the scenario compares tables (each entry then takes the lines of its own family).
struct family_line {
  std::vector<std::string> words;
  family owner;
  int line;
};

}  // namespace

scenario parse_scenario(const std::string& text, const std::string& file) {
  scenario sc;
  sc.file = file;
  sc.name = fs::path(file).stem().string();
  sc.config.workload.batch_size = 1u << 20;
  // The workload, maintenance and timeline lines write into `now`. The first step takes them as
  // the scenario's settings; lines after a step change them from there on (a configure step).
  script_step::settings now{sc.config.workload, sc.config.maintenance, sc.config.record_timeline};
  bool stepped = false, settings_changed = false;
  int settings_line = 0, first_settings_line = 0, lines = 0;  // where errors in the settings point
  const auto settle = [&] {
    if (!stepped) {
      sc.config.workload = now.workload;
      sc.config.maintenance = now.maintenance;
      sc.config.record_timeline = now.record_timeline;
    } else if (settings_changed) {
      scenario_step c;
      c.kind = scenario_step::configure;
      c.configure_to = now;
      c.line = settings_line;
      sc.steps.push_back(c);
    }
    stepped = true;
    settings_changed = false;
  };
  std::istringstream in(text);
  std::string raw;
  bool any_capture = false;
  std::vector<family_line>
      family_lines;  // checked at the end, replayed after the family's view settings
  std::vector<std::string>
      compare_words;   // resolved at the end, on the scenario's own table settings
  int table_line = 0;  // where the family was named (config errors point there)
  int capacity_line = 0;
  int compare_line = 0;
  for (int n = 1; std::getline(in, raw); ++n) {
    lines = n;
    if (auto said =
            parse_say(raw, line_parser{file, n})) {  // before comments: a caption may hold '#'
      settle();
      said->line = n;
      sc.steps.push_back(std::move(*said));
      continue;
    }
    const std::string line = raw.substr(0, raw.find('#'));
    const auto w = words_of(line);
    if (w.empty()) continue;
    const line_parser p{file, n};
    const std::string& k = w[0];
    if (is_settings_keyword(k))
      settings_changed = true;
    else if (is_step_keyword(k))
      settle();
    if (k == "title") {
      sc.title = line.substr(line.find("title") + 5);
      sc.title.erase(0, sc.title.find_first_not_of(" \t"));
      sc.title.erase(sc.title.find_last_not_of(" \t\r") + 1);
    } else if (k == "table") {
      p.arity(w, 1, 1, ("table " + family_names("|")).c_str());
      const auto f = parse_family(w[1]);
      if (!f) p.fail("unknown table family '" + w[1] + "' (" + family_names() + ")");
      sc.config.table.family = *f;
      table_line = n;
    } else if (k == "capacity") {
      p.arity(w, 1, 1,
              "capacity SLOTS (a power of two for open addressing and the hive, e.g. 2^22)");
      sc.config.table.capacity = p.size(w[1], "capacity");
      capacity_line =
          n;  // a power of two where the family needs one: checked once the family is known
    } else if (k == "hash") {
      p.arity(w, 1, 1, "hash murmur3|knuth|identity");
      const auto h = parse_hash_kind(w[1]);
      if (!h) p.fail("unknown hash '" + w[1] + "' (murmur3, knuth, identity)");
      sc.config.table.hash = *h;
    } else if (k == "backend") {
      p.arity(w, 1, 1, "backend gpu|cpu|auto");
      const auto b = parse_backend_choice(w[1]);
      if (!b) p.fail("unknown backend '" + w[1] + "' (gpu, cpu, auto)");
      sc.backend = *b;
    } else if (k == "distribution") {
      p.arity(w, 1, 4,
              "distribution uniform|uniform-dup|sequential|clustered|zipf [universe=N] [cluster=N] "
              "[start=N] [zipf=S]");
      const auto d = workload::parse_distribution(w[1]);
      if (!d)
        p.fail("unknown distribution '" + w[1] +
               "' (uniform, uniform-dup, sequential, clustered, zipf)");
      auto& keys = now.workload.keys;
      keys.dist = *d;
      for (std::size_t i = 2; i < w.size(); ++i) {
        const auto eq = w[i].find('=');
        if (eq == std::string::npos) p.fail("'" + w[i] + "' should be name=value");
        const std::string name = w[i].substr(0, eq), val = w[i].substr(eq + 1);
        if (name == "universe")
          keys.universe = p.size(val, "universe size");
        else if (name == "cluster")
          keys.cluster = static_cast<std::uint32_t>(p.size(val, "cluster length"));
        else if (name == "start")
          keys.start = static_cast<std::uint32_t>(p.size(val, "start key"));
        else if (name == "zipf")
          keys.zipf_s = p.number(val, "zipf exponent");
        else
          p.fail("unknown distribution option '" + name + "' (universe, cluster, start, zipf)");
      }
    } else if (k == "seed") {
      p.arity(w, 1, 1, "seed N");
      now.workload.keys.seed = p.size(w[1], "seed");
    } else if (k == "batch") {
      p.arity(w, 1, 1, "batch OPERATIONS (e.g. 1M)");
      now.workload.batch_size = p.size(w[1], "batch size");
    } else if (k == "mix") {
      p.arity(w, 1, 1, "mix insert:W,find-hit:W,find-miss:W,erase:W");
      const auto m = workload::parse_mix(w[1]);
      if (!m)
        p.fail("'" + w[1] +
               "' is not a mix (e.g. insert:0.5,find-hit:0.3,find-miss:0.1,erase:0.1)");
      now.workload.mix = *m;
    } else if (k == "maintain") {
      p.arity(w, 1, 3, "maintain [grow=LOAD] [shrink=LOAD] [rehash=DEAD_FRACTION]");
      for (std::size_t i = 1; i < w.size(); ++i) {
        const auto eq = w[i].find('=');
        if (eq == std::string::npos) p.fail("'" + w[i] + "' should be name=value");
        const std::string name = w[i].substr(0, eq);
        const double v = p.load(w[i].substr(eq + 1));
        if (name == "grow")
          now.maintenance.grow_above = v;
        else if (name == "shrink")
          now.maintenance.shrink_below = v;
        else if (name == "rehash")
          now.maintenance.rehash_above = v;
        else
          p.fail("unknown maintenance threshold '" + name + "' (grow, shrink, rehash)");
      }
    } else if (k == "timeline") {
      p.arity(w, 1, 1, "timeline on|off");
      if (w[1] != "on" && w[1] != "off") p.fail("timeline is on or off");
      now.record_timeline = w[1] == "on";
    } else if (k == "rehash") {
      p.arity(w, 0, 1, "rehash [CAPACITY]");
      scenario_step s;
      s.kind = scenario_step::rehash;
      s.batches = w.size() > 1 ? p.size(w[1], "capacity") : 0;
      if (s.batches && !is_pow2(s.batches))
        p.fail("rehash capacity " + w[1] + " is not a power of two");
      s.line = n;
      sc.steps.push_back(s);
    } else if (k == "colormap") {
      p.arity(w, 1, 1, "colormap viridis|cividis");
      const auto& names = vis::colormap_names();
      if (std::find(names.begin(), names.end(), w[1]) == names.end())
        p.fail("unknown colormap '" + w[1] + "' (viridis, cividis)");
      sc.colormap = w[1];
    } else if (k == "heatmap-mode") {
      p.arity(w, 1, 1, "heatmap-mode occupancy|probe-length");
      if (w[1] == "occupancy")
        sc.heatmap_mode = vis::heatmap_mode::occupancy;
      else if (w[1] == "probe-length")
        sc.heatmap_mode = vis::heatmap_mode::displacement;
      else
        p.fail("unknown heatmap mode '" + w[1] + "' (occupancy, probe-length)");
    } else if (k == "fill" || k == "drain") {
      p.arity(w, 1, 1, "fill LOAD | drain LOAD (a load factor between 0 and 1)");
      scenario_step s;
      s.kind = k == "fill" ? scenario_step::fill : scenario_step::drain;
      s.load = p.load(w[1], max_fill_load(sc.config.table.family));
      s.line = n;
      sc.steps.push_back(s);
    } else if (k == "run") {
      p.arity(w, 1, 1, "run BATCHES");
      scenario_step s;
      s.kind = scenario_step::run;
      s.batches = p.size(w[1], "batch count");
      s.line = n;
      sc.steps.push_back(s);
    } else if (k == "step") {
      p.arity(w, 1, 1, "step OPS (one traced batch of 1 to 64 operations of the mix)");
      scenario_step s;
      s.kind = scenario_step::step;
      s.batches = p.size(w[1], "operation count");
      if (s.batches == 0 || s.batches > k_traced_step_ops) p.fail("step takes 1 to 64 operations");
      s.line = n;
      sc.steps.push_back(s);
    } else if (k == "flush") {
      p.arity(w, 0, 0, "flush");
      scenario_step s;
      s.kind = scenario_step::flush;
      s.line = n;
      sc.steps.push_back(s);
    } else if (k == "clear") {
      p.arity(w, 0, 0, "clear");
      scenario_step s;
      s.kind = scenario_step::clear;
      s.line = n;
      sc.steps.push_back(s);
    } else if (k == "capture") {
      if (w.size() < 2)
        p.fail("usage: capture VIEW... [range=FIRST:COUNT] [buckets=FIRST:COUNT] (views: " +
               view_names() + ")");
      scenario_step s;
      s.kind = scenario_step::capture;
      s.line = n;
      if (w[1] ==
          "animation") {  // the stage as a video: capture animation [seconds=S] [fps=F] [view=V]
        animation_spec a;
        for (std::size_t i = 2; i < w.size(); ++i) {
          const auto eq = w[i].find('=');
          if (eq == std::string::npos)
            p.fail("'" + w[i] + "' should be name=value (seconds, fps, view)");
          const std::string name = w[i].substr(0, eq), val = w[i].substr(eq + 1);
          if (name == "seconds")
            a.seconds = p.number(val, "seconds");
          else if (name == "fps")
            a.fps = static_cast<int>(p.number(val, "frames per second"));
          else if (name == "view")
            a.view = val;
          else
            p.fail("unknown animation option '" + name + "' (seconds, fps, view)");
        }
        if (!(a.seconds > 0) || a.seconds > 600)
          p.fail("an animation lasts more than 0 and at most 600 seconds (10 minutes)");
        if (a.fps < 1 || a.fps > 60) p.fail("fps is 1 to 60");
        if (!parse_view_kind(a.view) && !family_of_figure(a.view))
          p.fail("unknown view '" + a.view + "' (" + view_names() + ")");
        s.views.push_back(a.view);
        s.animation = a;
        any_capture = true;
        sc.steps.push_back(s);
        continue;
      }
      for (std::size_t i = 1; i < w.size(); ++i) {
        if (w[i].rfind("range=", 0) == 0) {
          const std::string r = w[i].substr(6);
          const auto colon = r.find(':');
          if (colon == std::string::npos) p.fail("range should be FIRST:COUNT (slots)");
          s.range_first = p.size(r.substr(0, colon), "first slot");
          s.range_count = p.size(r.substr(colon + 1), "slot count");
          continue;
        }
        if (w[i].rfind("buckets=", 0) == 0) {  // the hive's eviction arcs over a bucket range
          const std::string r = w[i].substr(8);
          const auto colon = r.find(':');
          if (colon == std::string::npos) p.fail("buckets should be FIRST:COUNT");
          s.buckets = std::pair{p.size(r.substr(0, colon), "first bucket"),
                                p.size(r.substr(colon + 1), "bucket count")};
          continue;
        }
        if (!parse_view_kind(w[i]) && !family_of_figure(w[i]))
          p.fail("unknown view '" + w[i] + "' (" + view_names() + ")");
        s.views.push_back(w[i]);
      }
      if (s.views.empty())
        p.fail("capture names no view (heatmap, histogram, throughput, stats, timeline)");
      any_capture = true;
      sc.steps.push_back(s);
    } else if (k == "style") {
      p.arity(w, 1, 1, "style paper|screen");
      if (w[1] != "paper" && w[1] != "screen")
        p.fail("unknown style '" + w[1] + "' (paper, screen)");
      sc.paper_style = w[1] == "paper";
    } else if (k == "compare") {
      if (w.size() < 3 || w.size() > 1 + compare_set::k_max_tables)
        p.fail(
            "usage: compare TABLE TABLE [TABLE] (2 or 3 tables, each a family with :name=value "
            "options, "
            "e.g. compare linear:hash=identity linear:hash=murmur3)");
      compare_words.assign(w.begin() + 1, w.end());
      compare_line = n;
    } else if (const auto owner = parse_family_line(p, w, sc.config.table)) {
      family_lines.push_back({w, *owner, n});
    } else {
      std::string keywords;
      for (const family_descriptor* f : families()) keywords += ", " + std::string(f->keywords);
      p.fail("unknown keyword '" + k +
             "' (title, table, capacity, hash, backend, maintain, timeline, distribution, seed, "
             "batch, mix, colormap, heatmap-mode, fill, drain, run, step, clear, rehash, flush, "
             "say, compare, style, capture; the families': " +
             keywords.substr(2) + ")");
    }
  }
  settle();  // settings after the last step, or a scenario of settings only
  if (!any_capture)
    line_parser{file, std::max(lines, 1)}.fail(
        "the scenario captures nothing (add a 'capture heatmap' step)");
  if (compare_words.empty())
    for (const family_line& l : family_lines)
      if (l.owner != sc.config.table.family)
        line_parser{file, l.line}.fail("'" + l.words[0] + "' is an option of the " +
                                       std::string(to_string(l.owner)) +
                                       " family, and this scenario's table is " +
                                       std::string(to_string(sc.config.table.family)) +
                                       " (add 'table " + std::string(to_string(l.owner)) + "')");
  // The settings the family's views want (the hive's instrumentation), then the scenario's own
  // family lines again, wherever they stand: what the file says wins.
  if (const auto prepare = ui_of(sc.config.table.family).prepare) {
    prepare(sc.config.table);
    for (const family_line& l : family_lines)
      parse_family_line(line_parser{file, l.line}, l.words, sc.config.table);
  }
  if (sc.config.table.capacity && sc.config.table.capacity < 16)
    line_parser{file, capacity_line}.fail("capacity must be at least 16 slots");
  if (sc.config.table.capacity && describe(sc.config.table.family).pow2_capacity &&
      !is_pow2(sc.config.table.capacity))
    line_parser{file, capacity_line}.fail(
        "capacity " + format_count(sc.config.table.capacity) + " is not a power of two (the " +
        std::string(to_string(sc.config.table.family)) + " family needs one)");
  if (const auto check = describe(sc.config.table.family).check_config)
    if (const std::string e = check(sc.config.table); !e.empty())
      line_parser{file, table_line             ? table_line
                        : family_lines.empty() ? 1
                                               : family_lines.back().line}
          .fail(e);
  const auto validate = [&](const workload::workload_spec& w, int line) {
    try {
      workload::validate(w);
    } catch (const user_error& e) {
      line_parser{file, std::max(line, 1)}.fail(e.what());
    }
  };
  validate(sc.config.workload, first_settings_line);
  for (const scenario_step& st : sc.steps)
    if (st.configure_to) validate(st.configure_to->workload, st.line);
  for (const std::string& e : compare_words) {
    try {
      sc.compare.push_back(parse_compare_entry(e, sc.config.table));
    } catch (const user_error& err) {
      line_parser{file, compare_line}.fail(err.what());
    }
  }
  for (const scenario_step& s : sc.steps)
    for (const std::string& v : s.views) {
      if ((v == "compare") != !sc.compare.empty())
        throw user_error(file + ":" + std::to_string(s.line) +
                         (sc.compare.empty()
                              ? ": the compare view needs a 'compare TABLE TABLE' line"
                              : ": a compare scenario captures 'compare' figures only"));
    }
  for (const scenario_step& s : sc.steps)
    for (const std::string& v : s.views)
      if (const auto f = family_of_figure(v); f && *f != sc.config.table.family)
        throw user_error(file + ":" + std::to_string(s.line) + ": the " + v +
                         " view belongs to the " + std::string(to_string(*f)) +
                         " family: add 'table " + std::string(to_string(*f)) + "'");
  for (const scenario_step& s : sc.steps)
    if (s.range_first && sc.config.table.capacity &&
        *s.range_first + s.range_count > sc.config.table.capacity)
      throw user_error(file + ":" + std::to_string(s.line) + ": the range goes past the table's " +
                       format_count(sc.config.table.capacity) + " slots");
  return sc;
}

scenario load_scenario(const std::string& path_or_name) {
  fs::path p(path_or_name);
  if (!fs::exists(p) && p.extension().empty() && p.parent_path().empty())
    p = assets_dir() / "scenarios" / (path_or_name + ".scn");
  std::ifstream f(p);
  if (!f)
    throw user_error("cannot read scenario " + p.string() + " (shipped scenarios: " + [] {
      std::string s;
      for (const auto& n : shipped_scenarios()) s += (s.empty() ? "" : ", ") + n;
      return s;
    }() + ")");
  std::stringstream text;
  text << f.rdbuf();
  return parse_scenario(text.str(), p.string());
}

std::vector<std::string> shipped_scenarios() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(assets_dir() / "scenarios", ec))
    if (e.path().extension() == ".scn") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

void animate_every_stage(scenario& sc, double seconds) {
  if (!sc.compare.empty())
    throw user_error(sc.file +
                     ": --animate records one table's views; compare mode has no animation");
  std::vector<scenario_step> out;
  for (const scenario_step& st : sc.steps) {
    if (st.kind == scenario_step::capture && !st.animation) {
      animation_spec a;
      a.seconds = seconds;
      a.view = "heatmap";
      for (const std::string& v : st.views)
        if (const auto k = parse_view_kind(v); k && *k != view_kind::stats) {
          a.view = v;
          break;
        }
      scenario_step anim = st;
      anim.views = {a.view};
      anim.animation = a;
      out.push_back(anim);
    }
    out.push_back(st);
  }
  sc.steps = std::move(out);
}

}  // namespace hs::app
