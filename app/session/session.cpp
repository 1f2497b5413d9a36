// The session worker: takes the command's next batch from the state machine, keeps up to three in
// flight on the work stream (one on the CPU backend, where work runs on this thread), and retires
// them in order, counting statuses to track the exact live key count and recording each batch.
#include "app/session/session.hpp"

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
      fam_(describe(cfg_.table.family)),
      work_stream_(cfg_.table.backend == backend::gpu),
      sample_stream_(cfg_.table.backend == backend::gpu),
      generate_stream_(cfg_.table.backend == backend::gpu),
      tally_stream_(cfg_.table.backend == backend::gpu) {
  workload::validate(cfg_.workload, cfg_.table.key_bits());
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
  for (const given_op& o : ops) check_typed_key(o.key, cfg_.table.key_bits());
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
  workload::validate(spec, cfg_.table.key_bits());
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
  return commands_.resting() && in_flight_.empty() && !pending_rehash_ && !pending_flush_;
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
  idle_cv_.wait(lock, [&] {
    return commands_.resting() && in_flight_.empty() && !pending_rehash_ && !pending_flush_;
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

void session::rebuild(std::uint64_t capacity, std::unique_lock<std::mutex>& lock) {
  const std::uint64_t from = capacity_.load(), batch = st_.batches;
  std::string error;
  unlocked(lock, [&] {
    try {
      table_->rehash(capacity, work_stream_.view());
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  if (!error.empty()) {
    st_.note = error;
    st_.error = true;
    commands_.drop_script();
    return;
  }
  capacity_ = capacity;
  occupied_bound_ = st_.live;
  dead_since_compaction_ = 0;  // a rebuild holds only live entries
  ++version_;
  records_.add_event(batch, rebuild_label(from, capacity));
  st_.note = strprintf("rebuilt: %s live keys in %s slots", format_count(st_.live).c_str(),
                       format_count(capacity).c_str());
}

void session::after_batch(std::unique_lock<std::mutex>& lock, std::uint64_t inserted,
                          double ops_per_s) {
  maintenance_policy policy = cfg_.maintenance;
  // Dead entries only a compaction removes are counted from the statuses: past the threshold the
  // worker flushes once the batches in flight are done (no count of the table every batch).
  if (erases_leave_dead_ && policy.rehash_above > 0) {
    if (double(dead_since_compaction_) > policy.rehash_above * double(capacity_.load()) &&
        !pending_flush_) {
      pending_flush_ = true;
      flush_by_policy_ = true;
    }
    policy.rehash_above = 0;  // not table::maintain's rebuild
  }
  const bool record = cfg_.record_timeline;
  occupied_bound_ += inserted;
  // Churn can fill every slot at a steady load factor; fills stop at their target by themselves.
  const activity act = commands_.act();
  const bool churn =
      act == activity::running || act == activity::scripted || act == activity::stepping;
  // The family's recorder takes every batch (with the counters the batch copied back and the
  // exact live count); a table may have resized itself during the batch (its capacity says so).
  const bool records = recorder_ != nullptr;
  const bool resizes = records || (fam_.resizes_itself && fam_.resizes_itself(cfg_.table));
  const double load_before = records_.last_load();
  if (!policy.active() && !record && !churn && !resizes) return;
  const std::uint64_t batch = st_.batches, bound = occupied_bound_, pending = pending_inserts_;
  maintenance_result r;
  table_stats ts;
  inspect_result hist;
  std::string error, stop;
  std::uint64_t exact = bound;
  unlocked(lock, [&] {
    try {
      if (churn && !policy.active() && fam_.near_full_reason)
        stop = guard_occupancy(bound, pending, exact);
      if (policy.active()) r = table_->maintain(policy, work_stream_.view());
      if (record) ts = table_->stats(work_stream_.view());
      if (resizes) ts.capacity = table_->config().capacity;
      if (record) {
        inspect_request req;
        req.probe_histogram = true;
        table_->inspect(req, hist, work_stream_.view());
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  occupied_bound_ = exact;
  if (!error.empty()) {
    fail("maintenance failed: " + error);
    return;
  }
  if (!stop.empty()) {
    commands_.guard_stop();
    st_.note = stop;
  }
  if (r.what != maintenance_result::action::none) {
    capacity_ = r.to_capacity;
    occupied_bound_ = r.live;
    dead_since_compaction_ = 0;
    records_.add_rebuild(batch, r);
    ++version_;
  }
  if (records) recorder_->record({batch, st_.live, ts.capacity, load_before, counters_after_});
  if (resizes && ts.capacity != capacity_.load() && r.what == maintenance_result::action::none) {
    records_.add_event(batch,
                       strprintf("%s to %s", ts.capacity > capacity_.load() ? "grew" : "shrank",
                                 format_count(ts.capacity).c_str()));
    capacity_ = ts.capacity;  // the table resized itself during the batch
  }
  if (record) {
    const double cap = double(ts.capacity);
    records_.add_census({batch, ts.live / cap, ts.tombstones / cap, ts.erased / cap,
                         hist.histogram.mean(), double(hist.histogram.max), ops_per_s,
                         ts.capacity});
  }
}

batch& session::free_slot() {
  if (spare_.empty())
    spare_.push_back(std::make_unique<batch>(table_->space(), gpu(), fam_.batch_counters));
  in_flight_.push_back(std::move(spare_.back()));
  spare_.pop_back();
  return *in_flight_.back();
}

bool session::issue_next(std::unique_lock<std::mutex>& lock) {
  if (pending_rehash_ || pending_flush_) return false;  // let the batches in flight finish first
  const auto next = commands_.next(progress(), st_.note);
  if (!next || next->plan.size == 0) return false;
  batch& b = free_slot();
  b.plan = next->plan;
  b.given = next->given;
  pending_inserts_ += b.plan.inserts;
  pending_erases_ += b.plan.erases;
  const workload::workload_spec spec = commands_.spec();
  const launch_context ctx{*table_, fam_, cfg_.table, capacity_.load()};
  // capacity_ follows a self-resizing table only as its batches retire: ask the table itself.
  const bool resizes = fam_.resizes_itself && fam_.resizes_itself(cfg_.table);
  lock.unlock();  // generation and, on the CPU backend, the work itself run unlocked
  try {
    b.slots_before = resizes ? table_->config().capacity : ctx.capacity;
    launch(b, spec, next->traced, ctx,
           {work_stream_.view(), generate_stream_.view(), tally_stream_.view()});
    b.slots_after = resizes ? table_->config().capacity : ctx.capacity;
  } catch (...) {
    lock.lock();
    throw;
  }
  lock.lock();
  return true;
}

std::uint64_t session::retire(batch& b) {
  const batch_outcome o = finish(b, b.trace ? traced_steps_ + 1 : 0);
  if (b.trace) {
    ++traced_steps_;
    locate_inserts(*b.trace);
    // The same operations from the same kept state (Back, then Step again) are runs of one step.
    if (!history_.empty() && !history_.off())
      step_runs_.compare_and_keep(*b.trace, history_.back().serial);
    last_step_ = std::move(b.trace);
  }
  std::copy_n(b.family_counts.data(), counters_after_.size(), counters_after_.begin());
  // The loads are taken here, not at launch: on the GPU up to three batches are in flight, and a
  // load read at launch would leave out the ones before it still running. Batches retire in
  // stream order and rebuilds wait for none in flight, so st_.live is the table's before this
  // batch; its slots are those it was launched into and left (a hive may grow inside a batch).
  const double load_before = double(st_.live) / double(std::max<std::uint64_t>(b.slots_before, 1));
  st_.live = st_.live + o.inserted - std::min(st_.live + o.inserted, o.erased);
  if (erases_leave_dead_) dead_since_compaction_ += o.erased;
  st_.failed_full += o.failed_full;
  st_.rejected += o.rejected;
  st_.batches += 1;
  st_.operations += b.plan.size;
  pending_inserts_ -= b.plan.inserts;
  pending_erases_ -= b.plan.erases;
  records_.add_batch({steady_seconds() - t0_, load_before,
                      o.ms > 0 ? b.plan.size / (o.ms * 1e-3) : 0.0, b.plan.size, kind_of(b.plan),
                      double(st_.live) / double(std::max<std::uint64_t>(b.slots_after, 1))});
  ++version_;
  commands_.fill_batch_done(o.inserted, o.failed_full > 0, progress(), fam_.full_note, st_.note);
  return o.inserted;
}

void session::locate_inserts(step_trace& t) {
  if (!fam_.trace_before) return;
  for (stepped_op& op : t.ops) {
    if (op.kind != op_kind::insert || op.probe_before.empty()) continue;
    stepped_op now;  // the walk from its home slot as the table is after the step
    now.kind = op.kind;
    now.key = op.key;
    fam_.trace_before(*table_, cfg_.table, capacity_.load(), now, work_stream_.view());
    for (const slot_record& r : now.probe_before)
      if (r.key == op.key && r.state == slot_state::live) op.slot_after = r.slot;
  }
}

std::string session::guard_occupancy(std::uint64_t bound, std::uint64_t pending,
                                     std::uint64_t& exact) {
  // Stop before 98% of the slots are taken: what is in flight and the next batch still fit.
  // Taken slots hold keys; erased values keep theirs, tombstones are free for inserts.
  const std::uint64_t cap = capacity_.load(), limit = cap - cap / 50;
  const workload::workload_spec spec = workload();
  const auto inserts = static_cast<std::uint64_t>(static_cast<double>(spec.batch_size) *
                                                  spec.mix.insert / spec.mix.total());
  const std::uint64_t margin = std::min(inserts, cap / 10);
  if (bound + pending + margin < limit) return {};
  const table_stats st = table_->stats(work_stream_.view());  // includes the batches in flight
  exact = st.occupied - st.tombstones;
  if (exact + margin < limit) return {};
  return strprintf(
      "stopped: %.1f%% of the slots hold keys (%s), and probes crawl near full; "
      "Reset to start over, rehash, or rebuild with a larger capacity",
      100.0 * double(exact) / double(cap), fam_.near_full_reason(cfg_.table).c_str());
}

void session::worker_loop() {
  std::unique_lock lock(mutex_);
  // Taking turns with other sessions (compare mode): one batch in flight, which holds the turn
  // from before its launch until after_batch is done with it.
  batch_turns* const turns = cfg_.turns.get();
  const std::size_t depth = turns ? 1 : gpu() ? 3 : 1;
  bool holding = false;
  const auto pass_turn = [&] {
    if (holding) turns->release();
    holding = false;
  };
  while (!stop_) {
    if (lost()) {  // noticed here or by anyone else (a sample, another session): stop using it
      abandon_in_flight();
      pass_turn();
      commands_.cancel();
      pending_rehash_ = 0;
      pending_flush_ = false;
      announce_gpu_fault();
    }
    try {
      if (commands_.act() == activity::idle && in_flight_.empty()) start_next_step();
      if (in_flight_.size() < depth) {
        // A turn only when there is work to launch: an idle session would take a ticket at every
        // wake-up and hold the others back for nothing.
        if (turns && !holding && !commands_.resting()) {
          lock.unlock();
          turns->acquire();
          lock.lock();
          holding = true;
        }
        if ((!turns || holding) && issue_next(lock)) continue;
        if (in_flight_.empty()) pass_turn();  // nothing to launch
      }
      if (pending_rehash_ && in_flight_.empty()) {
        const std::uint64_t cap = pending_rehash_;
        pending_rehash_ = 0;
        rebuild(cap, lock);
        continue;
      }
      if (pending_flush_ && in_flight_.empty()) {
        pending_flush_ = false;
        run_flush(lock);
        continue;
      }
      if (!in_flight_.empty()) {
        batch* b = in_flight_.front().get();
        lock.unlock();
        try {
          b->done.wait();
        } catch (...) {
          lock.lock();  // the handler below needs it
          throw;
        }
        lock.lock();
        const std::uint64_t inserted = retire(*b);
        const double rate = records_.throughput().back().ops_per_s;
        spare_.push_back(std::move(in_flight_.front()));
        in_flight_.pop_front();
        after_batch(lock, inserted, rate);
        if (in_flight_.empty()) pass_turn();
        continue;
      }
    } catch (const std::exception& e) {
      abandon_in_flight();
      pass_turn();
      fail(e.what());
    }
    const bool work = !commands_.resting() || pending_rehash_ || pending_flush_;
    if (commands_.act() != activity::idle || pending_rehash_ || pending_flush_ ||
        (in_flight_.empty() && work))
      continue;
    pass_turn();
    take_point();  // at rest between commands: the state before the next
    idle_cv_.notify_all();
    wake_.wait(lock,
               [&] { return stop_ || !commands_.resting() || pending_rehash_ || pending_flush_; });
  }
  pass_turn();  // stopped with a batch of its own in flight: the others go on
}

void session::sample(const sample_request& req, sample_result& out) { sample(req, out, pixels_); }

void session::sample(const sample_request& req, sample_result& out,
                     buffer<occupancy_pixel>& pixels) {
  if (lost()) throw gpu_fault(gpu_lost_note());
  const stream_view s = sample_stream_.view();
  sample_result r;              // the caller's result changes only if the sample is good
  r.version = version_.load();  // before reading: the sample shows this version or a newer one
  {
    std::lock_guard lock(mutex_);
    r.operations = st_.operations;
  }
  inspect_request ir = req;
  if (req.occupancy) {
    occupancy_query q = *req.occupancy;
    const std::uint64_t n = std::uint64_t{q.width} * q.height;
    if (pixels.size() < n || pixels.space() != table_->space())
      pixels = buffer<occupancy_pixel>(table_->space(), n);
    q.out = pixels.data();
    ir.occupancy = q;
  }
  table_->inspect(ir, r.inspected, s);
  r.stats = table_->stats(s);
  r.pixels = req.occupancy ? pixels.data() : nullptr;
  r.space = table_->space();
  r.taken_at = steady_seconds();
  // Finished after the fault: it may have read a table a faulting batch left half changed.
  if (lost()) throw gpu_fault(gpu_lost_note());
  out = std::move(r);
}

}  // namespace hs::app
