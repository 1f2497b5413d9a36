// Figures from benchmark reports: recipes that name a suite's table, its x column and the series.
#include "app/plot/plot_figures.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/plot/plot_series_csv.hpp"
#include "app/plot/report_reader.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::app {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

using report_file = bench_report;

// A series: column `y` against column `x` of a table, optionally only the rows that hold the
// values `rows` names in its columns (hive sizes, probe tables, the sharded suite's operation,
// width and scaling). Only measured columns are ever a series: a figure names each column it
// plots (named_figure::columns lists those it drew), and parameters such as beta or a batch size
// are axes or words of the caption.
struct source {
  std::string suite, table, x, y, legend;
  std::vector<std::pair<std::string, json>> rows = {};
  fig::series::kind_t kind = fig::series::line;
};

// Which --series points a panel takes: none, open addressing's inserts or finds (load = keys /
// slots), or chaining's of both kinds (load = memory utilization).
enum class takes_extra : std::uint8_t { none, open_insert, open_find, chaining };

struct panel_recipe {
  std::string title, x_label, y_label;
  bool x_log = false, y_log = false;
  std::vector<source> series;
  takes_extra extra = takes_extra::none;
  bool x_whole = false;  ///< x is a count (GPUs): whole-number ticks
};

struct recipe {
  std::string file;
  std::vector<panel_recipe> panels;
  /// For a seed's figure: the paper's own figure, device and rates, for the caption (core/bench/
  /// README.md sets both beside each other per TB/s of memory bandwidth).
  std::string paper = {};
};

const json* find_table(const std::map<std::string, report_file>& reports, const std::string& suite,
                       const std::string& table) {
  const auto r = reports.find(suite);
  if (r == reports.end() || !r->second.doc.contains("tables")) return nullptr;
  for (const json& t : r->second.doc["tables"])
    if (t.value("name", "") == table) return &t;
  return nullptr;
}

// A cell as a number: numbers, and sizes the reports write as powers of two ("2^18").
bool number_of(const json& row, const std::string& col, double& out) {
  if (!row.contains(col)) return false;
  const json& c = row[col];
  if (c.is_number()) {
    out = c.get<double>();
    return true;
  }
  if (!c.is_string()) return false;
  const std::string t = c.get<std::string>();
  // A count written as text ("4" GPUs).
  if (!t.empty() && t.size() <= 9 && t.find_first_not_of("0123456789") == std::string::npos) {
    out = std::stod(t);
    return true;
  }
  if (t.rfind("2^", 0) != 0 || t.size() < 3 || t.size() > 4 ||
      t.find_first_not_of("0123456789", 2) != std::string::npos)
    return false;
  out = std::ldexp(1.0, std::stoi(t.substr(2)));
  return true;
}

// How the linear suite probed, from its report's table line ("..., probing double, ..."): the
// same suite measures linear probing or double hashing, and a figure must say which.
struct probing_words {
  std::string name = "Linear probing", legend = "linear probing", unit = "slots", switch_ = "";
};
probing_words probing_of(const std::map<std::string, report_file>& reports) {
  probing_words w;
  const auto r = reports.find("linear");
  if (r == reports.end()) return w;
  const json& m = r->second.doc.value("metadata", json::object());
  if (m.value("table", std::string()).find("probing double") != std::string::npos)
    w = {"Double hashing", "double hashing", "probes", " --probe double"};
  return w;
}

// A panel of bench mixed: one mix's batches against the load the table was filled to.
panel_recipe mixed_panel(const std::string& table, const std::string& title) {
  const auto of = [&](const char* legend, const char* series) {
    return source{"mixed", table, "load", "G ops/s", legend, {{"series", series}}};
  };
  return {title,
          "load before the batches (keys / slots)",
          "operations/s (G)",
          false,
          false,
          {of("linear probing", "linear, repeats"), of("slab hash", "slab, repeats"),
           of("hive, instrumented", "hive, repeats, instrumented"),
           of("hive, plain", "hive, repeats, plain"),
           of("hive, each key once", "hive, unique, instrumented")}};
}

// bench sharded's rows of one operation, width and scaling: a column against the GPUs.
source sharded_series(const char* y, const char* op, const char* bits, const std::string& legend) {
  return source{"sharded", "scaling", "GPUs",
                y,         legend,    {{"op", op}, {"key bits", bits}, {"scaling", "weak"}}};
}

