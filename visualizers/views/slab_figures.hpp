// The slab family's views as paper figures (render --style paper): the shown bucket's list, slab
// by slab, beside the histogram of list lengths; SlabAlloc's memory blocks.
#pragma once
#include <vector>

#include "core/common/probe_histogram.hpp"
#include "core/table/inspection.hpp"
#include "visualizers/figure/figure.hpp"

namespace hs::vis {

/// @brief Left: `chain` as a grid, a row per slab (the base slab on top), a cell per pair (live,
/// tombstone or empty); right: how many buckets hold lists of 1, 2, 3 ... slabs.
/// `outlined`: keys whose pairs are outlined (a traced step's operations on this list).
fig::figure slab_lists_figure(const slab_chain& chain, const probe_histogram& lengths,
                              const std::vector<key_type>& outlined = {});
/// @brief Allocated slabs per memory block, in super-block order.
fig::figure slab_allocator_figure(const allocator_image& a);

}  // namespace hs::vis
