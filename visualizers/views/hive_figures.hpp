// The hive family's views as paper figures (render --style paper): bucket fill, the insert steps
// against load (the Hive paper's Fig. 9), eviction paths as arcs over a bucket range with their
// lengths, the stash ring, and the linear-hashing round with its split pointer. Each draws what the
// window shows, without widgets, through the figure layer.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/hive/hive_path.hpp"
#include "core/table/inspection.hpp"
#include "core/table/table.hpp"
#include "visualizers/colormap.hpp"
#include "visualizers/figure/figure.hpp"
#include "visualizers/views/hive_view.hpp"

namespace hs::vis {

/// @brief How many buckets hold 0, 1, ... S live slots.
fig::figure hive_buckets_figure(const probe_histogram& fill, const table_stats& st);
/// @brief The share of inserts each step completed, in load bins of `bin`.
fig::figure hive_steps_figure(std::span<const hive_step_point> points, double bin);
/// @brief The newest `k_figure_paths` paths as arcs between buckets [first, first + count)
/// (count 0: every bucket in use), an arc's height its hop's distance in buckets; beside it the
/// path lengths of every eviction since the counters were cleared.
/// `stepped`, when given (a traced step's insert that evicted), is drawn on top in black.
fig::figure hive_evictions_figure(const std::vector<hive::path_record>& paths,
                                  const table_stats& st, std::uint64_t first, std::uint64_t count,
                                  const hive::path_record* stepped = nullptr);
inline constexpr std::size_t k_figure_paths = 200;
/// @brief Where the stash's live words sit in its ring, with its counts.
fig::figure hive_stash_figure(const std::vector<stash_entry>& stash, const table_stats& st);
/// @brief The round's buckets (top) over their partners (bottom, dark where not split yet),
/// coloured by fill from the bucket strip, the split pointer as a red column.
fig::figure hive_resize_figure(const std::vector<strip_pixel>& strip, const table_stats& st,
                               const colormap& cmap);

}  // namespace hs::vis
