// What a session records after each batch for a family's views, beyond the throughput series and
// the churn timeline that every family has (the hive records its inserts by step).
#pragma once
#include <cstdint>
#include <span>

namespace hs::app {

/// @brief One retired batch as a recorder sees it.
struct batch_record {
  std::uint64_t batch = 0;     ///< batches retired so far, this one included
  std::uint64_t live = 0;      ///< live keys after it, exact
  std::uint64_t capacity = 0;  ///< the table's capacity after it (a table may resize itself)
  double load_before = 0;      ///< the live load factor before it
  /// The family's batch counters after it (family_descriptor::batch_counters values).
  std::span<const std::uint64_t> counters;
};

/// @brief A family's per-batch record. The session calls record() on its worker thread and
/// clear() on reset; the views read from the UI thread, so implementations lock.
class batch_recorder {
 public:
  virtual ~batch_recorder() = default;
  virtual void record(const batch_record& b) = 0;
  virtual void clear() = 0;
  /// @brief Back to an earlier state (session history): forgets the last `batches` records; the
  /// family's batch counters were `counters` then.
  virtual void cut(std::uint64_t batches, std::span<const std::uint64_t> counters) = 0;
};

}  // namespace hs::app
