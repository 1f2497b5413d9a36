// The session written as scenario lines, in the keywords parse_scenario reads.
#include "app/scenario_writer.hpp"

#include <chrono>
#include <ctime>

#include "app/families/family_ui.hpp"
#include "core/common/format.hpp"
#include "core/table/family_registry.hpp"

namespace hs::app {

namespace {

std::string table_lines(const table_config& t, backend_choice b) {
  const family_descriptor& d = describe(t.family);
  std::string s = "backend " + std::string(to_string(b)) + "\n";
  s += "table " + std::string(d.name) + "\n";
  s += "capacity " + format_size(t.capacity) + "\n";
  s += "hash " + std::string(to_string(t.hash)) + "\n";
  table_config plain;  // what the family's table line alone would make
  plain.family = t.family;
  if (const auto prepare = ui_of(t.family).prepare) prepare(plain);
  std::string options;
  for (const family_option& o : d.options) {
    const std::string v = o.get(t);
    if (v == o.get(plain)) continue;
    if (d.option_line.empty())
      s += std::string(o.name) + " " + v + "\n";
    else
      options += " " + std::string(o.name) + "=" + v;
  }
  if (!options.empty()) s += std::string(d.option_line) + options + "\n";
  return s;
}

std::string command_line(const script_step& c) {
  switch (c.kind) {
    case script_step::fill: return strprintf("fill %.6g", c.load);
    case script_step::drain: return strprintf("drain %.6g", c.load);
    case script_step::run:
      return c.batches ? strprintf("run %llu", static_cast<unsigned long long>(c.batches)) : "";
    case script_step::step:
      return strprintf("step %llu", static_cast<unsigned long long>(c.batches));
    case script_step::clear: return "clear";
    case script_step::rehash: return c.batches ? "rehash " + format_size(c.batches) : "rehash";
    case script_step::flush: return "flush";
    case script_step::say: return "say \"" + c.text + "\"";
    case script_step::pause:
    case script_step::configure: return "";
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
  std::string out = "distribution " + std::string(workload::to_string(k.dist));
  switch (k.dist) {
    case workload::distribution::uniform_dup: out += " universe=" + format_size(k.universe); break;
    case workload::distribution::zipf:
      out += " universe=" + format_size(k.universe) + strprintf(" zipf=%.6g", k.zipf_s);
      break;
    case workload::distribution::clustered: out += " cluster=" + std::to_string(k.cluster); break;
    case workload::distribution::sequential: out += " start=" + std::to_string(k.start); break;
    default: break;
  }
  out += "\nseed " + std::to_string(k.seed) + "\n";
  out += "batch " + format_size(s.workload.batch_size) + "\n";
  out += "mix " + workload::to_string(s.workload.mix) + "\n";
  const maintenance_policy& m = s.maintenance;
  if (m.active()) {
    out += "maintain";
    if (m.grow_above > 0) out += strprintf(" grow=%.6g", m.grow_above);
    if (m.shrink_below > 0) out += strprintf(" shrink=%.6g", m.shrink_below);
    if (m.rehash_above > 0) out += strprintf(" rehash=%.6g", m.rehash_above);
    out += "\n";
  }
  out += std::string("timeline ") + (s.record_timeline ? "on" : "off") + "\n";
  return out;
}

std::string scenario_text(const session_to_save& s) {
  const table_config& t = s.journal.table;
  std::string out = "# Saved from the HashScope window on " + today() +
                    ": the commands run since the table was made or reset,\n"
                    "# a stage each (the command, then what the views showed).\n";
  out += "title " + (s.title.empty() ? std::string("Saved session") : s.title) + "\n";
  out += table_lines(t, s.backend);
  const bool comparing = !s.compare.empty();
  if (comparing) {
    out += "compare";
    for (const compare_entry& e : s.compare) out += " " + e.label;
    out += "\n";
  }
  const auto& entries = s.journal.entries;
  std::string settings = settings_lines(
      entries.empty() ? script_step::settings{s.workload, s.maintenance, s.record_timeline}
                      : entries.front().settings);
  out += settings;
  const std::vector<std::string_view> figures = ui_of(t.family).figure_names();
  const std::string capture = comparing ? "capture compare\n" : "capture heatmap histogram stats\n";
  bool captured = false;
  for (const journal_entry& e : entries) {
    const std::string line = command_line(e.step);
    if (line.empty()) continue;
    if (const std::string now = settings_lines(e.settings); now != settings) {
      out += "# the settings from here on\n" + now;
      settings = now;
    }
    out += line + "\n";
    if (e.step.kind == script_step::say) continue;  // the caption of the stage that follows
    out += e.step.kind == script_step::step && !comparing && !figures.empty()
               ? "capture heatmap stats " + std::string(figures.front()) + "\n"
               : capture;
    captured = true;
  }
  if (!captured) out += capture;
  return out;
}

}  // namespace hs::app
