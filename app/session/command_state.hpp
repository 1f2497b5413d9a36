// The session's command state machine: what the worker does next for the current command (run,
// pause, a step, a fill or drain to a target, a script of steps with pauses), which batch it plans
// from the workload's cursor, and when a command is finished and with what note. It touches no
// table: the session holds its lock around every call and does what a step hands back (clear,
// rehash, flush) with the table itself.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "app/session/question.hpp"
#include "core/table/table.hpp"
#include "core/workload/workload.hpp"

namespace hs::app {

/// @brief What the worker is doing.
enum class activity : std::uint8_t { idle, running, filling, draining, stepping, scripted };
const char* to_string(activity a);

/// @brief An operation given whole (a key the class typed), not drawn from the workload.
struct given_op {
  op_kind kind = op_kind::insert;
  std::uint64_t key = 0;    ///< of the table's width (a 32-bit table's keys fit 32 bits)
  std::uint64_t value = 0;  ///< an insert's value
  bool operator==(const given_op&) const = default;
};

/// @brief A typed key as an operation of `kind`; an insert stores a value drawn from the key
/// (the same on every run, so a saved session plays back to the same table).
given_op typed_op(op_kind kind, std::uint64_t key);
/// @brief Throws hs::user_error for a typed key a table of width `w` cannot take: one of its
/// reserved keys, or a key wider than it holds (never truncated).
void check_typed_key(std::uint64_t key, key_width w);

/// @brief One queued command of a script (a scenario's steps, or a preset's).
struct script_step {
  enum kind_t : std::uint8_t {
    fill,
    drain,
    run,
    clear,
    pause,
    rehash,
    flush,
    step,
    say,
    configure,
    ask,         ///< a question (`question`) on the next step, its operation in `given`
    back,        ///< back before the last `batches` commands (session history)
    load_table,  ///< make the table the state in the table file `text`
    save_table,  ///< write the table's state to the table file `text`
    regpus       ///< move a sharded table to `batches` devices
  } kind = run;
  double load =
      0;  ///< fill/drain target (live load factor; above 1 for lists and self-resizing tables)
  std::uint64_t batches = 0;  ///< run: how many batches of the workload's mix; rehash: capacity (0:
                              ///< same); step: operations in the (traced) step
  std::string text;           ///< say: the stage's caption
  /// configure: the workload, maintenance and timeline from this step on (a scenario's workload
  /// lines after its first step)
  struct settings {
    workload::workload_spec workload;
    maintenance_policy maintenance;
    bool record_timeline = false;
  };
  std::optional<settings> configure_to;
  std::vector<given_op> given;     ///< step: these operations (typed keys) instead of the mix's
  std::vector<std::string> views;  ///< pause: the views its stage shows (a scenario's capture)
  question_kind question = question_kind::where;  ///< ask: what it asks
};

/// @brief A command as it ran, with the settings it ran with: what a session saved as a scenario
/// plays back. A run carries the batches it ran; a one-batch step is a run of 1.
struct journal_entry {
  script_step step;
  script_step::settings settings;
};

/// @brief Where the table stands, as the planner needs it.
struct table_progress {
  std::uint64_t live = 0;             ///< live keys, counted from retired batches
  std::uint64_t pending_inserts = 0;  ///< planned inserts in flight
  std::uint64_t pending_erases = 0;
  std::uint64_t capacity = 1;
  bool in_flight = false;  ///< batches still in flight
};

/// @brief A batch to issue: the workload's plan, and whether it is a traced step.
struct planned_batch {
  workload::batch_plan plan;
  bool traced = false;
  /// Operations given whole (a step of typed keys), which the batch runs instead of generating.
  std::shared_ptr<const std::vector<given_op>> given;
};

/// @brief The plan of a batch of given operations: its counts of each kind (the workload's cursor
/// does not move: typed keys are not of its streams).
workload::batch_plan plan_of(const std::vector<given_op>& ops, std::uint64_t index);

class command_state {
 public:
  explicit command_state(workload::workload_spec spec = {}) : spec_(std::move(spec)) {}

