// A warp-cooperative operation's lanes, built from its replay: the hive's bucket reads
// (core/hive/hive_trace.hpp) and the slab hash's slab reads (core/slab/slab_trace.hpp), each as
// the tile's lanes holding their words, the ballot's votes, the elected lane and the lane that
// issued the deciding atomic, by the kernels' rules (hive_ops.cuh, slab_ops.cuh).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/hive/hive_trace.hpp"
#include "core/slab/slab_trace.hpp"
#include "core/table/step_trace.hpp"
#include "visualizers/views/tile_lanes_view.hpp"

namespace hs::app {

/// @brief The hive's reads of one operation by a tile of `tile` lanes.
std::vector<vis::tile_round> hive_lane_rounds(const stepped_op& op, const hive::op_trace& t,
                                              int tile);

/// @brief The slab hash's reads of one operation (`list`: its bucket's list as it found it) by a
/// tile of `tile` lanes, in the table's mode (unique: REPLACE, multi: INSERT).
std::vector<vis::tile_round> slab_lane_rounds(const stepped_op& op, const slab_chain& list,
                                              const slab::op_trace& t, int tile, slab_mode mode);

/// @brief What the words' colours mean.
std::vector<std::pair<ImU32, std::string>> tile_legend();

/// @brief "insert 0x0000000c -> inserted, a tile of 4 lanes".
std::string tile_title(const stepped_op& op, int tile);

}  // namespace hs::app
