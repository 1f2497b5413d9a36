// Figures from benchmark reports: recipes that name a suite's table, its x column and the series.
#include "app/plot_command.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/report_reader.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::app {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

using report_file = bench_report;

// A series: column `y` against column `x` of a table, optionally only the rows whose `where`
// column equals `is` (hive sizes, probe tables).
struct source {
  std::string suite, table, x, y, legend, where;
  json is;
  fig::series::kind_t kind = fig::series::line;
};

struct panel_recipe {
  std::string title, x_label, y_label;
  bool x_log = false, y_log = false;
  std::vector<source> series;
};

struct recipe {
  std::string file;
  std::vector<panel_recipe> panels;
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

std::vector<recipe> recipes(const probing_words& pw) {
  using S = source;
  const auto pts = fig::series::line;
  return {
      {"seed000-load-sweep",
       {{"Insert rate against load (seed 000, Experiment 2)",
         "load factor",
         "inserts/s (G)",
         false,
         false,
         {S{"seed-linear", "experiment2", "load", "HashScope G/s", "HashScope", "", {}, pts},
          S{"seed-linear",
            "experiment2",
            "load",
            "seed G/s",
            "seed 000's algorithm",
            "",
            {},
            pts}}},
        {"Probe length against load",
         "load factor",
         "mean probe length (slots)",
         false,
         true,
         {S{"seed-linear", "probe_lengths", "load", "mean", "mean", "", {}, pts}}}}},
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
      {"seed004-fig4",
       {{"Build and search against memory utilization (seed 004, Fig. 4)",
         "memory utilization",
         "operations/s (G)",
         false,
         false,
         {S{"slab", "fig4-utilization", "utilization", "build", "build"},
          S{"slab", "fig4-utilization", "utilization", "search-all", "search (all present)"},
          S{"slab", "fig4-utilization", "utilization", "search-none", "search (none present)"}}}}},
      {"seed004-fig5",
       {{"Build and search against the number of keys (seed 004, Fig. 5)",
         "keys",
         "operations/s (G)",
         true,
         false,
         {S{"slab", "fig5-size", "n", "build", "build"},
          S{"slab", "fig5-size", "n", "search-all", "search (all present)"},
          S{"slab", "fig5-size", "n", "search-none", "search (none present)"}}}}},
      {"seed004-fig7",
       {{"Concurrent mixed batches (seed 004, Fig. 7a)",
         "initial memory utilization",
         "operations/s (G)",
         false,
         false,
         {S{"slab", "fig7a-concurrent", "initial utilization", "*", ""}}}}},
      {"seed003-fig9",
       {{"Inserts completed by each step (seed 003, Fig. 9)",
         "load factor",
         "share of the inserts",
         false,
         false,
         {S{"hive", "steps", "load", "1 replace", "1: replace"},
          S{"hive", "steps", "load", "2 claim", "2: claim"},
          S{"hive", "steps", "load", "3 evict", "3: evict"},
          S{"hive", "steps", "load", "4 stash", "4: stash"}}}}},
      {"seed003-throughput",
       {{"Bulk insert against load (seed 003)",
         "load factor",
         "inserts/s (G)",
         false,
         false,
         {S{"hive", "bulk-insert", "load", "insert", "2^25 slots", "slots", "2^25"},
          S{"hive", "bulk-insert", "load", "insert", "2^27 slots", "slots", "2^27"}}},
        {"Lookups after the fill",
         "load factor",
         "lookups/s (G)",
         false,
         false,
         {S{"hive", "bulk-insert", "load", "find (all hit)", "2^25 slots", "slots", "2^25"},
          S{"hive", "bulk-insert", "load", "find (all hit)", "2^27 slots", "slots", "2^27"}}}}},
      {"families-against-load",
       {{"Inserts against load, every family",
         "load factor (slab: keys / 15 per bucket)",
         "inserts/s (G)",
         false,
         false,
         {S{"linear", "bulk", "load", "insert", pw.legend},
          S{"hive", "bulk-insert", "load", "insert", "hive (2^27)", "slots", "2^27"},
          S{"slab", "fig4-utilization", "beta", "build", "slab hash"}}},
        {"Finds against load, every family",
         "load factor",
         "finds/s (G)",
         false,
         false,
         {S{"linear", "bulk", "load", "find-hit", pw.legend},
          S{"hive", "bulk-insert", "load", "find (all hit)", "hive (2^27)", "slots", "2^27"},
          S{"slab", "fig4-utilization", "beta", "search-all", "slab hash"}}}}},
  };
}

// The series of one source (a '*' y takes every numeric column but x, one series each).
std::vector<fig::series> series_of(const std::map<std::string, report_file>& reports,
                                   const source& s, int& color) {
  std::vector<fig::series> out;
  const json* t = find_table(reports, s.suite, s.table);
  if (!t) return out;
  std::vector<std::string> ys;
  if (s.y == "*") {
    for (const json& c : (*t)["columns"])
      if (c.get<std::string>() != s.x && !(*t)["rows"].empty() &&
          (*t)["rows"][0].contains(c.get<std::string>()) &&
          (*t)["rows"][0][c.get<std::string>()].is_number() && c.get<std::string>() != "buckets")
        ys.push_back(c.get<std::string>());
  } else {
    ys.push_back(s.y);
  }
  for (const std::string& y : ys) {
    fig::series se;
    se.kind = s.kind;
    se.name = s.legend.empty() ? y : s.legend;
    se.color = color++;
    for (const json& row : (*t)["rows"]) {
      if (!s.where.empty() && (!row.contains(s.where) || row[s.where] != s.is)) continue;
      double x = 0, v = 0;
      if (number_of(row, s.x, x) && number_of(row, y, v)) se.x.push_back(x), se.y.push_back(v);
    }
    if (!se.x.empty()) out.push_back(std::move(se));
  }
  return out;
}

// "NVIDIA H200, 2026-11-23 13:42; hashscope bench hive" for the suites a figure used.
std::string provenance(const std::map<std::string, report_file>& reports, const recipe& r,
                       const probing_words& pw) {
  std::vector<std::string> suites;
  for (const auto& p : r.panels)
    for (const auto& s : p.series)
      if (find_table(reports, s.suite, s.table) &&
          std::find(suites.begin(), suites.end(), s.suite) == suites.end())
        suites.push_back(s.suite);
  std::string out;
  for (const std::string& s : suites) {
    const json& m = reports.at(s).doc["metadata"];
    out += (out.empty() ? "" : "; ") + m.value("backend", std::string("?")) + ", " +
           m.value("date", std::string("?")) + ": hashscope bench " + s +
           (s == "linear" ? pw.switch_ : "");
  }
  return out;
}

}  // namespace

