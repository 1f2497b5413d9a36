// Writing a session as a scenario: the table it started from, its settings, and a stage per
// command it ran (the command, then a capture), so that a lesson done once in the window plays
// back as a preset to the same table. parse_scenario reads what this writes.
#pragma once
#include <string>
#include <vector>

#include "app/compare/compare_set.hpp"
#include "app/scenario/scenario.hpp"
#include "app/session/session.hpp"
#include "core/common/device.hpp"

namespace hs::app {

struct session_to_save {
  session::journal_record journal;
  workload::workload_spec workload;  ///< the settings now, for a journal with no command yet
  maintenance_policy maintenance;
  bool record_timeline = false;
  backend_choice backend = backend_choice::automatic;
  std::vector<compare_entry> compare;  ///< compare mode's tables (empty: one table)
  std::string title;
};

/// @brief The scenario text, from k_saved_scenario_first_line to k_saved_scenario_last_line (a
/// file cut short is refused by name when read); throws hs::user_error for what a scenario cannot
/// say (a step of more operations than a traced step takes is written as the batch it was, so
/// nothing is refused yet).
std::string scenario_text(const session_to_save& s);

/// @brief Any scenario as lines parse_scenario reads back to a scenario that prints the same (the
/// capture steps, compare entries, every family's options a compare scenario's entries take).
std::string print_scenario(const scenario& sc);

/// @brief The workload, maintenance and timeline as scenario lines ("distribution uniform", ...).
std::string settings_lines(const script_step::settings& s);

}  // namespace hs::app
