// What a hive table offers beyond the Table seam (the Hive paper): linear-hashing resizes one
// K-bucket step at a time, switchable instrumentation, the recent eviction paths, and a full copy
// for checkers. Both backends implement it.
#pragma once
#include <cstdint>
#include <vector>

#include "core/hive/hive_image.hpp"
#include "core/hive/hive_launch.hpp"
#include "core/table/table_of.hpp"

namespace hs::hive {

class hive_family : public table_of<key_type, value_type> {
 public:
  /// @brief Splits up to `buckets` buckets (in K-bucket steps), advancing rounds as they fill;
  /// the stash is drained into the grown table. Returns the buckets split.
  virtual std::uint64_t expand(std::uint64_t buckets, stream_view s) = 0;
  /// @brief Merges `buckets` partner buckets back (in K-bucket steps). A partner's entries that do
  /// not fit its bucket are taken out and inserted again (another candidate, an eviction path or
  /// the stash), so a contraction reaches its target unless the keys would fill more than
  /// k_contract_fill of the smaller table: it then merges as many as that allows and counts the
  /// rest in hive_counters::merges_refused. Returns the buckets merged.
  virtual std::uint64_t contract(std::uint64_t buckets, stream_view s) = 0;
  /// @brief Turns instrumentation on or off (counters and paths keep what they have).
  virtual void set_instrumentation(bool on) = 0;
  /// @brief The eviction paths recorded most recently (oldest first; instrumentation on).
  virtual std::vector<path_record> recent_paths(stream_view s) = 0;
  /// @brief A copy of buckets, masks, hints and stash (synchronizes; for checkers and tests).
  virtual hive_image snapshot(stream_view s) = 0;
  /// @brief Copies the counters of inserts by step (1-4) and of moves into out[0..4] (pinned or
  /// host memory), ordered on the stream after the work queued on it: a per-batch snapshot that
  /// synchronizes nothing (stats() counts every bucket and waits).
  virtual void copy_step_counters(std::uint64_t* out, stream_view s) = 0;
};

/// @brief The hive family's interface of a table, or null for another family.
hive_family* as_hive(table& t);
/// @brief Both backends' rehash: expands or contracts `t` (buckets of `slots` slots) to `capacity`
/// slots. Throws hs::user_error for a capacity that is not a whole number of buckets, or one its
/// entries do not fit.
void rehash_by_resizing(hive_family& t, int slots, std::uint64_t capacity, stream_view s);

/// @brief Slots per bucket and threads per operation the config asks for (defaults applied);
/// throws hs::user_error for impossible values.
struct hive_shape {
  int slots = 0, tile = 0;
  hash_policy hashes;
  std::uint64_t buckets = 0;
  std::uint32_t stash_capacity = 0;
  std::uint64_t resize_batch(std::uint64_t round) const;
  std::uint64_t batch = 0;  ///< hive_options::resize_batch as given
};
hive_shape resolve_shape(const table_config& cfg);
/// @brief Stash slots for a table of `slots` slots: the configured fraction, at least 64.
std::uint64_t stash_capacity_for(const hive_options& o, std::uint64_t slots);

/// @brief The fullest a contraction leaves a table: live keys over the smaller table's slots.
inline constexpr double k_contract_fill = 0.9;
/// @brief How many of `want` merges a table of `buckets` buckets of `slots` slots holding `live`
/// keys can make without passing k_contract_fill (at least one bucket stays). The model and the
/// GPU table decide by this alone, so they merge exactly as many.
std::uint64_t mergeable_buckets(std::uint64_t live, std::uint64_t buckets, int slots,
                                std::uint64_t want);

/// @brief Defaults, measured on the H200 (bench hive): see hive_family.cpp.
inline constexpr int k_default_slots = 16;
inline constexpr int k_default_tile = 4;

}  // namespace hs::hive
