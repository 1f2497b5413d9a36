// The Session: owns one table, the workload, a work stream and a sampling stream. A worker thread
// keeps batches in flight on the work stream (the GPU stays busy batch after batch) while the UI
// thread samples the table at display rate on the other stream; a sample waits only for the
// latest insert launch (so its counts are consistent), never for the worker.
#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/batch_recorder.hpp"
#include "core/common/status_counts.hpp"
#include "core/common/step_trace.hpp"
#include "core/table/family_registry.hpp"
#include "core/table/table.hpp"
#include "core/workload/workload.hpp"
#include "visualizers/views/churn_view.hpp"
#include "visualizers/views/throughput_view.hpp"

namespace hs::app {

struct session_config {
  table_config table;
  workload::workload_spec workload;
  maintenance_policy maintenance;  ///< applied between batches (grow, shrink, rehash in place)
  bool record_timeline = false;    ///< record the churn timeline (a census and a histogram per batch)
};

/// @brief What the worker is doing.
enum class activity : std::uint8_t { idle, running, filling, draining, stepping, scripted };

/// @brief One queued command of a script (a scenario's steps, or a preset's).
struct script_step {
  enum kind_t : std::uint8_t { fill, drain, run, clear, pause, rehash, flush, step } kind = run;
  double load = 0;          ///< fill/drain target (live load factor; above 1 for slab lists)
  std::uint64_t batches = 0;///< run: how many batches of the workload's mix; rehash: capacity (0: same);
                            ///< step: operations in the (traced) step
};

/// @brief A snapshot of the session for panels.
struct session_status {
  activity act = activity::idle;
  std::uint64_t live = 0;       ///< live keys, exact (counted from every batch's statuses)
  std::uint64_t batches = 0, operations = 0;
  std::uint64_t failed_full = 0, rejected = 0;
  double target_load = 0;
  std::size_t script_left = 0;
  std::string note;             ///< the last message for the user (errors, why a fill stopped)
  bool error = false;
  bool script_held = false;     ///< a script waits at a pause step
};

/// @brief What the UI wants sampled this frame: an inspection (the occupancy query's `out` is
/// ignored: the session owns the pixels).
using sample_request = inspect_request;

/// @brief The highest fill target of the family (family_descriptor::max_fill_load).
double max_fill_load(family f);

struct sample_result {
  table_stats stats;
  inspect_result inspected;
  const occupancy_pixel* pixels = nullptr;  ///< in `space`, valid until the next sample
  memory_space space = memory_space::host;
};

class session {
 public:
  /// @brief Creates the table (throws hs::user_error for an impossible config) and the worker.
  explicit session(session_config cfg);
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;

  void run();
  void pause();
  /// @brief One batch of the mix; `ops` > 0 makes it that many operations (single-op teaching).
  /// A step of at most k_traced_step_ops operations is traced: see last_step().
  void step(std::uint64_t ops = 0);
  /// @brief Fills (insert-only batches) or drains (erase-only) to the live load factor.
  void fill_to(double load);
  /// @brief Queues steps; the worker runs them in order, each after the previous finished. A
  /// pause step holds the script until continue_script().
  void queue(std::vector<script_step> steps);
  void continue_script();
  /// @brief Empties the table, the throughput series and the workload cursor.
  void reset();
  /// @brief Replaces the workload (the cursor continues); takes effect from the next batch.
  void set_workload(const workload::workload_spec& spec);
  void set_maintenance(const maintenance_policy& p);
  void set_record_timeline(bool on);
  /// @brief Rebuilds the table from its live entries (capacity 0: the same), between batches.
  void rehash(std::uint64_t capacity = 0);
  /// @brief The family's compaction between batches (the slab's FLUSH: compacts every list, frees
  /// emptied slabs); throws hs::user_error for a family without one.
  void flush();
  /// @brief Blocks until the worker has nothing left to do (scripts, fills, steps, in flight).
  void wait_idle();

  /// @brief Samples the table on the sampling stream (one thread at a time: the UI's or a
  /// sampler's), the heatmap's pixels into `pixels` (grown as needed; the session's own buffer
  /// in the first form).
  void sample(const sample_request& req, sample_result& out);
  void sample(const sample_request& req, sample_result& out, buffer<occupancy_pixel>& pixels);

