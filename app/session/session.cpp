// The session: its commands as the window and scenarios give them, its status, and what it
// records. The worker and its batches are session_pipeline.cpp's, Back and Forward
// session_history.cpp's, samples session_sampling.cpp's.
#include "app/session/session.hpp"

#include "core/shard/sharded_descriptor.hpp"

#include <algorithm>
#include <chrono>

#include "app/session/batch.hpp"
#include "app/session/gpu_fault_notice.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::app {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double max_fill_load(family f) { return describe(f).max_fill_load; }

session::session(session_config cfg, std::unique_ptr<batch_recorder> recorder)
    : cfg_(std::move(cfg)),
      fam_(describe_table(cfg_.table)),
      work_stream_(cfg_.table.backend == backend::gpu),
      sample_stream_(cfg_.table.backend == backend::gpu),
      generate_stream_(cfg_.table.backend == backend::gpu),
      tally_stream_(cfg_.table.backend == backend::gpu) {
  workload::validate(cfg_.workload, cfg_.table.width);
  table_ = make_table(cfg_.table);
  recorder_ = std::move(recorder);
  counters_after_.assign(fam_.batch_counters, 0);
  cfg_.table = table_->config();  // capacity 0 resolved to the default
  capacity_ = cfg_.table.capacity;
  journal_capacity_ = cfg_.table.capacity;
  erases_leave_dead_ = fam_.flush && fam_.erases_leave_dead && fam_.erases_leave_dead(cfg_.table);
  backend_label_ = hs::backend_label(cfg_.table.backend);
  commands_.set_spec(cfg_.workload);
  commands_.set_journal_settings(cfg_.maintenance, cfg_.record_timeline);
  history_ =
      session_history(cfg_.history_budget ? cfg_.history_budget : default_history_budget(gpu()));
  take_point();  // the table as made: the first command can be undone before the worker wakes
  t0_ = steady_seconds();
  worker_ = std::thread([this] { worker_loop(); });
}

session::~session() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

table_progress session::progress() const {
  return {st_.live, pending_inserts_, pending_erases_, std::max<std::uint64_t>(capacity_.load(), 1),
          !in_flight_.empty()};
}

void session::run() {
  std::lock_guard lock(mutex_);
  if (lost()) return;  // status() says why
  redo_.clear();
  replay_left_ = 0;
  commands_.run();
  st_.note.clear();
  st_.error = false;
  wake_.notify_all();
}

void session::pause() {
  std::lock_guard lock(mutex_);
  commands_.pause();
}

void session::step(std::uint64_t ops) {
  std::lock_guard lock(mutex_);
  if (lost()) return;  // status() says why
  redo_.clear();
  replay_left_ = 0;
  commands_.step(ops);
  wake_.notify_all();
}

void session::step(std::vector<given_op> ops) {
  if (ops.empty() || ops.size() > k_traced_step_ops)
    throw user_error(strprintf("a step of typed keys takes 1 to %llu keys",
                               static_cast<unsigned long long>(k_traced_step_ops)));
  for (const given_op& o : ops) check_typed_key(o.key, cfg_.table.width);
  std::lock_guard lock(mutex_);
  if (lost()) return;  // status() says why
  redo_.clear();
  replay_left_ = 0;
  commands_.step(std::move(ops));
  wake_.notify_all();
}

void session::fill_to(double load) {
  std::lock_guard lock(mutex_);
  if (lost()) return;  // status() says why
  redo_.clear();
  replay_left_ = 0;
  commands_.fill_to(load, progress(), fam_.max_fill_load);
  st_.note.clear();
  st_.error = false;
  wake_.notify_all();
}

void session::queue(std::vector<script_step> steps) {
  std::lock_guard lock(mutex_);
  if (lost()) return;    // status() says why
  st_.question.reset();  // a script waiting for an answer is replaced
  redo_.clear();
  replay_left_ = 0;
  commands_.queue(steps);
  wake_.notify_all();
}

