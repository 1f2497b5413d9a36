// The hive family's state (table_state.hpp), the same on both backends: part "words" (each bucket's
// slots, buckets in use), part "meta" (a word per bucket: free mask low, lock word and stash hint
// high, as the GPU table stores them) and part "stash" (every stash slot); numbers "round" and
// "split" (the linear-hashing geometry), "stash_used", "stash_live", the resizes since creation,
// the instrumented tallies and the common counters. The ring of recent eviction paths is a view's
// feed, not the table: a restored table starts it empty.
#pragma once
#include <cstdint>
#include <string_view>

#include "core/hive/hive_family.hpp"
#include "core/hive/hive_layout.hpp"
#include "core/table/table_state.hpp"

namespace hs::hive {

inline constexpr std::string_view k_words_part = "words";
inline constexpr std::string_view k_meta_part = "meta";
inline constexpr std::string_view k_stash_part = "stash";

/// @brief The counters a state carries beyond the common ones.
struct state_counters {
  std::uint64_t steps[4] = {}, moves = 0, locks = 0, restarts = 0;
  std::uint64_t path_lengths[k_max_eviction_depth + 1] = {};
  std::uint64_t splits = 0, merges = 0, merges_refused = 0;
  std::uint64_t stash_used = 0, stash_live = 0;
};
void set_state_counters(table_state& st, const state_counters& c);
state_counters read_state_counters(const table_state& st);

/// @brief A state's geometry, checked against the table's shape (a power-of-two round of at least
/// the table's first bucket count, a split pointer inside it) with its parts' sizes.
geometry read_state_geometry(const table_state& st, const hive_shape& shape);
/// @brief The slots of a state's stash. The stash keeps its share of the slots as a table grows and
/// keeps that size when it shrinks, so a state's stash may be larger than its capacity's share
/// (or than the restoring table's): the restored table takes the state's.
std::uint64_t read_state_stash(const table_state& st);

}  // namespace hs::hive