  activity act() const { return act_; }
  double target_load() const { return target_load_; }
  std::size_t script_left() const { return script_.size(); }
  bool held() const { return held_; }
  /// @brief The views the stage the script last paused at shows, and how many pauses it reached:
  /// the window brings a new stage's views forward once.
  const std::vector<std::string>& stage_views() const { return stage_views_; }
  std::uint64_t stages_reached() const { return stages_reached_; }
  /// @brief Nothing to do until told: idle, and the script is empty or held at a pause.
  bool resting() const { return act_ == activity::idle && (script_.empty() || held_); }
  const workload::workload_spec& spec() const { return spec_; }
  void set_spec(const workload::workload_spec& s) { spec_ = s; }
  /// @brief The settings journal entries record beside the workload (the session's maintenance
  /// policy and timeline switch, which the state machine itself does not use).
  void set_journal_settings(const maintenance_policy& m, bool record_timeline) {
    maintenance_ = m;
    record_timeline_ = record_timeline;
  }
  /// @brief The commands since the last reset, as they ran.
  const std::vector<journal_entry>& journal() const { return journal_; }
  /// @brief Journals a command the session carries out itself (a rehash or flush from a button).
  void journal(const script_step& s);
  const workload::cursor& cursor() const { return cursor_; }

  void run();
  void pause();
  /// @brief One batch of the mix; `ops` > 0: that many operations, traced up to k_traced_step_ops.
  void step(std::uint64_t ops);
  /// @brief A traced step of these operations (1 to k_traced_step_ops typed keys).
  void step(std::vector<given_op> ops);
  /// @brief Fill or drain to `load` (clamped to 0..max_load) of the capacity, counted in keys now.
  void fill_to(double load, const table_progress& p, double max_load);
  void queue(const std::vector<script_step>& steps);
  /// @brief Runs these steps now, before the script's (Forward's replay); a script held at a
  /// pause is held there again after them.
  void replay(const std::vector<script_step>& steps);
  void continue_script();
  /// @brief Stops the command and drops the script (an error, or a guard that stopped the work).
  void cancel();
  /// @brief The occupancy guard stopped the work: the command and the script stop, unless the
  /// command was a script's run that had planned all its batches (a saved session replays a run
  /// the guard ended as that many batches, and its later steps still follow).
  void guard_stop();
  /// @brief Drops the script, the command goes on.
  void drop_script() { script_.clear(); }
  /// @brief Idle, no script, the cursor back at the workload's start (the table was emptied).
  void reset();
  /// @brief Back to an earlier state (session history): idle, the cursor and the journal as they
  /// were then; the script stays where it is. Returns the journal's entries undone, in order.
  std::vector<journal_entry> rewind(const workload::cursor& c, std::size_t journal_length);

  /// @brief While idle, starts the script's next steps; returns a step the session does itself
  /// (clear, rehash, flush with the table, a clear having rewound the cursor; say: the caption;
  /// configure: the settings, the workload already taken here), or none. A pause holds the script
  /// and says so in `note`.
  std::optional<script_step> take_script_step(const table_progress& p, double max_load,
                                              std::string& note);
  /// @brief The next batch of the command, or none; a command found done goes idle, with its
  /// note in `note` once nothing of it is in flight.
  std::optional<planned_batch> next(const table_progress& p, std::string& note);
  /// @brief A fill batch retired: the fill stops (and the script with it) when inserts failed
  /// for want of room (`full_note`), or when three batches in a row added no key.
  void fill_batch_done(std::uint64_t inserted, bool failed_full, const table_progress& p,
                       std::string_view full_note, std::string& note);

 private:
  void start_fill(double load, const table_progress& p, double max_load);
  void finish(std::string& note, std::string text);

  activity act_ = activity::idle;
  double target_load_ = 0;
  std::uint64_t target_keys_ = 0;   // fill/drain: live keys to reach, fixed when the command starts
  std::uint64_t step_ops_ = 0;      // stepping: operations in the step (0: one batch)
  std::vector<given_op> given_;     // stepping: the step's operations, when given whole
  std::uint64_t batches_left_ = 0;  // a script's run step
  int stalled_ = 0;                 // fill batches in a row that added no key
  std::vector<journal_entry> journal_;
  std::optional<std::size_t> open_run_;  // the journal's run entry counting the batches it plans
  maintenance_policy maintenance_;
  bool record_timeline_ = false;
  std::deque<script_step> script_;
  bool held_ = false;  // stopped at a pause step
  std::vector<std::string> stage_views_;
  std::uint64_t stages_reached_ = 0;
  workload::workload_spec spec_;
  workload::cursor cursor_;
};

}  // namespace hs::app