void session::continue_script() {
  std::lock_guard lock(mutex_);
  if (lost()) return;    // status() says why
  st_.question.reset();  // answered (or passed over): the step runs
  redo_.clear();         // the script's next commands take the place of what Back undid
  replay_left_ = 0;
  commands_.continue_script();
  wake_.notify_all();
}

void session::set_workload(const workload::workload_spec& spec) {
  workload::validate(spec, cfg_.table.width);
  std::lock_guard lock(mutex_);
  commands_.set_spec(spec);
}

workload::workload_spec session::workload() const {
  std::lock_guard lock(mutex_);
  return commands_.spec();
}

void session::set_maintenance(const maintenance_policy& p) {
  std::lock_guard lock(mutex_);
  cfg_.maintenance = p;
  commands_.set_journal_settings(cfg_.maintenance, cfg_.record_timeline);
}

maintenance_policy session::maintenance() const {
  std::lock_guard lock(mutex_);
  return cfg_.maintenance;
}

void session::set_record_timeline(bool on) {
  std::lock_guard lock(mutex_);
  cfg_.record_timeline = on;
  commands_.set_journal_settings(cfg_.maintenance, cfg_.record_timeline);
}

bool session::recording_timeline() const {
  std::lock_guard lock(mutex_);
  return cfg_.record_timeline;
}

void session::rehash(std::uint64_t capacity) {
  // Taken between batches, whatever the session is doing: new batches wait until it is done.
  std::lock_guard lock(mutex_);
  if (lost()) return;  // status() says why
  pending_rehash_ = capacity ? capacity : capacity_.load();
  redo_.clear();
  replay_left_ = 0;
  commands_.journal({script_step::rehash, 0, capacity});
  wake_.notify_all();
}

void session::regpus(std::uint32_t devices) {
  std::lock_guard lock(mutex_);  // as rehash: between batches, new batches wait until it is done
  if (lost()) return;
  pending_regpus_ = devices;
  redo_.clear();
  replay_left_ = 0;
  commands_.journal({script_step::regpus, 0, devices});
  wake_.notify_all();
}

std::vector<batch_point> session::throughput() const {
  std::lock_guard lock(mutex_);
  return records_.throughput();
}

std::vector<census_point> session::timeline() const {
  std::lock_guard lock(mutex_);
  return records_.timeline();
}

std::vector<rebuild_event> session::rebuilds() const {
  std::lock_guard lock(mutex_);
  return records_.events();
}

session::journal_record session::journal() const {
  std::lock_guard lock(mutex_);
  journal_record r{cfg_.table, commands_.journal()};
  r.table.capacity = journal_capacity_;
  return r;
}

bool session::at_rest() const {
  std::lock_guard lock(mutex_);
  return commands_.resting() && in_flight_.empty() && !table_work_pending() && outside_lock_ == 0;
}

run_history session::step_runs_of_last() const {
  std::lock_guard lock(mutex_);
  return step_runs_.last();
}

std::shared_ptr<const step_trace> session::last_step() const {
  std::lock_guard lock(mutex_);
  return last_step_;
}

void session::flush() {
  if (!fam_.flush)
    throw user_error("FLUSH is not an operation of the " + std::string(fam_.name) + " family");
  std::lock_guard lock(mutex_);
  if (lost()) return;
  pending_flush_ = true;
  redo_.clear();
  replay_left_ = 0;
  commands_.journal({script_step::flush, 0, 0});
  wake_.notify_all();
}

void session::abandon_in_flight() {
  for (auto& b : in_flight_) {
    pending_inserts_ -= b->plan.inserts;
    pending_erases_ -= b->plan.erases;
    try {
      b->done.wait();
    } catch (...) {  // the failure is being reported already
    }
    spare_.push_back(std::move(b));
  }
  in_flight_.clear();
}

void session::fail(std::string note) {
  st_.note = std::move(note);
  st_.error = true;
  commands_.cancel();
}

