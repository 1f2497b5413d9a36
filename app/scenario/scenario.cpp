// The scenario parser: strict about keywords and values, with messages that say what to write.
#include "app/scenario/scenario.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/families/family_hooks.hpp"
#include "app/scenario/scenario_keywords.hpp"
#include "app/scenario/scenario_parse_state.hpp"
#include "core/common/assets.hpp"
#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/family_option.hpp"
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
    case view_kind::gpus: return "gpus";
  }
  return "?";
}

std::optional<view_kind> parse_view_kind(std::string_view s) {
  for (auto v : {view_kind::heatmap, view_kind::histogram, view_kind::throughput, view_kind::stats,
                 view_kind::timeline, view_kind::compare, view_kind::gpus})
    if (to_string(v) == s) return v;
  return std::nullopt;
}

std::optional<script_step> as_script_step(const scenario_step& s) {
  switch (s.kind) {
    case scenario_step::fill: return script_step{script_step::fill, s.load, 0};
    case scenario_step::drain: return script_step{script_step::drain, s.load, 0};
    case scenario_step::run: return script_step{script_step::run, 0, s.batches};
    case scenario_step::clear: return script_step{script_step::clear, 0, 0};
    case scenario_step::rehash: return script_step{script_step::rehash, 0, s.batches};
    case scenario_step::regpus: return script_step{script_step::regpus, 0, s.batches};
    case scenario_step::flush: return script_step{script_step::flush, 0, 0};
    case scenario_step::step: {
      script_step st{script_step::step, 0, s.batches};
      st.given = s.given;
      return st;
    }
    case scenario_step::say: return script_step{script_step::say, 0, 0, s.text};
    case scenario_step::configure:
      return script_step{script_step::configure, 0, 0, {}, s.configure_to};
    case scenario_step::back: return script_step{script_step::back, 0, s.batches};
    case scenario_step::load_table: return script_step{script_step::load_table, 0, 0, s.text};
    case scenario_step::save_table: return script_step{script_step::save_table, 0, 0, s.text};
    case scenario_step::capture: break;
  }
  return std::nullopt;
}

std::vector<script_step> scenario::script() const {
  std::vector<script_step> out;
  for (const scenario_step& s : steps) {
    if (s.ask) {  // the question holds the script until it is answered
      script_step q{script_step::ask};
      q.question = *s.ask;
      q.given = s.given;
      out.push_back(q);
    }
    if (const auto st = as_script_step(s)) {
      out.push_back(*st);
    } else {  // a capture: the stage pauses there, showing what it captures
      script_step pause;
      pause.kind = script_step::pause;
      pause.views = s.views;
      out.push_back(pause);
    }
  }
  return out;
}

bool scenario::captures() const {
  return std::any_of(steps.begin(), steps.end(),
                     [](const scenario_step& s) { return s.kind == scenario_step::capture; });
}

void line_parser::fail(const std::string& msg) const {
  throw user_error(file + ":" + std::to_string(line) + ": " + msg);
}

double line_parser::load(const std::string& w, double max) const {
  double v = 0;
  auto r = std::from_chars(w.data(), w.data() + w.size(), v);
  if (r.ec != std::errc{} || r.ptr != w.data() + w.size() || !(v >= 0.0) || v > max)
    fail("'" + w + "' is not a load factor between 0 and " + strprintf("%g", max));
  return v;
}

std::uint64_t line_parser::size(const std::string& w, const char* what) const {
  auto v = parse_size(w);
  if (!v) fail("'" + w + "' is not a " + what + " (examples: 1048576, 1M, 2^20)");
  return *v;
}

double line_parser::number(const std::string& w, const char* what) const {
  double v = 0;
  auto r = std::from_chars(w.data(), w.data() + w.size(), v);
  if (r.ec != std::errc{} || r.ptr != w.data() + w.size())
    fail("'" + w + "' is not a number (" + what + ")");
  return v;
}

void line_parser::arity(const std::vector<std::string>& w, std::size_t lo, std::size_t hi,
                        std::string_view usage) const {
  if (w.size() - 1 < lo || (hi != scenario_keyword::k_any && w.size() - 1 > hi))
    fail("usage: " + std::string(usage));
}

void scenario_parse::settle() {
  if (!stepped) {
    sc.config.workload = now.workload;
    sc.config.maintenance = now.maintenance;
    sc.config.record_timeline = now.record_timeline;
    first_settings_line = settings_line;
  } else if (settings_changed) {
    scenario_step c;
    c.kind = scenario_step::configure;
    c.configure_to = now;
    c.line = settings_line;
    sc.steps.push_back(c);
  }
  stepped = true;
  settings_changed = false;
}

