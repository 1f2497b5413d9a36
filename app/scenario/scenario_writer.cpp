// Scenarios written as the keywords parse_scenario reads: print_scenario for any scenario (the
// fuzzer checks that what it prints parses back to what prints the same), and a session's journal
// turned into a scenario first.
#include "app/scenario/scenario_writer.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>

#include "app/families/family_hooks.hpp"
#include "core/common/format.hpp"
#include "core/table/family_registry.hpp"

namespace hs::app {

namespace {

// Numbers as parse_scenario reads them back exactly.
std::string exact(double v) { return strprintf("%.17g", v); }

// The options of family `f` where `t` differs from what the family's table line alone makes.
std::string option_lines(family f, const table_config& t) {
  const family_descriptor& d = describe(f);
  table_config plain;
  plain.family = f;
  if (const auto prepare = hooks_of(f).prepare) prepare(plain);
  table_config mine = t;
  mine.family = f;
  std::string lines, options;
  for (const family_option& o : d.options) {
    const std::string v = o.get(mine);
    if (v == o.get(plain)) continue;
    if (d.option_line.empty())
      lines += std::string(o.name) + " " + v + "\n";
    else
      options += " " + std::string(o.name) + "=" + v;
  }
  if (!options.empty()) lines += std::string(d.option_line) + options + "\n";
  return lines;
}

std::string mix_text(const workload::op_mix& m) {
  std::string out;
  const auto add = [&](const char* name, double w) {
    if (w > 0) out += (out.empty() ? "" : ",") + std::string(name) + ":" + exact(w);
  };
  add("insert", m.insert);
  add("find-hit", m.find_hit);
  add("find-miss", m.find_miss);
  add("erase", m.erase);
  return out.empty() ? "insert:1" : out;
}

std::string step_line(const scenario_step& s) {
  switch (s.kind) {
    case scenario_step::fill: return "fill " + exact(s.load);
    case scenario_step::drain: return "drain " + exact(s.load);
    case scenario_step::run: return "run " + std::to_string(s.batches);
    case scenario_step::step: {
      if (s.given.empty()) return "step " + std::to_string(s.batches);
      // A line names one kind: a step of several kinds is written as a step per run of one kind
      // (the same operations, in order, on the same table).
      std::string out = s.ask ? "ask " + std::string(to_string(*s.ask)) + "\n" : "";
      for (std::size_t i = 0; i < s.given.size(); ++i) {
        if (i == 0 || s.given[i].kind != s.given[i - 1].kind)
          out += (i ? "\n" : "") + std::string("step ") + std::string(to_string(s.given[i].kind));
        out += " " + std::to_string(s.given[i].key);
      }
      return out;
    }
    case scenario_step::clear: return "clear";
    case scenario_step::rehash: return s.batches ? "rehash " + format_size(s.batches) : "rehash";
    case scenario_step::flush: return "flush";
    case scenario_step::regpus: return "regpus " + std::to_string(s.batches);
    case scenario_step::say: return "say \"" + s.text + "\"";
    case scenario_step::back: return "back " + std::to_string(s.batches);
    case scenario_step::load_table: return "load table \"" + s.text + "\"";
    case scenario_step::save_table: return "save table \"" + s.text + "\"";
    case scenario_step::configure:
      return "# the settings from here on\n" + settings_lines(*s.configure_to);
    case scenario_step::capture: {
      if (s.animation)
        return "capture animation seconds=" + exact(s.animation->seconds) +
               " fps=" + std::to_string(s.animation->fps) + " view=" + s.animation->view;
      std::string line = "capture";
      for (const std::string& v : s.views) line += " " + v;
      if (s.range_first)
        line += " range=" + std::to_string(*s.range_first) + ":" + std::to_string(s.range_count);
      if (s.range_device) line += " device=" + std::to_string(*s.range_device);
      if (s.buckets)
        line += " buckets=" + std::to_string(s.buckets->first) + ":" +
                std::to_string(s.buckets->second);
      return line;
    }
  }
  return "";
}

std::string today() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm local{};
  localtime_r(&t, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local);
  return text;
}

}  // namespace

std::string settings_lines(const script_step::settings& s) {
  const workload::stream_params& k = s.workload.keys;
  std::string out;
  if (k.dist == workload::distribution::file && s.workload.key_file) {
    const workload::key_file_spec& f = s.workload.key_file->source;
    // Absolute: the written scenario may be saved in another folder than the one it came from.
    const std::string path = std::filesystem::absolute(f.path).lexically_normal().string();
    const bool spaced = path.find_first_of(" \t") != std::string::npos;
    out = "keys file " + (spaced ? "\"" + path + "\"" : path);
    if (f.column) out += " column " + std::to_string(f.column);
    if (f.format != workload::key_format::automatic)
      out += " format " + std::string(workload::to_string(f.format));
  } else {
    out = "distribution " + std::string(workload::to_string(k.dist));
  }
  switch (k.dist) {
    case workload::distribution::uniform_dup: out += " universe=" + format_size(k.universe); break;
    case workload::distribution::zipf:
      out += " universe=" + format_size(k.universe) + " zipf=" + exact(k.zipf_s);
      break;
    case workload::distribution::clustered: out += " cluster=" + std::to_string(k.cluster); break;
    case workload::distribution::sequential: out += " start=" + std::to_string(k.start); break;
    default: break;
  }
  if (k.id_bits == 64) out += " ids=64";
  out += "\nseed " + std::to_string(k.seed) + "\n";
  out += "batch " + format_size(s.workload.batch_size) + "\n";
  out += "mix " + mix_text(s.workload.mix) + "\n";
  const maintenance_policy& m =
      s.maintenance;  // all three: a later line must be able to switch one off
  out += "maintain grow=" + exact(m.grow_above) + " shrink=" + exact(m.shrink_below) +
         " rehash=" + exact(m.rehash_above) + "\n";
  out += std::string("timeline ") + (s.record_timeline ? "on" : "off") + "\n";
  return out;
}

