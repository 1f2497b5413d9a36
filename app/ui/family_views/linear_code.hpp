// The linear family's traced operations told as the device code in core/linear/linear_ref.cuh
// that decided them: which functions ran (the table's probing and delete mode choose them) and,
// for each slot the replayed walk passed, the line that decided there.
#pragma once
#include <string>

#include "app/teach/code_walkthrough.hpp"
#include "core/common/format.hpp"
#include "core/linear/linear_trace.hpp"
#include "core/table/step_trace.hpp"
#include "core/table/table.hpp"

namespace hs::app {

/// @brief The walkthrough of one traced operation, from its replayed walk.
code_walkthrough linear_walkthrough(const stepped_op& op, const linear::probe_walk& walk,
                                    const table_config& cfg, std::uint64_t capacity,
                                    key_radix radix = key_radix::hex);

/// @brief A tagged line of the linear family's code in plain English.
std::string linear_english(const std::string& region, const std::string& tag);

}  // namespace hs::app