recipe sharded_scaling() {
  const auto all = [](const char* op, const char* legend) {
    return sharded_series("G ops/s", op, "32", legend);
  };
  const auto each = [](const char* op, const char* bits, const std::string& legend) {
    return sharded_series("a GPU / 1 GPU", op, bits, legend);
  };
  return {"sharded-scaling",
          {{"All GPUs together: weak scaling, 32-bit keys",
            "GPUs",
            "operations/s (G)",
            false,
            false,
            {all("insert", "insert"), all("find-hit", "find (hit)"),
             all("find-miss", "find (miss)"), all("erase", "erase"), all("mix", "mix")},
            takes_extra::none,
            true},
           {"A GPU's rate against the one-GPU table",
            "GPUs",
            "a GPU / one GPU",
            false,
            false,
            {each("insert", "32", "insert, 32-bit"), each("find-hit", "32", "find, 32-bit"),
             each("insert", "64", "insert, 64-bit"), each("find-hit", "64", "find, 64-bit")},
            takes_extra::none,
            true}},
          "WarpDrive (Juenger, Hu and Schmidt, IPDPS 2018): 4.3 G ops/s over four P100s (4 x 732 "
          "GB/s)."};
}

std::vector<recipe> recipes(const probing_words& pw) {
  using S = source;
  const auto pts = fig::series::line;
  const auto dots = fig::series::points;
  return {
      {"simple-gpu-hash-table-load-sweep",
       {{"Insert rate against load (A Simple GPU Hash Table, Experiment 2)",
         "load factor",
         "inserts/s (G)",
         false,
         false,
         {S{"seed-linear", "experiment2", "load", "HashScope G/s", "HashScope", {}, pts},
          S{"seed-linear",
            "experiment2",
            "load",
            "seed G/s",
            "the article's own algorithm",
            {},
            pts}}},
        {"Probe length against load (the article's code: the same)",
         "load factor",
         "mean probe length (slots)",
         false,
         true,
         // One series: linear probing's occupied slots, and so its probe lengths, do not depend
         // on the order keys go in, and the seed's algorithm's rows equal these (its line would
         // lie hidden under this one).
         {S{"seed-linear",
            "probe_lengths",
            "load",
            "mean",
            "HashScope",
            {{"table", "HashScope"}},
            pts}}}},
       "The article (A Simple GPU Hash Table): its load-factor table, on a GTX 1060 (192 GB/s): "
       "361 M inserts/s "
       "at load 0, 4M keys a kernel."},
      {"linear-bulk",
       {{pw.name + ": bulk rates against load",
         "load factor",
         "operations/s (G)",
         false,
         false,
         {S{"linear", "bulk", "load", "insert", "insert"},
          S{"linear", "bulk", "load", "find-hit", "find (hit)"},
          S{"linear", "bulk", "load", "find-miss", "find (miss)"},
          S{"linear", "bulk", "load", "erase", "erase"}}},
        {"Probe length",
         "load factor",
         "mean probe length (" + pw.unit + ")",
         false,
         true,
         {S{"linear", "bulk", "load", "probe mean", "mean"}}}}},
      {"slabhash-fig4",
       {{"Build and search against memory utilization (SlabHash, Fig. 4)",
         "memory utilization",
         "operations/s (G)",
         false,
         false,
         // Markers only: utilization is what each beta reached, and it is not monotone in beta
         // (a line in the order measured zig-zags back along the axis).
         {S{"slab", "fig4-utilization", "utilization", "build", "build", {}, dots},
          S{"slab",
            "fig4-utilization",
            "utilization",
            "search-all",
            "search (all present)",
            {},
            dots},
          S{"slab",
            "fig4-utilization",
            "utilization",
            "search-none",
            "search (none present)",
            {},
            dots}}}},
       "The SlabHash paper (Ashkiani, Farach-Colton, Owens, IPDPS 2018): Fig. 4, on a Tesla K40c "
       "(288 GB/s): at most 512 M inserts/s and "
       "937 M queries/s."},
      {"slabhash-fig5",
       {{"Build and search against the number of keys (SlabHash, Fig. 5)",
         "keys",
         "operations/s (G)",
         true,
         false,
         {S{"slab", "fig5-size", "n", "build", "build"},
          S{"slab", "fig5-size", "n", "search-all", "search (all present)"},
          S{"slab", "fig5-size", "n", "search-none", "search (none present)"}}}},
       "The SlabHash paper: Fig. 5, on a Tesla K40c (288 GB/s), at utilization 0.6: searches "
       "at a harmonic mean of 861 (all present) and 793 M/s (none)."},
      {"slabhash-fig7",
       {{"Concurrent mixed batches (SlabHash, Fig. 7a)",
         "initial memory utilization",
         "operations/s (G)",
         false,
         false,
         {S{"slab", "fig7a-concurrent", "initial utilization", "G0 (0.5,0.5,0,0)",
            "Γ₀: 50% insert, 50% delete"},
          S{"slab", "fig7a-concurrent", "initial utilization", "G1 (0.2,0.2,0.3,0.3)",
            "Γ₁: 20/20/30/30"},
          S{"slab", "fig7a-concurrent", "initial utilization", "G2 (0.1,0.1,0.4,0.4)",
            "Γ₂: 10/10/40/40"}}}},
       "The SlabHash paper: Fig. 7a, on a Tesla K40c (288 GB/s): Γ₀ < Γ₁ < Γ₂, falling to about "
       "100 M ops/s at utilization 0.9."},
      {"hive-fig9",
       {{"Inserts completed by each step (the Hive paper, Fig. 9)",
         "load factor",
         "share of the inserts",
         false,
         false,
         {S{"hive", "steps", "load", "1 replace", "1: replace"},
          S{"hive", "steps", "load", "2 claim", "2: claim"},
          S{"hive", "steps", "load", "3 evict", "3: evict"},
          S{"hive", "steps", "load", "4 stash", "4: stash"}}}},
       "The Hive paper: Fig. 9, on an RTX 4090 (1008 GB/s)."},
      {"hive-throughput",
       {{"Bulk insert against load (the Hive paper)",
         "load factor",
         "inserts/s (G)",
         false,
         false,
         {S{"hive", "bulk-insert", "load", "insert", "2^25 slots", {{"slots", "2^25"}}},
          S{"hive", "bulk-insert", "load", "insert", "2^27 slots", {{"slots", "2^27"}}}}},
        {"Lookups after the fill",
         "load factor",
         "lookups/s (G)",
         false,
         false,
         {S{"hive", "bulk-insert", "load", "find (all hit)", "2^25 slots", {{"slots", "2^25"}}},
          S{"hive", "bulk-insert", "load", "find (all hit)", "2^27 slots", {{"slots", "2^27"}}}}}},
       "The Hive paper: Figs. 6 and 7, on an RTX 4090 (1008 GB/s): bulk inserts at most "
       "3,543 M/s, queries 3,853 M/s (loads not stated)."},
      // The three families side by side on the same mixed session batches, a panel per mix:
      // keys repeated (inserts may replace, erases may miss), the hive as the window runs it
      // (instrumented) and plain, and with each key once.
      {"mixed-families",
       {mixed_panel("window-mix", "The window's mix (0.2 / 0.5 / 0.1 / 0.2)"),
        mixed_panel("paper-mix-5-3-2", "Insert:lookup:delete 0.5:0.3:0.2"),
        mixed_panel("paper-mix-5-4-1", "Insert:lookup:delete 0.5:0.4:0.1")},
       "The Hive paper: 1.5-2x SlabHash's throughput under mixed insert/lookup/delete batches, on "
       "an RTX 4090 (1008 GB/s)."},
      // One quantity per axis: open addressing's load is keys / slots; the slab table's is the
      // SlabHash paper's memory utilization, in a panel of its own.
      {"families-against-load",
       {{"Inserts against load, open addressing",
         "load factor (keys / slots)",
         "inserts/s (G)",
         false,
         false,
         {S{"linear", "bulk", "load", "insert", pw.legend},
          S{"hive", "bulk-insert", "load", "insert", "hive (2^27)", {{"slots", "2^27"}}}},
         takes_extra::open_insert},
        {"Finds against load, open addressing",
         "load factor (keys / slots)",
         "finds/s (G)",
         false,
         false,
         {S{"linear", "bulk", "load", "find-hit", pw.legend},
          S{"hive", "bulk-insert", "load", "find (all hit)", "hive (2^27)", {{"slots", "2^27"}}}},
         takes_extra::open_find},
        {"Slab hash against memory utilization",
         "memory utilization (SlabHash)",
         "operations/s (G)",
         false,
         false,
         {S{"slab", "fig4-utilization", "utilization", "build", "build (insert)", {}, dots},
          S{"slab", "fig4-utilization", "utilization", "search-all", "search (find)", {}, dots}},
         takes_extra::chaining}}},
      sharded_scaling(),
  };
}

