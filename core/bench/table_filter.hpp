// `bench SUITE --only NAME[,NAME]`: runs only the named tables of a suite (the names its CSV and
// JSON reports use), so one row can be re-measured or profiled without the whole suite.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace hs::bench {

class table_filter {
 public:
  /// @brief `only` empty: every table. Throws hs::user_error naming the suite's tables when a name
  /// in `only` is not one of `tables`.
  table_filter(std::string_view suite, const std::vector<std::string>& only,
               std::vector<std::string_view> tables);
  bool wants(std::string_view table) const;

 private:
  std::vector<std::string> only_;
};

/// @brief Splits "a,b" into names; throws hs::user_error on an empty name.
std::vector<std::string> parse_table_names(std::string_view list);

}  // namespace hs::bench
