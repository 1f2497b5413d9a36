// Reading --series files: a small CSV dialect (a header, comma-separated fields, double quotes
// around a field that holds a comma), checked line by line before any figure is drawn.
#include "app/plot/plot_series_csv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <tuple>

#include "core/common/error.hpp"

namespace hs::app {

namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

// The fields of one line; nullopt when a quote is left open.
std::optional<std::vector<std::string>> fields_of(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"', ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(trim(cur)), cur.clear();
    } else {
      cur += c;
    }
  }
  if (quoted) return std::nullopt;
  out.push_back(trim(cur));
  return out;
}

std::optional<double> number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

const char* const k_columns_said =
    "columns: label, family (or kind), operation, load, rate; optional min, max, style";

using column_index = std::map<std::string, std::size_t>;  // header name -> index
// label, chaining, insert -> index into the series read
using series_index = std::map<std::tuple<std::string, bool, bool>, std::size_t>;

// The header: the columns every row needs are there, and min comes with max. `at` names the line.
column_index read_header(const std::vector<std::string>& f, const std::string& at) {
  column_index col;
  for (std::size_t i = 0; i < f.size(); ++i) col[f[i]] = i;
  if (col.count("kind") && !col.count("family")) col["family"] = col["kind"];
  for (const char* need : {"label", "family", "operation", "load", "rate"})
    if (!col.count(need))
      throw user_error(at + "no '" + need + "' column (" + k_columns_said + ")");
  if (col.count("min") != col.count("max"))
    throw user_error(at + "a 'min' column needs a 'max' column, and the other way round");
  return col;
}

// Whether the family's load is memory utilization (chaining) rather than keys / slots.
bool chaining_family(const std::string& family, const std::string& at) {
  if (family == "slab" || family == "chaining") return true;
  if (family != "linear" && family != "double" && family != "hive" && family != "cuckoo" &&
      family != "open-addressing")
    throw user_error(at + "family '" + family +
                     "' is none of linear, double, hive, cuckoo, open-addressing (load = keys / "
                     "slots), slab, chaining (load = memory utilization)");
  return false;
}

fig::series::kind_t point_style(const std::string& style, const std::string& at) {
  if (style == "points") return fig::series::points;
  if (!style.empty() && style != "line")
    throw user_error(at + "style '" + style + "' is neither line nor points");
  return fig::series::line;
}

/// One measured point of a --series file, checked.
struct series_point {
  std::string label;
  bool chaining = false;
  std::string op;
  std::string load_text;  ///< the load as the file writes it, for messages
  double load = 0, rate = 0;
  fig::series::kind_t kind = fig::series::line;
  std::optional<double> lo, hi;
};

// The point's range over its repeats: min and max both given or both empty, numbers, around the
// rate.
void read_min_max(const std::string& a, const std::string& b, series_point& p,
                  const std::string& at) {
  if (a.empty() != b.empty()) throw user_error(at + "min and max go together");
  if (a.empty()) return;
  p.lo = number(a), p.hi = number(b);
  if (!p.lo || !p.hi) throw user_error(at + "min or max is not a number");
  if (*p.lo > p.rate || *p.hi < p.rate)
    throw user_error(at + "the rate is not between its min and max");
}

series_point read_point(const std::vector<std::string>& f, const column_index& col,
                        const std::string& at) {
  const auto get = [&](const char* c) { return f[col.at(c)]; };
  series_point p;
  p.label = get("label");
  if (p.label.empty()) throw user_error(at + "the label is empty");
  p.chaining = chaining_family(get("family"), at);
  p.op = get("operation");
  if (p.op != "insert" && p.op != "find")
    throw user_error(at + "operation '" + p.op + "' is neither insert nor find");
  const auto load = number(get("load")), rate = number(get("rate"));
  if (!load) throw user_error(at + "load '" + get("load") + "' is not a number");
  if (!rate) throw user_error(at + "rate '" + get("rate") + "' is not a number");
  if (!(*load > 0 && *load <= 1))
    throw user_error(at + "load " + get("load") + " is outside 0-1 (" +
                     (p.chaining ? "memory utilization" : "keys / slots") + ")");
  if (*rate < 0) throw user_error(at + "rate " + get("rate") + " is negative");
  p.load_text = get("load");
  p.load = *load, p.rate = *rate;
  if (col.count("style")) p.kind = point_style(get("style"), at);
  if (col.count("min")) read_min_max(get("min"), get("max"), p, at);
  return p;
}

// The point joins its series (one label, family kind and operation), which its first point starts.
void add_point(std::vector<extra_series>& out, series_index& index, const series_point& p,
               const std::string& path, const std::string& at) {
  const auto key = std::tuple{p.label, p.chaining, p.op == "insert"};
  auto [it, fresh] = index.try_emplace(key, out.size());
  if (fresh) {
    extra_series s;
    s.label = p.label, s.chaining = p.chaining, s.insert = p.op == "insert", s.kind = p.kind;
    s.file = path;
    out.push_back(std::move(s));
  }
  extra_series& s = out[it->second];
  if (std::find(s.load.begin(), s.load.end(), p.load) != s.load.end())
    throw user_error(at + "a second rate for " + p.label + " " + p.op + " at load " + p.load_text);
  if (!s.load.empty() && s.lo.empty() != !p.lo)
    throw user_error(at + "some of " + p.label + "'s points have min and max, some not");
  s.load.push_back(p.load), s.rate.push_back(p.rate);
  if (p.lo) s.lo.push_back(*p.lo), s.hi.push_back(*p.hi);
}

// By load, so that a line joins neighbours.
void sort_by_load(extra_series& s) {
  std::vector<std::size_t> order(s.load.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return s.load[a] < s.load[b]; });
  const auto permuted = [&](const std::vector<double>& v) {
    std::vector<double> r;
    for (auto i : order) r.push_back(v[i]);
    return r;
  };
  s.load = permuted(s.load), s.rate = permuted(s.rate);
  if (!s.lo.empty()) s.lo = permuted(s.lo), s.hi = permuted(s.hi);
}

}  // namespace

std::vector<extra_series> read_series_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw user_error("--series: cannot read " + path);
  std::string line;
  std::size_t n = 0;
  column_index col;
  std::size_t width = 0;
  series_index index;
  std::vector<extra_series> out;
  while (std::getline(in, line)) {
    ++n;
    const std::string at = path + ":" + std::to_string(n) + ": ";
    if (line.size() > (1u << 16)) throw user_error(at + "a line longer than 64 KiB");
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto f = fields_of(t);
    if (!f) throw user_error(at + "a quote is not closed");
    if (col.empty()) {  // the header
      col = read_header(*f, at);
      width = f->size();
      continue;
    }
    if (f->size() != width)
      throw user_error(at + std::to_string(f->size()) + " fields where the header has " +
                       std::to_string(width));
    add_point(out, index, read_point(*f, col, at), path, at);
  }
  if (col.empty() || out.empty()) throw user_error("--series: " + path + " holds no rows");
  for (extra_series& s : out) sort_by_load(s);
  return out;
}

}  // namespace hs::app
