// The slab hash's slab reads of one operation (core/slab/slab_trace.hpp) as the lanes of the tile
// that served it, by the kernel's rules (slab_ops.cuh).
#pragma once
#include <vector>

#include "app/ui/family_views/tile_lanes.hpp"
#include "core/common/format.hpp"
#include "core/slab/slab_trace.hpp"

namespace hs::app {

/// @brief The slab hash's reads of one operation (`list`: its bucket's list as it found it) by a
/// tile of `tile` lanes, in the table's mode (unique: REPLACE, multi: INSERT).
std::vector<vis::tile_round> slab_lane_rounds(const stepped_op& op, const slab_chain& list,
                                              const slab::op_trace& t, int tile, slab_mode mode,
                                              key_radix radix = key_radix::hex);

}  // namespace hs::app