// The series of one source, if its table has rows with both numbers.
std::optional<fig::series> series_of(const std::map<std::string, report_file>& reports,
                                     const source& s, int& color) {
  const json* t = find_table(reports, s.suite, s.table);
  if (!t) return std::nullopt;
  fig::series se;
  se.kind = s.kind;
  se.name = s.legend.empty() ? s.y : s.legend;
  se.color = color++;
  // A median with its repetitions' range (columns "<y> min" and "<y> max") gets error bars.
  bool ranged = true;
  for (const json& row : (*t)["rows"]) {
    if (std::any_of(s.rows.begin(), s.rows.end(), [&](const auto& c) {
          return !row.contains(c.first) || row[c.first] != c.second;
        }))
      continue;
    double x = 0, v = 0, lo = 0, hi = 0;
    if (!number_of(row, s.x, x) || !number_of(row, s.y, v)) continue;
    se.x.push_back(x), se.y.push_back(v);
    ranged = ranged && number_of(row, s.y + " min", lo) && number_of(row, s.y + " max", hi);
    if (ranged) se.lo.push_back(lo), se.hi.push_back(hi);
  }
  if (se.x.empty()) return std::nullopt;
  if (!ranged) se.lo.clear(), se.hi.clear();
  return se;
}

// The copy bandwidth in a report's roofline line ("..., copy 4.24 TB/s"), or "".
std::string copy_bandwidth(const json& metadata) {
  const std::string line = metadata.value("roofline", std::string());
  const auto at = line.find("copy ");
  return at == std::string::npos ? std::string() : line.substr(at);
}

