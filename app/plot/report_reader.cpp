// Checking a bench report's shape where it is read.
#include "app/plot/report_reader.hpp"

#include "core/common/error.hpp"

namespace hs::app {

namespace {
using json = nlohmann::json;

[[noreturn]] void refuse(const std::string& path, const std::string& what) {
  throw user_error("plot: " + path + " is no bench report HashScope can read: " + what);
}

void check_table(const json& t, std::size_t i, const std::string& path) {
  const std::string at = "tables[" + std::to_string(i) + "]";
  if (!t.is_object()) refuse(path, at + " is not an object");
  if (!t.contains("name") || !t["name"].is_string()) refuse(path, at + " has no name");
  if (t.contains("title") && !t["title"].is_string()) refuse(path, at + ".title is not text");
  if (!t.contains("columns") || !t["columns"].is_array()) refuse(path, at + " has no columns");
  for (const json& c : t["columns"])
    if (!c.is_string()) refuse(path, at + ".columns holds something other than names");
  if (!t.contains("rows") || !t["rows"].is_array()) refuse(path, at + " has no rows");
  for (const json& r : t["rows"]) {
    if (!r.is_object()) refuse(path, at + ".rows holds something other than objects");
    for (const auto& [k, v] : r.items())
      if (!v.is_number() && !v.is_string())
        refuse(path, at + " row cell '" + k + "' is neither a number nor text");
  }
}

// Which HashScope wrote a report, for the message when it cannot be read: reports name their
// version in metadata "hashscope"; those without it come from before that.
std::string written_by(const json& doc) {
  const json* m = doc.contains("metadata") ? &doc["metadata"] : nullptr;
  if (m && m->is_object() && m->contains("hashscope") && (*m)["hashscope"].is_string()) {
    const std::string v = (*m)["hashscope"].get<std::string>();
    return v == HS_VERSION ? "" : " (written by HashScope " + v + "; this is " HS_VERSION ")";
  }
  return " (written by a HashScope that did not record its version; this is " HS_VERSION ")";
}

// The report's shape checked whole: metadata of text, tables of names, columns and rows.
bench_report checked_report(json doc, const std::string& path) {
  if (!doc["suite"].is_string()) refuse(path, "its suite is not a name");
  if (doc.contains("metadata")) {
    if (!doc["metadata"].is_object()) refuse(path, "its metadata is not an object");
    for (const auto& [k, v] : doc["metadata"].items())
      if (!v.is_string()) refuse(path, "metadata '" + k + "' is not text");
  } else {
    doc["metadata"] = json::object();
  }
  if (!doc.contains("tables") || !doc["tables"].is_array()) refuse(path, "it has no tables");
  for (std::size_t i = 0; i < doc["tables"].size(); ++i) check_table(doc["tables"][i], i, path);
  std::string suite = doc["suite"].get<std::string>();
  return bench_report{path, std::move(suite), std::move(doc)};
}
}  // namespace

std::optional<bench_report> parse_report(const std::string& text, const std::string& path) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) throw user_error("plot: " + path + " is not valid JSON");
  if (!doc.is_object() || !doc.contains("suite")) return std::nullopt;  // not a bench report
  const std::string origin = written_by(doc);
  try {
    return checked_report(std::move(doc), path);
  } catch (const user_error& e) {
    throw user_error(std::string(e.what()) + origin);
  }
}

}  // namespace hs::app
