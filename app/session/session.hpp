// The Session: owns one table, the workload and four streams: work, generation and tally (the
// batch pipeline's, batch.hpp) and sampling. A worker thread keeps batches in flight on the work
// stream (the GPU stays busy batch after batch) while the UI thread samples the table at display
// rate on the sampling stream; a sample waits only for the latest insert launch (so its counts are
// consistent), never for the worker. Its parts: the
// command state machine (command_state.hpp), one batch of the pipeline (batch.hpp), the records of
// the common views (records.hpp) and the family's per-batch recorder (batch_recorder.hpp).
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

#include "app/session/batch_recorder.hpp"
#include "app/session/batch_turns.hpp"
#include "app/session/command_state.hpp"
#include "app/session/history.hpp"
#include "app/session/records.hpp"
#include "app/session/step_runs.hpp"
#include "core/common/gpu_fault.hpp"
#include "core/common/status_counts.hpp"
#include "core/shard/sharded_view.hpp"
#include "core/table/family_registry.hpp"
#include "core/table/step_trace.hpp"
#include "core/table/table.hpp"
#include "core/workload/workload.hpp"

namespace hs::app {

struct batch;

struct session_config {
  table_config table;
  workload::workload_spec workload;
  maintenance_policy maintenance;  ///< applied between batches (grow, shrink, rehash in place)
  bool record_timeline = false;  ///< record the churn timeline (a census and a histogram per batch)
  /// Shared by sessions that take turns on one device (compare mode), else null: then one batch
  /// at a time is in flight, and it and what follows it hold the turn (batch_turns.hpp).
  std::shared_ptr<batch_turns> turns;
  /// Bytes the history may keep (0: the default, default_history_budget).
  std::uint64_t history_budget = 0;
};

/// @brief A snapshot of the session for panels.
struct session_status {
  activity act = activity::idle;
  std::uint64_t live = 0;  ///< live keys, exact (counted from every batch's statuses)
  std::uint64_t batches = 0, operations = 0;
  std::uint64_t failed_full = 0, rejected = 0;
  double target_load = 0;
  std::size_t script_left = 0;
  std::string note;  ///< the last message for the user (errors, why a fill stopped)
  bool error = false;
  bool script_held = false;  ///< a script waits at a pause step
  /// The views the stage the script last paused at shows (its capture), and pauses reached so far.
  std::vector<std::string> stage_views;
  std::uint64_t stages_reached = 0;
  std::string caption;    ///< the current stage's caption (a scenario's `say`), empty if none
  bool gpu_lost = false;  ///< the GPU faulted: the note says what happened (session::lost)
  /// A scenario's `ask`: the question on the next step's first operation, while the script waits
  /// for the answer (continue_script).
  std::optional<std::pair<question_kind, given_op>> question;
  /// The class's answers to the questions so far: Back takes an undone step's answer back too.
  int questions_asked = 0, questions_right = 0;
};

/// @brief What the UI wants sampled this frame: an inspection (the occupancy query's `out` is
/// ignored: the session owns the pixels).
using sample_request = inspect_request;

/// @brief The highest fill target of the family (family_descriptor::max_fill_load).
double max_fill_load(family f);

/// @brief A table over several devices as a sample saw it: each device's counters and virtual
/// shards, and what the last batch sent between them.
struct shard_sample {
  std::string link;  ///< how the devices talk ("NCCL 2.28.3, 2 GPUs in one process", simulated)
  bool simulated = false;
  owner_bits owner = owner_bits::independent;
  std::vector<table_stats> devices;
  std::vector<probe_histogram> histograms;    ///< each device's probe lengths (when sampled)
  std::vector<std::uint32_t> virtual_shards;  ///< each device's
  batch_exchange exchange;
};

struct sample_result {
  table_stats stats;
  std::optional<shard_sample> shards;  ///< a table over several devices
  inspect_result inspected;
  const occupancy_pixel* pixels = nullptr;  ///< in `space`, valid until the next sample
  memory_space space = memory_space::host;
  /// @brief The session's version() when the sample began: the table as it was then, or newer.
  std::uint64_t version = 0;
  /// @brief The session's operations run when the sample began (a point of the state shown).
  std::uint64_t operations = 0;
  /// @brief The session's operations when the sample finished: a batch that ran while it was
  /// taken may show in it, so the state shown lies between the two.
  std::uint64_t operations_after = 0;
  /// @brief When the sample finished (steady clock, seconds; 0: never sampled).
  double taken_at = 0;
};

/// @brief Seconds on the steady clock (what sample_result::taken_at counts in).
double steady_seconds();

class session {
 public:
  /// @brief Creates the table (throws hs::user_error for an impossible config) and the worker;
  /// `recorder` (the family's per-batch record, family_ui::make_recorder) may be null.
  explicit session(session_config cfg, std::unique_ptr<batch_recorder> recorder = nullptr);
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;

