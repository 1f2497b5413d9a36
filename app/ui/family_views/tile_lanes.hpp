// What the lanes of every warp-cooperative operation share (the hive's in hive_lanes.hpp, the slab
// hash's in slab_lanes.hpp): each read a row of the tile's lanes holding their words, the ballot's
// votes, the elected lane and the lane that issued the deciding atomic.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/common/format.hpp"
#include "core/table/step_trace.hpp"
#include "visualizers/views/tile_lanes_view.hpp"

namespace hs::app {

/// @brief What the words' colours mean.
std::vector<std::pair<ImU32, std::string>> tile_legend();

/// @brief "insert 0x0000000c -> inserted, a tile of 4 lanes" (or "insert 12 -> ...").
std::string tile_title(const stepped_op& op, int tile, key_radix radix = key_radix::hex);

}  // namespace hs::app