// What a reader needs to weigh the numbers, for each table a figure used: the table's own title
// (its sizes and units), then the device and its copy bandwidth, the timing, the date and the
// command. "Bulk operations on 134,217,728 slots (...). NVIDIA H200 (GPU), copy 4.24 TB/s,
// median of 5 runs after 1 warm-up, 2026-11-24 13:35: hashscope bench linear".
std::string provenance(const std::map<std::string, report_file>& reports, const recipe& r,
                       const probing_words& pw) {
  std::vector<std::pair<std::string, std::string>> used;  // suite, table
  for (const auto& p : r.panels)
    for (const auto& s : p.series)
      if (find_table(reports, s.suite, s.table) &&
          std::find(used.begin(), used.end(), std::pair{s.suite, s.table}) == used.end())
        used.emplace_back(s.suite, s.table);
  std::string out;
  std::vector<std::string> suites_said;
  for (const auto& [suite, table] : used) {
    const std::string title = find_table(reports, suite, table)->value("title", std::string());
    if (!title.empty()) out += (out.empty() ? "" : " ") + title + ".";
    if (std::find(suites_said.begin(), suites_said.end(), suite) != suites_said.end()) continue;
    suites_said.push_back(suite);
    const json& m = reports.at(suite).doc["metadata"];
    std::string device = m.value("backend", std::string("?"));
    if (const std::string bw = copy_bandwidth(m); !bw.empty()) device += ", " + bw;
    if (const std::string timing = m.value("timing", std::string()); !timing.empty())
      device += ", " + timing;
    out += (out.empty() ? "" : " ") + device + ", " + m.value("date", std::string("?")) +
           ": hashscope bench " + suite + (suite == "linear" ? pw.switch_ : "") + ".";
  }
  return out;
}

}  // namespace