std::vector<named_figure> figures_from_reports(const std::vector<bench_report>& list) {
  std::map<std::string, report_file> reports;
  for (const bench_report& r : list) reports[r.suite] = r;
  std::vector<named_figure> out;
  const probing_words pw = probing_of(reports);
  for (const recipe& r : recipes(pw)) {
    fig::figure f;
    for (const panel_recipe& pr : r.panels) {
      fig::panel p;
      p.title = pr.title;
      p.x = {pr.x_label, 0, 1, pr.x_log};
      p.y = {pr.y_label, 0, 1, pr.y_log};
      int color = 0;
      for (const source& s : pr.series)
        for (auto& se : series_of(reports, s, color)) p.data.push_back(std::move(se));
      if (!p.data.empty()) f.panels.push_back(std::move(p));
    }
    if (f.panels.empty()) continue;  // no report with its numbers
    f.caption = provenance(reports, r, pw);
    out.push_back({r.file, std::move(f)});
  }
  return out;
}

std::vector<std::string> plot_results(const std::string& results_dir, const std::string& out_dir,
                                      const fig::page& page) {
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
  for (const named_figure& nf : figures_from_reports(reports)) {
    fig::page pg = page;
    pg.width_in = page.width_in * static_cast<double>(nf.figure.panels.size());
    for (const auto& file :
         fig::write_figure(nf.figure, pg, (fs::path(out_dir) / nf.file).string()))
      written.push_back(file);
  }
  return written;
}

int run_plot(const cli_options& o) {
  fig::page page;
  page.dpi = o.dpi;
  if (!o.page_size.empty()) {
    const auto in = fig::parse_page_size(o.page_size, o.dpi);
    if (!in) throw user_error("--size: '" + o.page_size + "' is not a page such as 3.5x2.4in");
    page.width_in = in->first, page.height_in = in->second;
  }
  const std::string out =
      o.out_dir.empty() ? (fs::path(o.scenario) / "figures").string() : o.out_dir;
  const auto files = plot_results(o.scenario, out, page);
  if (files.empty()) {
    std::cout << "plot: the reports in " << o.scenario << " hold none of the figures' numbers\n";
    return 0;
  }
  std::cout << "plot: " << files.size() / 3 << " figures (PNG, SVG, PDF) in " << out << ":\n";
  for (std::size_t i = 0; i < files.size(); i += 3) std::cout << "  " << files[i] << "\n";
  return 0;
}

}  // namespace hs::app