void session::run_flush(std::unique_lock<std::mutex>& lock) {
  std::string error;
  unlocked(lock, [&] {
    try {
      fam_.flush(*table_, work_stream_.view());
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  if (!error.empty()) {
    st_.note = "flush failed: " + error;
    st_.error = true;
    commands_.drop_script();
    return;
  }
  const std::uint64_t dead = dead_since_compaction_;
  dead_since_compaction_ = 0;
  records_.add_event(st_.batches, flush_by_policy_ ? "flush (maintenance)" : "flush");
  ++version_;
  st_.note = flush_by_policy_ ? strprintf(
                                    "flushed by the maintenance threshold: %s erased "
                                    "entries since the last compaction",
                                    format_count(dead).c_str())
                              : std::string(fam_.flush_note);
  flush_by_policy_ = false;
}

void session::reset() {
  std::unique_lock lock(mutex_);
  if (lost()) return;  // clearing the table would be another GPU call; status() says why
  commands_.pause();
  idle_cv_.wait(lock, [&] { return in_flight_.empty(); });
  table_->clear(work_stream_.view());
  synchronize(work_stream_.view());
  commands_.reset();
  records_.clear();
  step_runs_.clear();
  if (recorder_) recorder_->clear();
  std::fill(counters_after_.begin(), counters_after_.end(), 0);
  last_step_.reset();
  const session_status tally = st_;
  st_ = {};
  st_.questions_asked = tally.questions_asked;  // the class's tally outlives a reset
  st_.questions_right = tally.questions_right;
  occupied_bound_ = 0;
  dead_since_compaction_ = 0;
  pending_inserts_ = pending_erases_ = 0;
  t0_ = steady_seconds();
  commands_.set_journal_settings(cfg_.maintenance, cfg_.record_timeline);
  journal_capacity_ = capacity_.load();
  history_.clear();  // the journal starts again: so does the history (a scenario's clear is undone)
  redo_.clear();
  replay_left_ = 0;
  ++version_;
  take_point();  // the emptied table: the first command after it can be undone
}

void session::wait_idle() {
  std::unique_lock lock(mutex_);
  // Table work the worker runs with the lock released (a rebuild, a regpus) is not idle either:
  // its step has left the script, and its pending flag is down, while it runs.
  idle_cv_.wait(lock, [&] {
    return commands_.resting() && in_flight_.empty() && !table_work_pending() && outside_lock_ == 0;
  });
}

session_status session::status() const {
  std::lock_guard lock(mutex_);
  session_status s = st_;
  if (lost()) {
    announce_gpu_fault();
    s.gpu_lost = s.error = true;
    s.note = gpu_lost_note();
  }
  s.act = commands_.act();
  s.target_load = commands_.target_load();
  s.script_left = commands_.script_left();
  s.script_held = commands_.held();
  s.stage_views = commands_.stage_views();
  s.stages_reached = commands_.stages_reached();
  return s;
}

void session::start_next_step() {
  // Forward's replayed commands leave redo_ as they start, however this returns.
  struct replayed_guard {
    session& s;
    std::size_t before;
    ~replayed_guard() { s.consume_replayed(before); }
  } guard{*this, commands_.journal().size()};
  // A state before each command the script starts (take_point keeps none twice).
  for (take_point(); auto s = commands_.take_script_step(progress(), fam_.max_fill_load, st_.note);
       take_point()) {
    switch (s->kind) {
      case script_step::clear:
        table_->clear(work_stream_.view());
        synchronize(work_stream_.view());
        st_.live = 0;
        occupied_bound_ = 0;
        dead_since_compaction_ = 0;
        ++version_;
        break;
      case script_step::rehash:
        pending_rehash_ = s->batches ? s->batches : capacity_.load();
        return;  // the worker rebuilds outside the lock
      case script_step::flush: pending_flush_ = true; return;
      case script_step::regpus: pending_regpus_ = static_cast<std::uint32_t>(s->batches); return;
      case script_step::say: st_.caption = s->text; break;
      case script_step::ask: st_.question = {s->question, s->given.front()}; break;
      case script_step::configure:
        cfg_.maintenance = s->configure_to->maintenance;
        cfg_.record_timeline = s->configure_to->record_timeline;
        break;
      case script_step::back:
      case script_step::load_table:
      case script_step::save_table:
        if (!run_history_step(*s)) return;
        break;
      default: return;
    }
  }
}

}  // namespace hs::app
