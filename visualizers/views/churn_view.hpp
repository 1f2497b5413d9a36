// The churn timeline: a long-lived table through many insert/delete cycles. Live keys, tombstones
// and erased values, mean and longest probe, and throughput per batch, with rebuilds (rehash,
// grow, shrink) marked, so that seed 000's "performance degrades over time" and the recovery after
// a rehash show in one figure.
#pragma once
#include <cstdint>
#include <span>
#include <string>

namespace hs::vis {

/// @brief The table after one batch.
struct churn_point {
  std::uint64_t batch = 0;
  double load = 0;        ///< live keys / slots
  double tombstones = 0;  ///< tombstones / slots
  double erased = 0;      ///< erased values (keys still in their slots) / slots
  double mean_probe = 0;
  double max_probe = 0;
  double ops_per_s = 0;
  std::uint64_t capacity = 0;
};

/// @brief A rebuild between batches.
struct churn_event {
  std::uint64_t batch = 0;
  std::string label;  ///< "rehash", "grow to 2^21", ...
};

class churn_view {
 public:
  /// @brief Three plots stacked in the remaining space; `explain_tombstones` adds the note on how
  /// inserts reuse tombstones without storing a key twice.
  void draw(std::span<const churn_point> points, std::span<const churn_event> events, bool explain_tombstones,
            float height = 0);
};

/// @brief The teaching note on tombstone inserts (also written beside figures).
const char* tombstone_insert_note();

}  // namespace hs::vis
