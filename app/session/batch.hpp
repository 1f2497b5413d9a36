// One batch of the session's pipeline: its buffers and events, its launch (generate the operations
// on the generation stream; on the work stream trace a step's operations, run them and copy the
// family's counters; count their statuses on the tally stream: all stream-ordered, nothing
// synchronizes), and what it reports once retired.
#pragma once
#include <cstdint>
#include <memory>

#include "app/session/command_state.hpp"
#include "core/common/memory.hpp"
#include "core/common/status_counts.hpp"
#include "core/common/stream.hpp"
#include "core/table/family_registry.hpp"
#include "core/table/step_trace.hpp"
#include "core/workload/workload.hpp"

namespace hs::app {

/// @brief A batch's keys, values and found values in one width.
template <class K, class V>
struct batch_buffers {
  buffer<K> keys;
  buffer<V> values, results;
};

struct batch {
  batch(memory_space s, bool gpu, std::size_t family_counters);

  memory_space space;
  std::uint64_t room = 0;  ///< operations the buffers hold (they only grow)
  buffer<op_kind> kinds;
  // The keys and values of the table's width; the launch allocates those and frees the others.
  batch_buffers<key_type, value_type> narrow;
  batch_buffers<wide_key, wide_value> wide;
  buffer<op_status> status;
  buffer<std::uint64_t> scratch, counts;
  buffer<std::uint64_t> family_counts;  // the family's batch counters after this batch
  stream_timer timer;
  stream_event generated;  // on the generation stream: the operations are in the buffers
  stream_event ran;        // on the work stream: the table is done with them
  stream_event done;       // on the tally stream: everything finish() reads is there
  workload::batch_plan plan;
  /// The table's slots as the batch was launched and once its launch returned: a hive that
  /// resizes itself does so on the host inside the call, so the two differ across its resize.
  std::uint64_t slots_before = 0, slots_after = 0;
  std::shared_ptr<const std::vector<given_op>> given;  // a step of typed keys: its operations
  std::shared_ptr<step_trace> trace;                   // a traced step: completed by finish()
  void (*complete_trace)(batch&) = nullptr;            // set by the launch, for the width it ran
};

/// @brief What the launch needs besides the batch.
struct launch_context {
  table& tbl;
  const family_descriptor& fam;
  const table_config& config;
  std::uint64_t capacity = 0;
};

/// @brief The streams a batch uses: its operations are generated on `generate`, run on `work`, and
/// their statuses counted on `tally`. The work stream then runs the table's kernels and little
/// else: on the H200 a session of a linear table (2^28 slots, mixed batches of 2^20) generating
/// and counting on the work stream retired 5.9 G ops/s against 11.65 for its batches alone.
struct batch_streams {
  stream_view work, generate, tally;
};

/// @brief Generates b.plan's operations and runs them on the table; a traced batch first records
/// its operations and what each will find (the family's trace_before). On the CPU backend the
/// generation and the work run on the calling thread; on the GPU both are queued on the streams.
void launch(batch& b, const workload::workload_spec& spec, bool traced, const launch_context& c,
            batch_streams streams);

/// @brief A retired batch's statuses, counted.
struct batch_outcome {
  std::uint64_t inserted = 0, erased = 0, failed_full = 0, rejected = 0;
  double ms = 0;  ///< from the stream's events (the host clock on the CPU backend)
};
/// @brief Reads a finished batch (its `done` event passed): the counts, and a traced step's
/// statuses and found values into its trace, which gets serial number `serial`.
batch_outcome finish(batch& b, std::uint64_t serial);

}  // namespace hs::app
