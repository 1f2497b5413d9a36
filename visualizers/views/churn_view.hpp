// The churn timeline: a long-lived table through many insert/delete cycles. Live keys, tombstones
// and erased values, mean and longest probe, and throughput per batch, with rebuilds (rehash,
// grow, shrink) marked, so that the Simple GPU Hash Table article's "performance degrades over
// time" and the recovery after a rehash show in one figure.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hs::vis {

/// @brief What the timeline draws, as columns: per recorded batch its number, the shares of the
/// slots, the probe lengths and the rate; and the rebuilds between batches.
struct churn_input {
  std::vector<double> batch, load, tombstones, erased, mean_probe, max_probe, ops_per_s;
  struct event {
    double batch = 0;   ///< batches retired before it
    std::string label;  ///< "rehash", "grow to 2^21", ...
  };
  std::vector<event> events;
};

class churn_view {
 public:
  /// @brief Three plots stacked in the remaining space; `explain_tombstones` adds the note on how
  /// inserts reuse tombstones without storing a key twice.
  void draw(const churn_input& in, bool explain_tombstones, float height = 0);
};

/// @brief The teaching note on tombstone inserts (also written beside figures).
const char* tombstone_insert_note();

}  // namespace hs::vis