std::vector<std::string> declared_columns() {
  std::vector<std::string> out;
  for (const recipe& r : recipes({}))
    for (const panel_recipe& p : r.panels)
      for (const source& s : p.series) out.push_back(s.suite + "/" + s.table + "/" + s.y);
  return out;
}

namespace {
bool panel_takes(takes_extra t, const extra_series& e) {
  switch (t) {
    case takes_extra::none: return false;
    case takes_extra::open_insert: return !e.chaining && e.insert;
    case takes_extra::open_find: return !e.chaining && !e.insert;
    case takes_extra::chaining: return e.chaining;
  }
  return false;
}

fig::series drawn_extra(const extra_series& e, takes_extra t, int color) {
  fig::series s;
  s.kind = e.kind;
  s.name = t == takes_extra::chaining ? e.label + (e.insert ? " (insert)" : " (find)") : e.label;
  s.x = e.load, s.y = e.rate, s.lo = e.lo, s.hi = e.hi;
  s.color = color;
  return s;
}
}  // namespace

std::vector<named_figure> figures_from_reports(const std::vector<bench_report>& list,
                                               const std::vector<extra_series>& extra) {
  std::map<std::string, report_file> reports;
  for (const bench_report& r : list) reports[r.suite] = r;
  std::vector<named_figure> out;
  const probing_words pw = probing_of(reports);
  for (const recipe& r : recipes(pw)) {
    fig::figure f;
    std::vector<std::string> columns, extra_said;
    for (const panel_recipe& pr : r.panels) {
      fig::panel p;
      p.title = pr.title;
      p.x = {pr.x_label, 0, 1, pr.x_log};
      p.x.whole = pr.x_whole;
      p.y = {pr.y_label, 0, 1, pr.y_log};
      int color = 0;
      std::vector<std::string> drawn;
      for (const source& s : pr.series)
        if (auto se = series_of(reports, s, color)) {
          p.data.push_back(std::move(*se));
          drawn.push_back(s.suite + "/" + s.table + "/" + s.y);
        }
      for (const extra_series& e : extra)
        if (panel_takes(pr.extra, e)) {
          p.data.push_back(drawn_extra(e, pr.extra, color++));
          if (std::find(extra_said.begin(), extra_said.end(), e.file) == extra_said.end())
            extra_said.push_back(e.file);
        }
      if (p.data.empty()) continue;
      f.panels.push_back(std::move(p));
      columns.insert(columns.end(), drawn.begin(), drawn.end());
    }
    if (f.panels.empty()) continue;  // no report with its numbers
    f.caption = provenance(reports, r, pw);
    if (!r.paper.empty()) f.caption += " " + r.paper;
    for (const std::string& file : extra_said)
      f.caption += " Other series from " + fs::path(file).filename().string() + ".";
    out.push_back({r.file, std::move(f), std::move(columns)});
  }
  return out;
}

std::vector<std::string> plot_results(const std::string& results_dir, const std::string& out_dir,
                                      const fig::page& page,
                                      const std::vector<std::string>& series_files) {
  // Every --series file is read and checked before anything is drawn: a bad one writes nothing.
  std::vector<extra_series> extra;
  for (const std::string& file : series_files)
    for (auto& s : read_series_csv(file)) extra.push_back(std::move(s));
  std::vector<bench_report> reports;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(results_dir, ec)) {
    if (e.path().extension() != ".json" ||
        e.path().filename().string().find("metadata") != std::string::npos)
      continue;
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    if (auto rf = parse_report(text.str(), e.path().string())) reports.push_back(std::move(*rf));
  }
  if (ec) throw user_error("plot: cannot read " + results_dir + ": " + ec.message());
  if (reports.empty())
    throw user_error("plot: " + results_dir +
                     " holds no bench report (run hashscope bench SUITE --out DIR)");
  fs::create_directories(out_dir, ec);
  if (ec) throw user_error("plot: cannot create " + out_dir + ": " + ec.message());
  std::vector<std::string> written;
  for (const named_figure& nf : figures_from_reports(reports, extra)) {
    fig::page pg = page;
    pg.width_in = page.width_in * static_cast<double>(nf.figure.panels.size());
    for (const auto& file :
         fig::write_figure(nf.figure, pg, (fs::path(out_dir) / nf.file).string()))
      written.push_back(file);
  }
  return written;
}

}  // namespace hs::app
