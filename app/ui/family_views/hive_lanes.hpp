// The hive's bucket reads of one operation (core/hive/hive_trace.hpp) as the lanes of the tile that
// served it, by the kernel's rules (hive_ops.cuh and the parts it includes).
#pragma once
#include <vector>

#include "app/ui/family_views/tile_lanes.hpp"
#include "core/common/format.hpp"
#include "core/hive/hive_trace.hpp"

namespace hs::app {

/// @brief The hive's reads of one operation by a tile of `tile` lanes.
std::vector<vis::tile_round> hive_lane_rounds(const stepped_op& op, const hive::op_trace& t,
                                              int tile, key_radix radix = key_radix::hex);

}  // namespace hs::app
