// Live throughput: operations per second of each batch over time, and against the load factor
// (the Simple GPU Hash Table article's load sweep, drawn as it happens).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hs::vis {

/// @brief The batches of one kind, as columns: each batch's time (seconds from the first batch),
/// the load before it, and its rate.
struct rate_series {
  std::string name;  ///< "insert batches"
  int color = 0;     ///< series_color index, the same for a kind in every plot
  std::vector<double> time_s, load, ops_per_s;
};

/// @brief What the throughput plots draw: a series per kind of batch, and the last batch.
struct throughput_input {
  std::vector<rate_series> series;
  std::uint64_t last_ops = 0;
  double last_rate = 0, last_load = 0;
  double last_load_after = 0;  ///< the table's load once the last batch ran
  bool empty() const { return series.empty(); }
};

class throughput_view {
 public:
  /// @brief Two plots side by side (or stacked when narrow) in the remaining space.
  void draw(const throughput_input& in, float height = 0);
  bool log_rate = false;
};

}  // namespace hs::vis
