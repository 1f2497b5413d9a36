#include "core/bench/table_filter.hpp"

#include <algorithm>

#include "core/common/error.hpp"

namespace hs::bench {

table_filter::table_filter(std::string_view suite, const std::vector<std::string>& only,
                           std::vector<std::string_view> tables)
    : only_(only) {
  for (const std::string& name : only_) {
    if (std::find(tables.begin(), tables.end(), name) != tables.end()) continue;
    std::string known;
    for (std::string_view t : tables) known += (known.empty() ? "" : ", ") + std::string(t);
    throw user_error("bench " + std::string(suite) + " has no table '" + name +
                     "' (its tables: " + known + ")");
  }
}

bool table_filter::wants(std::string_view table) const {
  return only_.empty() || std::find(only_.begin(), only_.end(), table) != only_.end();
}

std::vector<std::string> parse_table_names(std::string_view list) {
  std::vector<std::string> names;
  for (std::size_t start = 0;;) {
    const std::size_t comma = list.find(',', start);
    const std::string_view name =
        list.substr(start, comma == std::string_view::npos ? list.npos : comma - start);
    if (name.empty())
      throw user_error(
          "--only takes table names separated by commas, e.g. --only bulk-insert,mixed");
    names.emplace_back(name);
    if (comma == std::string_view::npos) return names;
    start = comma + 1;
  }
}

}  // namespace hs::bench
