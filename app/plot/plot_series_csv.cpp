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

}  // namespace

std::vector<extra_series> read_series_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw user_error("--series: cannot read " + path);
  const auto at = [&](std::size_t line) { return path + ":" + std::to_string(line) + ": "; };
  std::string line;
  std::size_t n = 0;
  std::map<std::string, std::size_t> col;  // header name -> index
  std::size_t width = 0;
  // label, chaining, insert -> index into out
  std::map<std::tuple<std::string, bool, bool>, std::size_t> index;
  std::vector<extra_series> out;
  while (std::getline(in, line)) {
    ++n;
    if (line.size() > (1u << 16)) throw user_error(at(n) + "a line longer than 64 KiB");
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto f = fields_of(t);
    if (!f) throw user_error(at(n) + "a quote is not closed");
    if (col.empty()) {  // the header
      for (std::size_t i = 0; i < f->size(); ++i) col[(*f)[i]] = i;
      if (col.count("kind") && !col.count("family")) col["family"] = col["kind"];
      for (const char* need : {"label", "family", "operation", "load", "rate"})
        if (!col.count(need))
          throw user_error(at(n) + "no '" + need + "' column (" + k_columns_said + ")");
      if (col.count("min") != col.count("max"))
        throw user_error(at(n) + "a 'min' column needs a 'max' column, and the other way round");
      width = f->size();
      continue;
    }
    if (f->size() != width)
      throw user_error(at(n) + std::to_string(f->size()) + " fields where the header has " +
                       std::to_string(width));
    const auto get = [&](const char* c) { return (*f)[col.at(c)]; };
    const std::string label = get("label");
    if (label.empty()) throw user_error(at(n) + "the label is empty");
    const std::string family = get("family");
    bool chaining = false;
    if (family == "slab" || family == "chaining")
      chaining = true;
    else if (family != "linear" && family != "double" && family != "hive" && family != "cuckoo" &&
             family != "open-addressing")
      throw user_error(at(n) + "family '" + family +
                       "' is none of linear, double, hive, cuckoo, open-addressing (load = keys / "
                       "slots), slab, chaining (load = memory utilization)");
    const std::string op = get("operation");
    if (op != "insert" && op != "find")
      throw user_error(at(n) + "operation '" + op + "' is neither insert nor find");
    const auto load = number(get("load")), rate = number(get("rate"));
    if (!load) throw user_error(at(n) + "load '" + get("load") + "' is not a number");
    if (!rate) throw user_error(at(n) + "rate '" + get("rate") + "' is not a number");
    if (!(*load > 0 && *load <= 1))
      throw user_error(at(n) + "load " + get("load") + " is outside 0-1 (" +
                       (chaining ? "memory utilization" : "keys / slots") + ")");
    if (*rate < 0) throw user_error(at(n) + "rate " + get("rate") + " is negative");
    fig::series::kind_t kind = fig::series::line;
    if (col.count("style")) {
      const std::string style = get("style");
      if (style == "points")
        kind = fig::series::points;
      else if (!style.empty() && style != "line")
        throw user_error(at(n) + "style '" + style + "' is neither line nor points");
    }
    std::optional<double> lo, hi;
    if (col.count("min")) {
      const std::string a = get("min"), b = get("max");
      if (a.empty() != b.empty()) throw user_error(at(n) + "min and max go together");
      if (!a.empty()) {
        lo = number(a), hi = number(b);
        if (!lo || !hi) throw user_error(at(n) + "min or max is not a number");
        if (*lo > *rate || *hi < *rate)
          throw user_error(at(n) + "the rate is not between its min and max");
      }
    }
    const auto key = std::tuple{label, chaining, op == "insert"};
    auto [it, fresh] = index.try_emplace(key, out.size());
    if (fresh) {
      extra_series s;
      s.label = label, s.chaining = chaining, s.insert = op == "insert", s.kind = kind;
      s.file = path;
      out.push_back(std::move(s));
    }
    extra_series& s = out[it->second];
    if (std::find(s.load.begin(), s.load.end(), *load) != s.load.end())
      throw user_error(at(n) + "a second rate for " + label + " " + op + " at load " + get("load"));
    if (!s.load.empty() && s.lo.empty() != !lo)
      throw user_error(at(n) + "some of " + label + "'s points have min and max, some not");
    s.load.push_back(*load), s.rate.push_back(*rate);
    if (lo) s.lo.push_back(*lo), s.hi.push_back(*hi);
  }
  if (col.empty() || out.empty()) throw user_error("--series: " + path + " holds no rows");
  for (extra_series& s : out) {  // by load, so that a line joins neighbours
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
  return out;
}

}  // namespace hs::app
