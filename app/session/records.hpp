// What a session records for the views every family has: each batch's throughput, the churn
// timeline (a census per batch when asked), and the rebuilds and compactions as labelled events.
// Bounded: past k_records_max points the oldest quarter goes. Not locked itself: the session
// holds its lock around every call.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/table/table.hpp"
#include "visualizers/views/churn_view.hpp"
#include "visualizers/views/throughput_view.hpp"

namespace hs::app {

inline constexpr std::size_t k_records_max = 20000;

class session_records {
 public:
  void add_batch(const vis::throughput_point& p);
  void add_census(const vis::churn_point& p);
  /// @brief A rebuild after batch `batch`: "rehash", "grow to 2^21", "shrink to ...", "flush".
  void add_event(std::uint64_t batch, std::string label);
  /// @brief A maintenance policy's rebuild, labelled by what it did.
  void add_rebuild(std::uint64_t batch, const maintenance_result& r);
  void clear();

  const std::vector<vis::throughput_point>& throughput() const { return series_; }
  const std::vector<vis::churn_point>& timeline() const { return timeline_; }
  const std::vector<vis::churn_event>& events() const { return events_; }
  /// @brief The load before the last batch (0 before the first).
  double last_load() const { return series_.empty() ? 0.0 : series_.back().load; }

 private:
  std::vector<vis::throughput_point> series_;
  std::vector<vis::churn_point> timeline_;
  std::vector<vis::churn_event> events_;
};

/// @brief "grow to 2^21"-style label of a rebuild from `from` to `to` slots ("rehash" when equal).
std::string rebuild_label(std::uint64_t from, std::uint64_t to);

}  // namespace hs::app
