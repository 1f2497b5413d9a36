// The slab family's traced operations told as the device code in core/slab/slab_ops.cuh that
// decided them (run_op, and cas_pair for a claim): the bucket, each slab the tile read, the pair
// that decided, the next pointer followed, a new slab allocated and linked.
#pragma once
#include <string>

#include "app/teach/code_walkthrough.hpp"
#include "core/common/format.hpp"
#include "core/slab/slab_trace.hpp"
#include "core/table/step_trace.hpp"

namespace hs::app {

/// @brief The walkthrough of one traced operation, from its replay on its bucket's list.
code_walkthrough slab_walkthrough(const stepped_op& op, const slab::op_trace& path,
                                  key_radix radix = key_radix::hex);

/// @brief A tagged line of the slab family's code in plain English.
std::string slab_english(const std::string& region, const std::string& tag);

}  // namespace hs::app