  session_status status() const;
  std::vector<vis::throughput_point> throughput() const;
  std::vector<vis::churn_point> timeline() const;
  std::vector<vis::churn_event> rebuilds() const;
  /// @brief The family's per-batch recorder (family_ui::make_recorder), or null.
  const batch_recorder* recorder() const { return recorder_.get(); }
  /// @brief The last traced step (its operations, outcomes and, for slab tables, each operation's
  /// bucket list before it ran); null before the first.
  std::shared_ptr<const step_trace> last_step() const;
  /// @brief The settings the session was made with (the capacity: see capacity()).
  const session_config& config() const { return cfg_; }
  /// @brief The table's current capacity (rehash may change it).
  std::uint64_t capacity() const { return capacity_.load(); }
  maintenance_policy maintenance() const;
  bool recording_timeline() const;
  workload::workload_spec workload() const;
  table& tbl() { return *table_; }
  bool gpu() const { return cfg_.table.backend == backend::gpu; }
  /// @brief "NVIDIA H200 (GPU)" or "CPU model": shown in every panel and figure.
  const std::string& backend_label() const { return backend_label_; }

 private:
  struct batch;  // buffers and events of one batch in flight
  void worker_loop();
  /// Plans and launches the next batch if there is work; false when there is none.
  bool issue_next(std::unique_lock<std::mutex>& lock);
  /// Records the step's operations and what each will find (the family's trace_before) before it
  /// runs (worker, unlocked, after the batch was generated on stream s).
  std::shared_ptr<step_trace> trace_before(batch& b, std::uint64_t n, stream_view s);
  /// Counts a finished batch in; returns the keys it inserted (call with the lock held).
  std::uint64_t retire(batch& b);
  /// After a batch, outside the lock: the occupancy guard, the maintenance policy and the
  /// timeline point.
  void after_batch(std::unique_lock<std::mutex>& lock, std::uint64_t inserted, double ops_per_s);
  /// Rebuilds now (worker only, nothing in flight) and records it.
  void rebuild(std::uint64_t capacity, std::unique_lock<std::mutex>& lock);
  /// Runs the family's compaction now (worker only, nothing in flight).
  void run_flush(std::unique_lock<std::mutex>& lock);
  std::optional<workload::batch_plan> plan_next(std::uint64_t& kind_out);
  void finish_command(std::string note = {});
  void start_fill(double load);
  /// Stops running work before the table is so full that linear probes crawl (erase keeps keys in
  /// their slots, so a churning workload fills the table even at a steady load factor).
  /// Returns the note to stop with, or empty (worker, without the lock).
  std::string guard_occupancy(std::uint64_t occupied_bound, std::uint64_t pending, std::uint64_t& exact);
  /// Starts the next script step (worker only, nothing in flight).
  void start_next_step();
  batch& free_slot();

  session_config cfg_;
  const family_descriptor& fam_;
  std::unique_ptr<table> table_;
  std::unique_ptr<batch_recorder> recorder_;
  std::string backend_label_;
  owned_stream work_stream_, sample_stream_;

  mutable std::mutex mutex_;
  std::condition_variable wake_, idle_cv_;
  std::thread worker_;
  bool stop_ = false;

  // Guarded by mutex_.
  activity act_ = activity::idle;
  std::uint64_t target_keys_ = 0;  // fill/drain: live keys to reach, fixed when the command starts
  std::uint64_t step_ops_ = 0;      // stepping: operations in the step (0: one batch)
  std::uint64_t batches_left_ = 0;  // a script's run step
  std::deque<script_step> script_;
  bool script_held_ = false;  // stopped at a pause step
  workload::cursor cursor_;
  workload::workload_spec spec_;
  session_status st_;
  std::vector<vis::throughput_point> series_;
  std::vector<vis::churn_point> timeline_;
  std::vector<vis::churn_event> rebuilds_;
  std::vector<std::uint64_t> counters_after_;  // the family's batch counters after the batch retired last
  std::atomic<std::uint64_t> capacity_{0};
  std::uint64_t pending_rehash_ = 0;  // a rehash asked for: capacity (or 1 for the same)
  bool pending_flush_ = false;        // the family's compaction asked for
  std::shared_ptr<const step_trace> last_step_;
  std::uint64_t traced_steps_ = 0;
  std::uint64_t pending_inserts_ = 0, pending_erases_ = 0;  // in flight, not yet counted
  int stalled_ = 0;                                          // fill batches that added no key
  std::uint64_t occupied_bound_ = 0;  // upper bound on occupied slots (exact after each check)
  std::deque<std::unique_ptr<batch>> in_flight_;
  std::vector<std::unique_ptr<batch>> spare_;
  double t0_ = 0;

  // Sampling (UI thread only).
  buffer<occupancy_pixel> pixels_;
};

const char* to_string(activity a);

}  // namespace hs::app