std::string print_scenario(const scenario& sc) {
  const table_config& t = sc.config.table;
  std::string out;
  if (!sc.title.empty()) out += "title " + sc.title + "\n";
  out += "backend " + std::string(to_string(sc.backend)) + "\n";
  out += "table " + std::string(to_string(t.family)) + "\n";
  if (t.capacity) out += "capacity " + format_size(t.capacity) + "\n";
  if (t.devices > 1) out += "gpus " + std::to_string(t.devices) + "\n";
  if (t.owner != owner_bits::independent) out += "owner " + std::string(to_string(t.owner)) + "\n";
  out += "hash " + std::string(to_string(t.hash)) + "\n";
  // A compare scenario's entries take their families' settings from its table lines: all of them.
  if (sc.compare.empty()) {
    out += option_lines(t.family, t);
  } else {
    for (const family_descriptor* f : families()) out += option_lines(f->id, t);
    out += "compare";
    for (const compare_entry& e : sc.compare) out += " " + e.label;
    out += "\n";
  }
  out += "colormap " + sc.colormap + "\n";
  out += std::string("heatmap-mode ") +
         (sc.heatmap_mode == vis::heatmap_mode::occupancy ? "occupancy" : "probe-length") + "\n";
  if (sc.paper_style) out += "style paper\n";
  out += settings_lines({sc.config.workload, sc.config.maintenance, sc.config.record_timeline});
  for (const scenario_step& s : sc.steps) out += step_line(s) + "\n";
  return out;
}

std::string scenario_text(const session_to_save& s) {
  scenario sc;
  sc.title = s.title.empty() ? std::string("Saved session") : s.title;
  sc.backend = s.backend;
  sc.compare = s.compare;
  sc.config.table = s.journal.table;
  const auto& entries = s.journal.entries;
  script_step::settings settings =
      entries.empty() ? script_step::settings{s.workload, s.maintenance, s.record_timeline}
                      : entries.front().settings;
  sc.config.workload = settings.workload;
  sc.config.maintenance = settings.maintenance;
  sc.config.record_timeline = settings.record_timeline;
  const std::span<const std::string_view> figures = hooks_of(sc.config.table.family).figures;
  const auto capture = [&](bool traced) {
    scenario_step c;
    c.kind = scenario_step::capture;
    if (!sc.compare.empty())
      c.views = {"compare"};
    else if (traced && !figures.empty())
      c.views = {"heatmap", "stats", std::string(figures.front())};
    else
      c.views = {"heatmap", "histogram", "stats"};
    sc.steps.push_back(c);
  };
  std::string settings_now = settings_lines(settings);
  for (const journal_entry& e : entries) {
    const script_step& c = e.step;
    if (c.kind == script_step::pause || c.kind == script_step::configure ||
        (c.kind == script_step::run && c.batches == 0))
      continue;
    if (const std::string now = settings_lines(e.settings); now != settings_now) {
      scenario_step cfg;
      cfg.kind = scenario_step::configure;
      cfg.configure_to = e.settings;
      sc.steps.push_back(cfg);
      settings_now = now;
    }
    scenario_step step;
    step.load = c.load;
    step.batches = c.batches;
    step.text = c.text;
    step.given = c.given;
    switch (c.kind) {
      case script_step::fill: step.kind = scenario_step::fill; break;
      case script_step::drain: step.kind = scenario_step::drain; break;
      case script_step::run: step.kind = scenario_step::run; break;
      case script_step::step: step.kind = scenario_step::step; break;
      case script_step::clear: step.kind = scenario_step::clear; break;
      case script_step::rehash: step.kind = scenario_step::rehash; break;
      case script_step::flush: step.kind = scenario_step::flush; break;
      case script_step::regpus: step.kind = scenario_step::regpus; break;
      case script_step::load_table: step.kind = scenario_step::load_table; break;
      default: step.kind = scenario_step::say; break;
    }
    sc.steps.push_back(step);
    if (step.kind != scenario_step::say)
      capture(step.kind == scenario_step::step);  // a say captions the next stage
  }
  if (sc.steps.empty() || sc.steps.back().kind != scenario_step::capture) capture(false);
  // First and last, the lines that tell a saved scenario cut short from a whole one.
  return std::string(k_saved_scenario_first_line) + "\n# From the window on " + today() +
         ": the commands run since the table was made or reset,\n"
         "# a stage each (the command, then what the views showed).\n" +
         print_scenario(sc) + std::string(k_saved_scenario_last_line) + "\n";
}

}  // namespace hs::app
