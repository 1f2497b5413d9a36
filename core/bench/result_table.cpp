// Text, CSV and JSON renderings of benchmark tables.
#include "core/bench/result_table.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>

#include <nlohmann/json.hpp>

#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::bench {

cell::cell(double v, const char* fmt) : text(strprintf(fmt, v)), number(v) {}

void result_table::print(std::ostream& os) const {
  std::vector<std::size_t> width(columns.size(), 0);
  for (std::size_t c = 0; c < columns.size(); ++c) width[c] = columns[c].size();
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], r[c].text.size());
  os << "\n" << title << "\n";
  auto line = [&](auto get) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::string s = get(c);
      os << (c ? "  " : "") << std::string(width[c] - std::min(width[c], s.size()), ' ') << s;
    }
    os << "\n";
  };
  line([&](std::size_t c) { return columns[c]; });
  line([&](std::size_t c) { return std::string(width[c], '-'); });
  for (const auto& r : rows)
    line([&](std::size_t c) { return c < r.size() ? r[c].text : std::string(); });
}

std::string result_table::csv() const {
  auto quote = [](const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  std::string out;
  for (std::size_t c = 0; c < columns.size(); ++c) out += (c ? "," : "") + quote(columns[c]);
  out += "\n";
  for (const auto& r : rows) {
    for (std::size_t c = 0; c < r.size(); ++c)
      out += (c ? "," : "") + (r[c].number ? strprintf("%.9g", *r[c].number) : quote(r[c].text));
    out += "\n";
  }
  return out;
}

void report::print(std::ostream& os) const {
  os << "== hashscope bench " << suite << " ==\n";
  for (const auto& [k, v] : metadata) os << k << ": " << v << "\n";
  for (const auto& t : tables) t.print(os);
  if (!notes.empty()) os << "\n";
  for (const auto& n : notes) os << n << "\n";
}

std::vector<std::string> report::write(const std::string& dir) const {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw user_error("cannot create output directory " + dir + ": " + ec.message());
  std::vector<std::string> files;
  auto save = [&](const std::string& name, const std::string& text) {
    const std::string path = (fs::path(dir) / name).string();
    write_file_atomically(path, text);  // whole or not at all
    files.push_back(path);
  };
  for (const auto& t : tables) save(suite + "-" + t.name + ".csv", t.csv());
  // Written through nlohmann's library, which `plot` reads them back with; keys in this order.
  using json = nlohmann::ordered_json;
  json doc{
      {"suite", suite}, {"metadata", json::object()}, {"tables", json::array()}, {"notes", notes}};
  for (const auto& [k, v] : metadata) doc["metadata"][k] = v;
  for (const auto& t : tables) {
    json rows = json::array();
    for (const auto& r : t.rows) {
      json row = json::object();
      for (std::size_t c = 0; c < r.size() && c < t.columns.size(); ++c)
        row[t.columns[c]] = r[c].number ? json(*r[c].number) : json(r[c].text);
      rows.push_back(std::move(row));
    }
    doc["tables"].push_back(
        {{"name", t.name}, {"title", t.title}, {"columns", t.columns}, {"rows", std::move(rows)}});
  }
  save(suite + ".json", doc.dump() + "\n");
  return files;
}

}  // namespace hs::bench