  void run();
  void pause();
  /// @brief One batch of the mix; `ops` > 0 makes it that many operations (single-op teaching).
  /// A step of at most k_traced_step_ops operations is traced: see last_step().
  void step(std::uint64_t ops = 0);
  /// @brief A traced step of these operations (typed keys, 1 to k_traced_step_ops; a reserved key
  /// is refused with hs::user_error before anything runs).
  void step(std::vector<given_op> ops);
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
  /// @brief Moves a table over several devices to `devices` of them, between batches (regpus).
  void regpus(std::uint32_t devices);
  /// @brief The family's compaction between batches (the slab's FLUSH: compacts every list, frees
  /// emptied slabs); throws hs::user_error for a family without one.
  void flush();
  /// @brief Blocks until the worker has nothing left to do (scripts, fills, steps, in flight).
  void wait_idle();

  // Back and Forward (history.hpp). A command that runs stops first; the table, the counts, the
  // records behind the plots, the workload's cursor and the journal go back to before the last
  // `n` commands. Throws hs::user_error, nothing changed, when fewer can be undone or redone.
  void back(std::uint64_t n = 1);
  /// @brief Replays the first `n` commands Back undid, as recorded (a new command forgets them).
  void forward(std::uint64_t n = 1);
  /// @brief Back to the state a timeline mark names (history_mark::serial).
  void back_to_mark(std::uint64_t serial);
  /// @brief Why back(n) or forward(n) would be refused now, or empty: compare mode asks every
  /// table first, so that the compared tables go back together or not at all.
  std::string why_not_back(std::uint64_t n = 1) const;
  std::string why_not_forward(std::uint64_t n = 1) const;
  struct history_view {
    std::vector<history_mark> marks;  ///< the kept states before each command, oldest first
    std::size_t redo = 0;             ///< commands Forward can replay
    std::string limit;                ///< where Back stops short of the table's start, and why
    bool off = false;                 ///< no state fits the budget: Back is off for this table
    std::uint64_t bytes = 0, budget = 0;
  };
  history_view history() const;

  /// @brief Counts the class's answer to a question (the tally Back takes back with its step).
  void count_answer(bool right);
  /// @brief Makes the table a state read from a table file `name` (a command: Back undoes it);
  /// throws hs::user_error, the session unchanged, for a state of another family or options.
  void restore(const table_state& st, const std::string& name);

  /// @brief Writes the table's exact state to a table file (table_file.hpp), between batches.
  void save_table(const std::string& path);
  /// @brief Makes the table a table file's state (a command: Back undoes it). Throws
  /// hs::user_error naming the file, the session unchanged, for a bad file or one of another
  /// family or options.
  void load_table(const std::string& path);

  /// @brief Samples the table on the sampling stream (one thread at a time: the UI's or a
  /// sampler's), the heatmap's pixels into `pixels` (grown as needed; the session's own buffer
  /// in the first form). Throws hs::gpu_fault once the session is lost, and for a sample that
  /// finished after the fault (it may show a half-changed table).
  void sample(const sample_request& req, sample_result& out);
  void sample(const sample_request& req, sample_result& out, buffer<occupancy_pixel>& pixels);