void scenario_parse::push(scenario_step s, int n) {
  s.line = n;
  switch (s.kind) {
    case scenario_step::say:
    case scenario_step::configure:
    case scenario_step::capture:
    case scenario_step::save_table: break;
    case scenario_step::back: commands -= s.batches; break;
    default: ++commands;
  }
  sc.steps.push_back(std::move(s));
}

namespace {

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> w;
  std::istringstream in(line);
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

// The line's first word as written, before comments are cut: "say" for `say"#1"` too.
std::string_view first_word(const std::string& raw) {
  const auto b = raw.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const auto e = raw.find_first_of(" \t\r\"#", b);
  return std::string_view(raw).substr(b, (e == std::string::npos ? raw.size() : e) - b);
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

[[noreturn]] void unknown_keyword(const line_parser& p, const std::string& k) {
  std::string keywords;
  for (const family_descriptor* f : families()) keywords += ", " + std::string(f->keywords);
  p.fail("unknown keyword '" + k + "' (" + scenario_keyword_names() +
         "; the families': " + keywords.substr(2) + ")");
}

// One line through the keyword table (or a family's own keywords).
void parse_line(scenario_parse& s, const std::string& raw, int n) {
  const line_parser p{s.sc.file, n};
  const bool said = first_word(raw) == "say";  // the caption may hold '#'
  const std::string text = said ? raw : raw.substr(0, raw.find('#'));
  const auto w = said ? std::vector<std::string>{"say"} : words_of(text);
  if (w.empty()) return;
  const scenario_keyword* k = find_scenario_keyword(w[0]);
  if (!k) {
    if (const auto owner = parse_family_line(p, w, s.sc.config.table))
      s.family_lines.push_back({w, *owner, n});
    else
      unknown_keyword(p, w[0]);
    return;
  }
  if (k->role == keyword_role::workload) {
    s.settings_changed = true;
    s.settings_line = n;
  } else if (k->role == keyword_role::step) {
    s.settle();
  }
  p.arity(w, k->min_args, k->max_args, k->usage);
  k->handle(s, keyword_line{raw, text, w, p});
}

// What can be checked only once the whole file is read: the family's lines against its table,
// the capacity against the family, the workloads, the compare entries, what each capture asks.
// "linear", "linear or slab", "linear, slab or hive".
std::string family_names(const std::vector<family>& fs) {
  std::string names;
  for (std::size_t i = 0; i < fs.size(); ++i)
    names += (i == 0 ? "" : i + 1 == fs.size() ? " or " : ", ") + std::string(to_string(fs[i]));
  return names;
}

// What each step asks of the table: its views' family and compare mode, its question, its range.
template <class Fail>
void check_steps_fit(scenario_parse& s, const Fail& fail_at) {
  scenario& sc = s.sc;
  for (const scenario_step& st : sc.steps)
    for (const std::string& v : st.views) {
      if ((v == "compare") != !sc.compare.empty())
        fail_at(st.line, sc.compare.empty() ? "the compare view needs a 'compare TABLE TABLE' line"
                                            : "a compare scenario captures 'compare' figures only");
      if (const auto fs = families_of_figure(v);
          !fs.empty() && !hooks_of(sc.config.table.family).has_figure(v)) {  // other families' only
        fail_at(st.line, "the " + v + " view belongs to the " + family_names(fs) +
                             " family: add 'table " + std::string(to_string(fs.front())) + "'");
      }
    }
  if (s.pending_ask) fail_at(s.pending_ask_line, "ask with no step after it to ask about");
  for (const scenario_step& st : sc.steps)
    if (st.ask && !hooks_of(sc.config.table.family).answers(*st.ask))
      fail_at(st.ask_line, "ask " + std::string(to_string(*st.ask)) + ": the " +
                               std::string(to_string(sc.config.table.family)) +
                               " family's views cannot answer it (" +
                               family_names(families_answering(*st.ask)) + " can)");
    else if (st.ask && !sc.compare.empty())
      fail_at(st.ask_line, "ask: a question is on one table, not on compared ones");
  for (const scenario_step& st : sc.steps)
    if (st.range_first && st.range_device)
      fail_at(st.line, "a capture takes range= or device=, not both");
  for (const scenario_step& st : sc.steps)
    if (st.range_first && sc.config.table.capacity &&
        *st.range_first + st.range_count > sc.config.table.capacity)
      fail_at(st.line, "the range goes past the table's " + format_count(sc.config.table.capacity) +
                           " slots");
}

void check_whole(scenario_parse& s) {
  scenario& sc = s.sc;
  const std::string& file = sc.file;
  const auto fail_at = [&](int line, const std::string& msg) {
    line_parser{file, std::max(line, 1)}.fail(msg);
  };
  if (s.compare_words.empty())
    for (const family_line& l : s.family_lines)
      if (l.owner != sc.config.table.family)
        fail_at(l.line, "'" + l.words[0] + "' is an option of the " +
                            std::string(to_string(l.owner)) +
                            " family, and this scenario's table is " +
                            std::string(to_string(sc.config.table.family)) + " (add 'table " +
                            std::string(to_string(l.owner)) + "')");
  // The settings the family's views want (the hive's instrumentation), then the scenario's own
  // family lines again, wherever they stand: what the file says wins.
  if (const auto prepare = hooks_of(sc.config.table.family).prepare) {
    prepare(sc.config.table);
    for (const family_line& l : s.family_lines)
      parse_family_line(line_parser{file, l.line}, l.words, sc.config.table);
  }
  if (sc.config.table.capacity && sc.config.table.capacity < 16)
    fail_at(s.capacity_line, "capacity must be at least 16 slots");
  if (sc.config.table.capacity && describe(sc.config.table.family).pow2_capacity &&
      !is_pow2(sc.config.table.capacity))
    fail_at(s.capacity_line,
            "capacity " + format_count(sc.config.table.capacity) + " is not a power of two (the " +
                std::string(to_string(sc.config.table.family)) + " family needs one)");
  if (const auto check = describe(sc.config.table.family).check_config)
    if (const std::string e = check(sc.config.table); !e.empty())
      fail_at(s.table_line             ? s.table_line
              : s.family_lines.empty() ? 1
                                       : s.family_lines.back().line,
              e);
  for (const std::string& e : s.compare_words) {
    try {
      sc.compare.push_back(parse_compare_entry(e, sc.config.table));
    } catch (const user_error& err) {
      fail_at(s.compare_line, err.what());
    }
  }
  // The compared tables took the width the lines set (linear:key-bits=64); the scenario's own
  // table keeps one its family holds (a slab table beside them stays 32-bit).
  set_family(sc.config.table, sc.config.table.family);
  const auto validate = [&](const workload::workload_spec& w, int line) {
    try {
      workload::validate(w, sc.config.table.width);
    } catch (const user_error& e) {
      fail_at(line, e.what());
    }
  };
  validate(sc.config.workload, s.first_settings_line);
  for (const scenario_step& st : sc.steps) {
    if (st.configure_to) validate(st.configure_to->workload, st.line);
    try {  // typed keys read before a later key-bits line
      for (const given_op& o : st.given) check_typed_key(o.key, sc.config.table.width);
    } catch (const user_error& e) {
      fail_at(st.line, e.what());
    }
  }
  check_steps_fit(s, fail_at);
}

}  // namespace

void set_key_width(scenario& sc, key_width w) {
  const std::string option = "--key-bits " + std::string(to_string(w)) + ": ";
  try {
    set_key_width(sc.config.table, w);
    workload::validate(sc.config.workload, w);
    for (const scenario_step& st : sc.steps) {
      if (st.configure_to) workload::validate(st.configure_to->workload, w);
      for (const given_op& o : st.given) check_typed_key(o.key, w);
    }
  } catch (const user_error& e) {
    throw user_error(option + e.what());
  }
}

namespace {

// A scenario HashScope saved, cut short: its first line is the writer's and its last line (blank
// lines aside) is not the end line the writer puts last. Checked before any line is parsed, so
// the cut, not the half line it left, is what the error names.
void refuse_cut_short(const std::string& text, const std::string& file) {
  std::istringstream in(text);
  std::string raw, last;
  int n = 0, last_n = 1;
  const auto trimmed = [](std::string l) {
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t')) l.pop_back();
    return l;
  };
  for (; std::getline(in, raw); ++n) {
    const std::string l = trimmed(raw);
    if (n == 0 && l != k_saved_scenario_first_line) return;  // not saved by HashScope
    if (l.empty()) continue;
    last = l;
    last_n = n + 1;
  }
  if (n == 0 || last == k_saved_scenario_last_line) return;
  line_parser{file, last_n}.fail("truncated: a scenario saved by HashScope ends with '" +
                                 std::string(k_saved_scenario_last_line) + "'");
}

}  // namespace

scenario parse_scenario(const std::string& text, const std::string& file) {
  refuse_cut_short(text, file);
  scenario_parse s;
  s.sc.file = file;
  s.sc.name = fs::path(file).stem().string();
  s.sc.config.workload.batch_size = 1u << 20;
  s.now = {s.sc.config.workload, s.sc.config.maintenance, s.sc.config.record_timeline};
  std::istringstream in(text);
  std::string raw;
  for (int n = 1; std::getline(in, raw); ++n) parse_line(s, raw, n);
  s.settle();  // settings after the last step, or a scenario of settings only
  check_whole(s);
  return std::move(s.sc);
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
