// The session's records as the views draw them: the session keeps batch_point, census_point and
// rebuild_event (app/session/records.hpp); the throughput and churn views take columns.
#pragma once
#include <span>

#include "app/session/records.hpp"
#include "visualizers/views/churn_view.hpp"
#include "visualizers/views/throughput_view.hpp"

namespace hs::app {

/// @brief A series per kind of batch that ran (times from the first batch), and the last batch.
vis::throughput_input throughput_input_of(std::span<const batch_point> points);
/// @brief What a reader can compare between tables: the median rate of the run's whole batches (a
/// batch of at least half the batch size), and the last batch, marked as a tail when it was short
/// (a fill's last batch may hold three keys: its rate is a launch's, not the table's).
struct rate_summary {
  double median = 0;           ///< ops/s, over `whole` batches (0 when there is none)
  std::size_t whole = 0;       ///< batches of at least half the batch size
  double last = 0;             ///< ops/s of the last batch
  std::uint64_t last_ops = 0;  ///< its operations
  bool last_is_tail = false;   ///< shorter than half a batch
};
rate_summary summarize_rates(std::span<const batch_point> points, std::uint64_t batch_size);

/// @brief The timeline's columns and its rebuilds.
vis::churn_input churn_input_of(std::span<const census_point> points,
                                std::span<const rebuild_event> events);

}  // namespace hs::app