  session_status status() const;
  /// @brief Whether a command runs (status().act is not idle); whether a script waits at a pause.
  bool running() const { return status().act != activity::idle; }
  bool held() const { return status().script_held; }
  /// @brief Counts every change of the table's contents (a batch retired, a reset, a clear, a
  /// rebuild, a compaction): a sample taken at an older version may show a table that is gone.
  std::uint64_t version() const { return version_.load(); }
  /// @brief Whether nothing runs or waits to (no command, batch, rebuild or compaction): a table
  /// that will not change until told.
  bool at_rest() const;
  std::vector<batch_point> throughput() const;
  std::vector<census_point> timeline() const;
  std::vector<rebuild_event> rebuilds() const;
  /// @brief The commands run since the table was made or last reset, as they ran, and the table
  /// they started from (its capacity then: a rehash since may have changed it).
  struct journal_record {
    table_config table;
    std::vector<journal_entry> entries;
  };
  journal_record journal() const;
  /// @brief The family's per-batch recorder (family_ui::make_recorder), or null.
  const batch_recorder* recorder() const { return recorder_.get(); }
  /// @brief The last traced step (its operations, outcomes and, for slab tables, each operation's
  /// bucket list before it ran); null before the first.
  std::shared_ptr<const step_trace> last_step() const;
  /// @brief Every run of the last traced step's operations from the state it started from (Back,
  /// then Step again), with where each key landed.
  run_history step_runs_of_last() const;
  /// @brief The settings the session was made with (the capacity: see capacity()).
  const session_config& config() const { return cfg_; }
  /// @brief The table's current capacity (rehash may change it).
  std::uint64_t capacity() const { return capacity_.load(); }
  maintenance_policy maintenance() const;
  bool recording_timeline() const;
  workload::workload_spec workload() const;
  table& tbl() { return *table_; }
  bool gpu() const { return cfg_.table.backend == backend::gpu; }
  /// @brief Whether the table is on a GPU that faulted (core/common/gpu_fault.hpp): the session
  /// then runs nothing more, refuses every command and every sample, and its status says so.
  bool lost() const { return gpu() && gpu_faulted(); }
  /// @brief "NVIDIA H200 (GPU)" or "CPU model": shown in every panel and figure.
  const std::string& backend_label() const { return backend_label_; }

 private:
  void worker_loop();
  /// Plans and launches the next batch if there is work; false when there is none.
  bool issue_next(std::unique_lock<std::mutex>& lock);
  /// Counts a finished batch in; returns the keys it inserted (call with the lock held).
  std::uint64_t retire(batch& b);
  /// A traced step's inserts: the slot each key holds now (open addressing, whose trace walks
  /// from the home slot), for the runs' comparison (worker, the batch retired).
  void locate_inserts(step_trace& t);
  /// After a batch, outside the lock: the occupancy guard, the maintenance policy, the census
  /// for the timeline and the family's recorder.
  void after_batch(std::unique_lock<std::mutex>& lock, std::uint64_t inserted, double ops_per_s);
  /// Rebuilds now (worker only, nothing in flight) and records it.
  void rebuild(std::uint64_t capacity, std::unique_lock<std::mutex>& lock);
  /// Runs the family's compaction now (worker only, nothing in flight).
  void run_flush(std::unique_lock<std::mutex>& lock);
  /// Moves a sharded table to `devices` devices now (worker only, nothing in flight); Back then
  /// starts from here, as the states before hold another number of shards.
  void move_devices(std::uint32_t devices, std::unique_lock<std::mutex>& lock);
  /// Runs the rebuild, compaction or move asked for (worker only, nothing in flight); false when
  /// none was.
  bool run_table_work(std::unique_lock<std::mutex>& lock);
  /// A rebuild, compaction or move asked for, which waits for the batches in flight.
  bool table_work_pending() const { return pending_rehash_ || pending_flush_ || pending_regpus_; }
  /// Stops running work before the table is so full that probes crawl (the family says whether
  /// they do: erase may keep keys in their slots, so a churning workload fills the table even at
  /// a steady load factor). Returns the note to stop with, or empty (worker, without the lock).
  std::string guard_occupancy(std::uint64_t occupied_bound, std::uint64_t pending,
                              std::uint64_t& exact);
  /// Starts the script's next steps, doing with the table what they ask (worker, nothing in
  /// flight).
  void start_next_step();
  /// Stops the command with an error note.
  void fail(std::string note);
  /// Drops the batches in flight (their results mean nothing after a failure): worker, locked.
  void abandon_in_flight();
  table_progress progress() const;
  batch& free_slot();
  // The history (session_history.cpp); call with the lock held and nothing in flight.
  /// Keeps the table's state and the session's counts, unless the last kept state is this one.
  void take_point();
  /// Makes the table and the session what point `i` kept; the points after it are dropped.
  void restore_point(std::size_t i);
  /// Stops a running command and waits until nothing is in flight and the worker works on the
  /// table nowhere outside the lock (the lock is held after).
  void come_to_rest(std::unique_lock<std::mutex>& lock);
  /// Runs work with the lock released, counted as the worker's work outside it (come_to_rest
  /// waits for it).
  template <class Work>
  void unlocked(std::unique_lock<std::mutex>& lock, Work&& work) {
    ++outside_lock_;
    lock.unlock();
    work();
    lock.lock();
    --outside_lock_;
    idle_cv_.notify_all();
  }
  void go_back(std::uint64_t n);
  /// Throws hs::user_error unless `n` of the `undoable` commands can be undone.
  void check_undoable(std::uint64_t n, std::uint64_t undoable) const;
  std::string undo_refusal(std::uint64_t n, std::uint64_t undoable) const;
  std::string back_refusal(std::uint64_t n) const;     // mutex_ held
  std::string forward_refusal(std::uint64_t n) const;  // mutex_ held
  /// Forward's commands that started since the journal had `journal_before` entries leave redo_.
  void consume_replayed(std::size_t journal_before);
  history_view history_locked() const;
  /// A script's back, load table or save table step (worker, at rest); false when it failed (the
  /// script stops, the note says why).
  bool run_history_step(const script_step& s);
  void load_state(const table_state& st, const std::string& path);

