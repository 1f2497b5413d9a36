// What a session records for the views every family has: each batch's throughput, the churn
// timeline (a census per batch when asked), and the rebuilds and compactions as labelled events.
// These are the session's own types (the views draw their own; the panels convert), so the data
// model names no view. Bounded: past k_records_max points the oldest quarter goes. Not locked
// itself: the session holds its lock around every call.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/table/table.hpp"
#include "core/workload/workload.hpp"

namespace hs::app {

inline constexpr std::size_t k_records_max = 20000;

/// @brief What a batch did, from its plan: one kind of operation, or a mix.
enum class batch_kind : std::uint8_t { insert, find, erase, mixed };
inline constexpr std::size_t k_batch_kinds = 4;
batch_kind kind_of(const workload::batch_plan& plan);
/// @brief "insert", "find", "erase", "mixed".
std::string_view to_string(batch_kind k);
/// @brief "insert batches", ...: a kind's name in legends.
std::string batch_kind_label(batch_kind k);

/// @brief One retired batch.
struct batch_point {
  double time_s = 0;     ///< when it retired, seconds since the session started (or was reset)
  double load = 0;       ///< live load factor before the batch
  double ops_per_s = 0;  ///< from CUDA events (the host clock on the CPU backend)
  std::uint64_t ops = 0;
  batch_kind kind = batch_kind::mixed;
  double load_after = 0;  ///< live load factor after it
};

/// @brief The table after one batch (the churn timeline).
struct census_point {
  std::uint64_t batch = 0;
  double load = 0;        ///< live keys / slots
  double tombstones = 0;  ///< tombstones / slots
  double erased = 0;      ///< erased values (keys still in their slots) / slots
  double mean_probe = 0;
  double max_probe = 0;
  double ops_per_s = 0;
  std::uint64_t capacity = 0;
};

/// @brief A rebuild or compaction between batches.
struct rebuild_event {
  std::uint64_t batch = 0;  ///< batches retired before it
  std::string label;        ///< "rehash", "grow to 2^21", "flush"
};

class session_records {
 public:
  void add_batch(const batch_point& p);
  void add_census(const census_point& p);
  /// @brief A rebuild after batch `batch`: "rehash", "grow to 2^21", "shrink to ...", "flush".
  void add_event(std::uint64_t batch, std::string label);
  /// @brief A maintenance policy's rebuild, labelled by what it did.
  void add_rebuild(std::uint64_t batch, const maintenance_result& r);
  void clear();
  /// @brief Back to an earlier state (session history): drops the last `batches` batch points,
  /// the census points after batch `batch`, and the events past the first `events`.
  void cut(std::uint64_t batches, std::uint64_t batch, std::size_t events);

  const std::vector<batch_point>& throughput() const { return series_; }
  const std::vector<census_point>& timeline() const { return timeline_; }
  const std::vector<rebuild_event>& events() const { return events_; }
  /// @brief The load before the last batch (0 before the first).
  double last_load() const { return series_.empty() ? 0.0 : series_.back().load; }

 private:
  std::vector<batch_point> series_;
  std::vector<census_point> timeline_;
  std::vector<rebuild_event> events_;
};

/// @brief "grow to 2^21"-style label of a rebuild from `from` to `to` slots ("rehash" when equal).
std::string rebuild_label(std::uint64_t from, std::uint64_t to);

}  // namespace hs::app
