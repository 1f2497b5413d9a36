// What the scenario parser knows part way through a file: the scenario so far, the workload lines
// not yet taken by a step, and the lines checked once the whole file is read. Shared by the
// parser's loop (scenario.cpp) and the keywords' handlers (scenario_keywords.cpp), nothing else.
#pragma once
#include <string>
#include <vector>

#include "app/scenario/scenario.hpp"

namespace hs::app {

/// @brief Where a line stands, and the errors it raises ("file:line: message").
struct line_parser {
  const std::string& file;
  int line;
  [[noreturn]] void fail(const std::string& msg) const;
  /// A load factor in [0, max].
  double load(const std::string& w, double max = 1.0) const;
  /// A count or size: 1048576, 1M, 2^20.
  std::uint64_t size(const std::string& w, const char* what) const;
  double number(const std::string& w, const char* what) const;
  /// Between lo and hi arguments after the keyword, else the usage.
  void arity(const std::vector<std::string>& w, std::size_t lo, std::size_t hi,
             std::string_view usage) const;
};

/// @brief One line as a handler sees it.
struct keyword_line {
  const std::string& raw;             ///< as written (a caption may hold '#')
  const std::string& text;            ///< without its comment
  const std::vector<std::string>& w;  ///< the words of `text`; w[0] is the keyword
  const line_parser& p;
};

/// @brief A family's line ("probe double"): checked against the table's family at the end, and
/// replayed after the family's view settings, so what the file says wins.
struct family_line {
  std::vector<std::string> words;
  family owner;
  int line;
};

struct scenario_parse {
  scenario sc;
  /// The workload, maintenance and timeline lines write here. The first step takes them as the
  /// scenario's settings; lines after a step change them from there on (a configure step).
  script_step::settings now;
  bool stepped = false;
  bool settings_changed = false;
  int settings_line = 0;        ///< the last workload line (a configure step's errors point there)
  int first_settings_line = 0;  ///< the last workload line before the first step
  std::vector<family_line> family_lines;
  std::vector<std::string> compare_words;  ///< resolved at the end, on the scenario's table
  int table_line = 0;                      ///< where the family was named
  int capacity_line = 0;
  int compare_line = 0;
  std::optional<question_kind> pending_ask;  ///< an `ask` the next step takes
  int pending_ask_line = 0;
  bool keys_given = false;     ///< a step line named its keys (its radix decides the scenario's)
  std::uint64_t commands = 0;  ///< commands so far that a `back` can undo

  /// A step begins: the settings so far become the scenario's, or a configure step before it.
  void settle();
  /// A step of the script at line n.
  void push(scenario_step s, int n);
};

/// The keywords that name files (scenario_file_keywords.cpp): `keys file PATH [column N] [format
/// F]`, and `load table PATH` / `save table PATH`.
void keys_file(scenario_parse& s, const keyword_line& l);
void table_file(scenario_parse& s, const keyword_line& l);

}  // namespace hs::app