  session_config cfg_;
  const family_descriptor& fam_;
  std::unique_ptr<table> table_;
  std::unique_ptr<batch_recorder> recorder_;
  std::string backend_label_;
  owned_stream work_stream_, sample_stream_, generate_stream_, tally_stream_;

  mutable std::mutex mutex_;
  std::condition_variable wake_, idle_cv_;
  std::thread worker_;
  bool stop_ = false;

  // Guarded by mutex_.
  command_state commands_;
  session_status st_;
  session_records records_;
  std::vector<std::uint64_t>
      counters_after_;  // the family's batch counters after the batch retired last
  std::atomic<std::uint64_t> capacity_{0};
  std::atomic<std::uint64_t> version_{0};
  std::uint64_t pending_rehash_ = 0;         // a rehash asked for: capacity (or 1 for the same)
  std::uint64_t journal_capacity_ = 0;       // the capacity when the journal began
  bool pending_flush_ = false;               // the family's compaction asked for
  std::uint32_t pending_regpus_ = 0;         // a move to this many devices asked for
  bool flush_by_policy_ = false;             // ...by the maintenance threshold for dead entries
  bool erases_leave_dead_ = false;           // the family's erases leave entries only flush removes
  std::uint64_t dead_since_compaction_ = 0;  // erases counted since (erases_leave_dead families)
  std::shared_ptr<const step_trace> last_step_;
  std::uint64_t traced_steps_ = 0;
  session_history history_;
  std::vector<journal_entry> redo_;  // commands Back undid, for Forward
  std::size_t replay_left_ = 0;  // Forward's commands queued and not yet started (still in redo_)
  int outside_lock_ = 0;         // the worker's table work in progress with the lock released
  step_runs step_runs_;          // traced steps' outcomes, run by run (Back, then Step again)
  std::uint64_t pending_inserts_ = 0, pending_erases_ = 0;  // in flight, not yet counted
  std::uint64_t occupied_bound_ = 0;  // upper bound on occupied slots (exact after each check)
  std::deque<std::unique_ptr<batch>> in_flight_;
  std::vector<std::unique_ptr<batch>> spare_;
  double t0_ = 0;

  // Sampling (UI thread only).
  buffer<occupancy_pixel> pixels_;
};

}  // namespace hs::app
