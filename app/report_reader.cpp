// Checking a bench report's shape where it is read.
#include "app/report_reader.hpp"

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
}  // namespace

std::optional<bench_report> parse_report(const std::string& text, const std::string& path) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) throw user_error("plot: " + path + " is not valid JSON");
  if (!doc.is_object() || !doc.contains("suite")) return std::nullopt;  // not a bench report
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

}  // namespace hs::app
