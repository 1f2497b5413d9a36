// The hive's traced operations told as the device code in core/hive/hive_ops.cuh (and the parts it
// includes: hive_op_parts, hive_find_erase, hive_insert_steps) that decided
// them: the candidate buckets, the batch kernel's first-candidate and common insert passes, the
// WCME match of a find or erase (one ballot over the tile's lanes), step 1's replace, step 2's
// WABC claim (one atomicAnd on the free mask), an eviction path found and run, the stash.
#pragma once
#include <string>

#include "app/teach/code_walkthrough.hpp"
#include "core/common/format.hpp"
#include "core/hive/hive_trace.hpp"
#include "core/table/step_trace.hpp"

namespace hs::app {

/// @brief The walkthrough of one traced operation, from its replay on its candidate buckets.
code_walkthrough hive_walkthrough(const stepped_op& op, const hive::op_trace& trace,
                                  key_radix radix = key_radix::hex);

/// @brief A tagged line of the hive's code in plain English.
std::string hive_english(const std::string& region, const std::string& tag);

}  // namespace hs::app
