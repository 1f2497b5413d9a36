// The scenario language as one table: every keyword with its arguments, its help line and the
// handler that applies it. The parser looks keywords up here, its errors quote the usage from
// here, and the reference (`hashscope help scenarios`, app/README.md) is printed from here.
#pragma once
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <string_view>

namespace hs::app {

struct scenario_parse;
struct keyword_line;

/// @brief What a keyword's line does to the scenario: the reference groups them by this.
enum class keyword_role {
  table,     ///< the table and where it runs: read once, wherever they stand
  workload,  ///< the workload, maintenance and timeline: after a step, they change them from there
  step,      ///< a step of the script, in order
  look,      ///< how the figures look
};

struct scenario_keyword {
  static constexpr std::size_t k_any = std::numeric_limits<std::size_t>::max();
  std::string_view name;
  std::string_view usage;  ///< the whole line's form, e.g. "capacity SLOTS"
  std::string_view help;   ///< one sentence for the reference
  keyword_role role;
  std::size_t min_args, max_args;  ///< words after the keyword (k_any: not counted)
  void (*handle)(scenario_parse& s, const keyword_line& l);
  /// What the reference adds that the registry knows (the families, the views); may be null.
  std::string (*detail)() = nullptr;
};

/// @brief Every keyword of the scenario language, in the reference's order.
std::span<const scenario_keyword> scenario_keywords();
/// @brief The keyword named `name`, or null.
const scenario_keyword* find_scenario_keyword(std::string_view name);
/// @brief "title, table, capacity, ...": for the error that names an unknown keyword.
std::string scenario_keyword_names();
/// @brief The scenario reference in Markdown, the families' own keywords included: what
/// `hashscope help scenarios` prints and app/README.md holds (a test checks they agree).
std::string scenario_reference();

}  // namespace hs::app
