// One option of a family's tables, described once: its name in scenario lines and compare entries
// ("probe", "linear:probe=double"), its label and values for the window's widgets, and how it
// reads and writes a table_config. Scenario lines, compare entries and the Compare setup's
// widgets all go through these, so an option cannot mean one thing in a file and another on
// screen.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "core/table/table.hpp"

namespace hs {

struct family_option {
  std::string_view name;   ///< as written: "probe"
  std::string_view label;  ///< as the window shows it: "probing"
  /// @brief The values a widget offers. With `open`, other values are taken too (the hive's hash
  /// policies: any two or three functions); empty: a number from lo to hi.
  std::span<const std::string_view> choices;
  bool open = false;
  double lo = 0, hi = 0;
  bool whole = true;  ///< a number: whole numbers only
  /// @brief The value a config holds, as written (one of `choices` where it is one).
  std::string (*get)(const table_config& cfg) = nullptr;
  /// @brief Writes a value already checked against choices or range; throws hs::user_error for
  /// what only the option can tell (a hash policy's functions).
  void (*set)(table_config& cfg, const std::string& value) = nullptr;
  /// @brief Whether the value goes with the table's size (the slab's bucket count): a table's
  /// states may differ in it, as in their capacity.
  bool follows_capacity = false;
};

/// @brief The option `name` of `options`, or null.
const family_option* find_option(std::span<const family_option> options, std::string_view name);

/// @brief Checks `value` against the option's choices or range, then sets it; throws
/// hs::user_error saying what the option takes.
void apply_option(const family_option& o, table_config& cfg, const std::string& value);

/// @brief "probe, delete, group": the options' names, for messages.
std::string option_names(std::span<const family_option> options);

}  // namespace hs
