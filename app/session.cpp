// The session worker: plans batches from the current command, keeps up to three in flight on the
// work stream (one on the CPU backend, where work runs on this thread), and retires them in order,
// counting statuses to track the exact live key count and recording each batch's throughput.
#include "app/session.hpp"

#include <algorithm>
#include <chrono>

#include "app/families/family_ui.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::app {

namespace {
double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
constexpr std::size_t k_series_max = 20000;
}  // namespace

double max_fill_load(family f) { return describe(f).max_fill_load; }

const char* to_string(activity a) {
  switch (a) {
    case activity::idle: return "idle";
    case activity::running: return "running";
    case activity::filling: return "filling";
    case activity::draining: return "draining";
    case activity::stepping: return "stepping";
    case activity::scripted: return "running a script";
  }
  return "?";
}

struct session::batch {
  memory_space space;
  std::uint64_t room = 0;
  buffer<op_kind> kinds;
  buffer<key_type> keys;
  buffer<value_type> values, results;
  buffer<op_status> status;
  buffer<std::uint64_t> scratch, counts;
  buffer<std::uint64_t> family_counts;  // the family's batch counters after this batch
  stream_timer timer;
  stream_event done;
  workload::batch_plan plan;
  std::uint8_t kind = 0;
  double load_before = 0;
  std::shared_ptr<step_trace> trace;  // a traced step: completed by retire()

  batch(memory_space s, bool gpu, std::size_t family_counters)
      : space(s),
        scratch(s, k_op_status_count),
        counts(gpu ? memory_space::pinned : memory_space::host, k_op_status_count),
        family_counts(gpu ? memory_space::pinned : memory_space::host, std::max<std::size_t>(family_counters, 1)),
        timer(gpu),
        done(gpu) {}
  void reserve(std::uint64_t n) {
    if (n <= room) return;
    kinds = buffer<op_kind>(space, n);
    keys = buffer<key_type>(space, n);
    values = buffer<value_type>(space, n);
    results = buffer<value_type>(space, n);
    status = buffer<op_status>(space, n);
    room = n;
  }
};

session::session(session_config cfg)
    : cfg_(std::move(cfg)),
      fam_(describe(cfg_.table.family)),
      work_stream_(cfg_.table.backend == backend::gpu),
      sample_stream_(cfg_.table.backend == backend::gpu) {
  workload::validate(cfg_.workload);
  table_ = make_table(cfg_.table);
  if (const auto make = ui_of(cfg_.table.family).make_recorder) recorder_ = make();
  counters_after_.assign(fam_.batch_counters, 0);
  cfg_.table = table_->config();  // capacity 0 resolved to the default
  capacity_ = cfg_.table.capacity;
  backend_label_ = hs::backend_label(cfg_.table.backend);
  spec_ = cfg_.workload;
  t0_ = now_s();
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

void session::run() {
  std::lock_guard lock(mutex_);
  script_.clear();
  script_held_ = false;
  act_ = activity::running;
  st_.note.clear();
  st_.error = false;
  wake_.notify_all();
}

void session::pause() {
  std::lock_guard lock(mutex_);
  script_.clear();
  act_ = activity::idle;
}

void session::step(std::uint64_t ops) {
  std::lock_guard lock(mutex_);
  script_.clear();
  act_ = activity::stepping;
  step_ops_ = ops;
  wake_.notify_all();
}

void session::fill_to(double load) {
  std::lock_guard lock(mutex_);
  script_.clear();
  start_fill(load);
  stalled_ = 0;
  st_.note.clear();
  st_.error = false;
  wake_.notify_all();
}

void session::queue(std::vector<script_step> steps) {
  std::lock_guard lock(mutex_);
  for (auto& s : steps) script_.push_back(s);
  script_held_ = false;
  wake_.notify_all();
}

void session::continue_script() {
  std::lock_guard lock(mutex_);
  script_held_ = false;
  wake_.notify_all();
}

void session::set_workload(const workload::workload_spec& spec) {
  workload::validate(spec);
  std::lock_guard lock(mutex_);
  spec_ = spec;
}

workload::workload_spec session::workload() const {
  std::lock_guard lock(mutex_);
  return spec_;
}

void session::set_maintenance(const maintenance_policy& p) {
  std::lock_guard lock(mutex_);
  cfg_.maintenance = p;
}

maintenance_policy session::maintenance() const {
  std::lock_guard lock(mutex_);
  return cfg_.maintenance;
}

void session::set_record_timeline(bool on) {
  std::lock_guard lock(mutex_);
  cfg_.record_timeline = on;
}

bool session::recording_timeline() const {
  std::lock_guard lock(mutex_);
  return cfg_.record_timeline;
}

void session::rehash(std::uint64_t capacity) {
  // Taken between batches, whatever the session is doing: new batches wait until it is done.
  std::lock_guard lock(mutex_);
  pending_rehash_ = capacity ? capacity : capacity_.load();
  wake_.notify_all();
}

std::vector<vis::churn_point> session::timeline() const {
  std::lock_guard lock(mutex_);
  return timeline_;
}

std::vector<vis::churn_event> session::rebuilds() const {
  std::lock_guard lock(mutex_);
  return rebuilds_;
}

std::shared_ptr<const step_trace> session::last_step() const {
  std::lock_guard lock(mutex_);
  return last_step_;
}

void session::flush() {
  if (!fam_.flush) throw user_error("FLUSH is not an operation of the " + std::string(fam_.name) + " family");
  std::lock_guard lock(mutex_);
  pending_flush_ = true;
  wake_.notify_all();
}

void session::run_flush(std::unique_lock<std::mutex>& lock) {
  lock.unlock();
  std::string error;
  try {
    fam_.flush(*table_, work_stream_.view());
  } catch (const std::exception& e) {
    error = e.what();
  }
  lock.lock();
  if (!error.empty()) {
    st_.note = "flush failed: " + error;
    st_.error = true;
    script_.clear();
    return;
  }
  rebuilds_.push_back({st_.batches, "flush"});
  st_.note = std::string(fam_.flush_note);
}

void session::reset() {
  std::unique_lock lock(mutex_);
  script_.clear();
  script_held_ = false;
  act_ = activity::idle;
  idle_cv_.wait(lock, [&] { return in_flight_.empty(); });
  table_->clear(work_stream_.view());
  synchronize(work_stream_.view());
  cursor_.reset();
  series_.clear();
  timeline_.clear();
  rebuilds_.clear();
  if (recorder_) recorder_->clear();
  std::fill(counters_after_.begin(), counters_after_.end(), 0);
  last_step_.reset();
  st_ = {};
  occupied_bound_ = 0;
  pending_inserts_ = pending_erases_ = 0;
  t0_ = now_s();
}

void session::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_cv_.wait(lock, [&] {
    return act_ == activity::idle && (script_.empty() || script_held_) && in_flight_.empty() && !pending_rehash_ &&
           !pending_flush_;
  });
}

session_status session::status() const {
  std::lock_guard lock(mutex_);
  session_status s = st_;
  s.act = act_;
  s.script_left = script_.size();
  s.script_held = script_held_;
  return s;
}

std::vector<vis::throughput_point> session::throughput() const {
  std::lock_guard lock(mutex_);
  return series_;
}

// A fill or drain aims at a number of keys fixed now: if the table grows or shrinks on the way,
// the target does not move with it. Call with mutex_ held.
void session::start_fill(double load) {
  const double target = std::clamp(load, 0.0, max_fill_load(cfg_.table.family));
  st_.target_load = target;
  target_keys_ = static_cast<std::uint64_t>(target * static_cast<double>(capacity_.load()));
  act_ = target_keys_ >= st_.live ? activity::filling : activity::draining;
}

// Ends the current command. Call with mutex_ held.
void session::finish_command(std::string note) {
  if (!note.empty()) st_.note = std::move(note);
  act_ = activity::idle;
}

void session::start_next_step() {
  while (!script_.empty() && !script_held_ && act_ == activity::idle) {
    const script_step s = script_.front();
    script_.pop_front();
    switch (s.kind) {
      case script_step::fill:
      case script_step::drain:
        start_fill(s.load);
        stalled_ = 0;
        break;
      case script_step::run:
        act_ = activity::scripted;
        batches_left_ = s.batches;
        break;
      case script_step::step:
        act_ = activity::stepping;
        step_ops_ = s.batches;
        break;
      case script_step::clear:
        table_->clear(work_stream_.view());
        synchronize(work_stream_.view());
        cursor_.reset();
        st_.live = 0;
        occupied_bound_ = 0;
        break;
      case script_step::pause:
        script_held_ = true;
        st_.note = "stage finished: continue to run the next one";
        break;
      case script_step::rehash:
        pending_rehash_ = s.batches ? s.batches : capacity_.load();
        return;  // the worker rebuilds outside the lock
      case script_step::flush:
        pending_flush_ = true;
        return;
    }
  }
}

void session::rebuild(std::uint64_t capacity, std::unique_lock<std::mutex>& lock) {
  const std::uint64_t from = capacity_.load(), batch = st_.batches;
  lock.unlock();
  std::string error;
  try {
    table_->rehash(capacity, work_stream_.view());
  } catch (const std::exception& e) {
    error = e.what();
  }
  lock.lock();
  if (!error.empty()) {
    st_.note = error;
    st_.error = true;
    script_.clear();
    return;
  }
  capacity_ = capacity;
  occupied_bound_ = st_.live;
  rebuilds_.push_back({batch, capacity == from ? std::string("rehash")
                                               : strprintf("%s to %s", capacity > from ? "grow" : "shrink",
                                                           format_count(capacity).c_str())});
  st_.note = strprintf("rebuilt: %s live keys in %s slots", format_count(st_.live).c_str(), format_count(capacity).c_str());
}

void session::after_batch(std::unique_lock<std::mutex>& lock, std::uint64_t inserted, double ops_per_s) {
  const maintenance_policy policy = cfg_.maintenance;
  const bool record = cfg_.record_timeline;
  occupied_bound_ += inserted;
  // Churn can fill every slot at a steady load factor; fills stop at their target by themselves.
  const bool churn = act_ == activity::running || act_ == activity::scripted || act_ == activity::stepping;
  // The family's recorder takes every batch (with the counters the batch copied back and the
  // exact live count); a table may have resized itself during the batch (its capacity says so).
  const bool records = recorder_ != nullptr;
  const bool resizes = records || (fam_.resizes_itself && fam_.resizes_itself(cfg_.table));
  const double load_before = series_.empty() ? 0.0 : series_.back().load;
  if (!policy.active() && !record && !churn && !resizes) return;
  const std::uint64_t batch = st_.batches, bound = occupied_bound_, pending = pending_inserts_;
  lock.unlock();
  maintenance_result r;
  table_stats ts;
  inspect_result hist;
  std::string error, stop;
  std::uint64_t exact = bound;
  try {
    if (churn && !policy.active() && fam_.near_full_reason) stop = guard_occupancy(bound, pending, exact);
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
  lock.lock();
  occupied_bound_ = exact;
  if (!error.empty()) {
    st_.note = "maintenance failed: " + error;
    st_.error = true;
    script_.clear();
    act_ = activity::idle;
    return;
  }
  if (!stop.empty()) {
    script_.clear();
    finish_command(stop);
  }
  if (r.what != maintenance_result::action::none) {
    capacity_ = r.to_capacity;
    occupied_bound_ = r.live;
    rebuilds_.push_back({batch, r.what == maintenance_result::action::rehash
                                    ? std::string("rehash")
                                    : strprintf("%s to %s", std::string(to_string(r.what)).c_str(),
                                                format_count(r.to_capacity).c_str())});
  }
  if (records) recorder_->record({batch, st_.live, ts.capacity, load_before, counters_after_});
  if (resizes) {
    if (ts.capacity != capacity_.load() && r.what == maintenance_result::action::none) {
      rebuilds_.push_back({batch, strprintf("%s to %s", ts.capacity > capacity_.load() ? "grew" : "shrank",
                                            format_count(ts.capacity).c_str())});
      capacity_ = ts.capacity;  // the table resized itself during the batch
    }
  }
  if (record) {
    const double cap = double(ts.capacity);
    timeline_.push_back({batch, ts.live / cap, ts.tombstones / cap, ts.erased / cap, hist.histogram.mean(),
                         double(hist.histogram.max), ops_per_s, ts.capacity});
    if (timeline_.size() > k_series_max) timeline_.erase(timeline_.begin(), timeline_.begin() + k_series_max / 4);
  }
}

std::optional<workload::batch_plan> session::plan_next(std::uint64_t& kind) {
  const std::uint64_t cap = capacity_.load();
  switch (act_) {
    case activity::idle: return std::nullopt;
    case activity::running: kind = 3; return cursor_.next(spec_);
    case activity::scripted:
      if (batches_left_ == 0) {
        if (in_flight_.empty()) finish_command();
        return std::nullopt;
      }
      --batches_left_;
      kind = 3;
      return cursor_.next(spec_);
    case activity::stepping:
      act_ = activity::idle;
      kind = 3;
      return cursor_.next(spec_, step_ops_);
    case activity::filling: {
      const std::uint64_t want = target_keys_;
      const std::uint64_t have = st_.live + pending_inserts_;
      if (have >= want) {
        if (in_flight_.empty()) finish_command(strprintf("filled to load %.3f", double(st_.live) / cap));
        return std::nullopt;
      }
      kind = 0;
      return cursor_.next(spec_, std::min(spec_.batch_size, want - have), workload::op_mix{1, 0, 0, 0});
    }
    case activity::draining: {
      const std::uint64_t want = target_keys_;
      const std::uint64_t have = st_.live > pending_erases_ ? st_.live - pending_erases_ : 0;
      const std::uint64_t erasable = cursor_.inserted() - cursor_.erased();
      if (have <= want || erasable == 0) {
        if (in_flight_.empty())
          finish_command(have <= want ? strprintf("drained to load %.3f", double(st_.live) / cap)
                                      : std::string("drain stopped: every key this workload inserted is erased"));
        return std::nullopt;
      }
      kind = 2;
      return cursor_.next(spec_, std::min({spec_.batch_size, have - want, erasable}), workload::op_mix{0, 0, 0, 1});
    }
  }
  return std::nullopt;
}

session::batch& session::free_slot() {
  if (spare_.empty()) spare_.push_back(std::make_unique<batch>(table_->space(), gpu(), fam_.batch_counters));
  in_flight_.push_back(std::move(spare_.back()));
  spare_.pop_back();
  return *in_flight_.back();
}

bool session::issue_next(std::unique_lock<std::mutex>& lock) {
  if (pending_rehash_ || pending_flush_) return false;  // let the batches in flight finish first
  std::uint64_t kind = 0;
  const bool traced = act_ == activity::stepping && step_ops_ > 0 && step_ops_ <= k_traced_step_ops;
  const auto plan = plan_next(kind);
  if (!plan || plan->size == 0) return false;
  batch& b = free_slot();
  b.plan = *plan;
  b.kind = static_cast<std::uint8_t>(kind);
  b.load_before = double(st_.live) / double(capacity_.load());
  pending_inserts_ += plan->inserts;
  pending_erases_ += plan->erases;
  const workload::workload_spec spec = spec_;
  lock.unlock();  // generation and, on the CPU backend, the work itself run unlocked
  try {
    const stream_view s = work_stream_.view();
    const std::uint64_t n = plan->size;
    b.reserve(n);
    workload::generate(spec, *plan, table_->space(), {b.kinds.span(), b.keys.span(), b.values.span()}, s);
    b.trace = traced ? trace_before(b, n, s) : nullptr;
    const auto keys = b.keys.cspan().first(n);
    const auto st = b.status.span().first(n);
    b.timer.start(s);
    if (plan->only(op_kind::insert)) table_->insert(keys, b.values.cspan().first(n), st, s);
    else if (plan->only(op_kind::erase)) table_->erase(keys, st, s);
    else if (plan->only(op_kind::find)) table_->find(keys, b.results.span().first(n), st, s);
    else table_->apply({b.kinds.cspan().first(n), keys, b.values.cspan().first(n)}, b.results.span().first(n), st, s);
    b.timer.stop(s);
    count_statuses(st, table_->space(), b.scratch.data(), b.counts.data(), b.counts.space(), s);
    if (fam_.copy_batch_counters) fam_.copy_batch_counters(*table_, b.family_counts.data(), s);
    b.done.record(s);
  } catch (...) {
    lock.lock();
    throw;
  }
  lock.lock();
  return true;
}

std::shared_ptr<step_trace> session::trace_before(batch& b, std::uint64_t n, stream_view s) {
  auto t = std::make_shared<step_trace>();
  const auto kinds = b.kinds.download(n, s);
  const auto keys = b.keys.download(n, s);
  const auto values = b.values.download(n, s);
  const std::uint64_t capacity = capacity_.load();
  for (std::uint64_t i = 0; i < n; ++i) {
    stepped_op op;
    op.kind = kinds[i];
    op.key = keys[i];
    op.value = values[i];
    if (fam_.trace_before) fam_.trace_before(*table_, cfg_.table, capacity, op, s);
    t->ops.push_back(std::move(op));
  }
  return t;
}

std::uint64_t session::retire(batch& b) {
  const double ms = b.timer.elapsed_ms();  // the calls that can fail come before any counting
  if (b.trace) {
    const std::uint64_t n = b.trace->ops.size();
    const auto status = b.status.download(n);
    const auto results = b.results.download(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      b.trace->ops[i].status = status[i];
      b.trace->ops[i].result = b.trace->ops[i].kind == op_kind::find ? results[i] : 0;
    }
    b.trace->serial = ++traced_steps_;
    last_step_ = std::move(b.trace);
  }
  std::copy_n(b.family_counts.data(), counters_after_.size(), counters_after_.begin());
  const std::uint64_t* c = b.counts.data();
  const std::uint64_t inserted = c[static_cast<int>(op_status::inserted)];
  const std::uint64_t erased = c[static_cast<int>(op_status::erased)];
  st_.live = st_.live + inserted - std::min(st_.live + inserted, erased);
  st_.failed_full += c[static_cast<int>(op_status::failed_full)];
  st_.rejected += c[static_cast<int>(op_status::rejected_key)] + c[static_cast<int>(op_status::rejected_value)];
  st_.batches += 1;
  st_.operations += b.plan.size;
  pending_inserts_ -= b.plan.inserts;
  pending_erases_ -= b.plan.erases;
  series_.push_back({now_s() - t0_, b.load_before, ms > 0 ? b.plan.size / (ms * 1e-3) : 0.0, b.plan.size, b.kind});
  if (series_.size() > k_series_max) series_.erase(series_.begin(), series_.begin() + k_series_max / 4);

  if (act_ == activity::filling) {
    if (c[static_cast<int>(op_status::failed_full)]) {
      script_.clear();
      finish_command(std::string(fam_.full_note));
      return inserted;
    }
    stalled_ = inserted == 0 ? stalled_ + 1 : 0;
    if (stalled_ >= 3) {
      script_.clear();
      finish_command(strprintf("fill stopped at load %.3f: the workload's keys repeat (universe %s), so inserts "
                               "only overwrite; choose a larger universe or another distribution",
                               double(st_.live) / capacity_.load(), format_count(spec_.keys.universe).c_str()));
    }
  }
  return inserted;
}

std::string session::guard_occupancy(std::uint64_t bound, std::uint64_t pending, std::uint64_t& exact) {
  // Stop before 98% of the slots are taken: what is in flight and the next batch still fit.
  // Taken slots hold keys; erased values keep theirs, tombstones are free for inserts.
  const std::uint64_t cap = capacity_.load(), limit = cap - cap / 50;
  const auto inserts = static_cast<std::uint64_t>(static_cast<double>(spec_.batch_size) * spec_.mix.insert / spec_.mix.total());
  const std::uint64_t margin = std::min(inserts, cap / 10);
  if (bound + pending + margin < limit) return {};
  const table_stats st = table_->stats(work_stream_.view());  // includes the batches in flight
  exact = st.occupied - st.tombstones;
  if (exact + margin < limit) return {};
  return strprintf("stopped: %.1f%% of the slots hold keys (%s), and probes crawl near full; "
                   "Reset to start over, rehash, or rebuild with a larger capacity",
                   100.0 * double(exact) / double(cap), fam_.near_full_reason(cfg_.table).c_str());
}

void session::worker_loop() {
  std::unique_lock lock(mutex_);
  const std::size_t depth = gpu() ? 3 : 1;
  while (!stop_) {
    try {
      if (act_ == activity::idle && in_flight_.empty()) start_next_step();
      if (in_flight_.size() < depth && issue_next(lock)) continue;
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
        const double rate = series_.back().ops_per_s;
        spare_.push_back(std::move(in_flight_.front()));
        in_flight_.pop_front();
        after_batch(lock, inserted, rate);
        continue;
      }
    } catch (const std::exception& e) {
      // Drop what is in flight (its results are meaningless after a failure) and tell the user.
      for (auto& b : in_flight_) {
        pending_inserts_ -= b->plan.inserts;
        pending_erases_ -= b->plan.erases;
        try {
          b->done.wait();
        } catch (...) {
        }
        spare_.push_back(std::move(b));
      }
      in_flight_.clear();
      script_.clear();
      act_ = activity::idle;
      st_.note = e.what();
      st_.error = true;
    }
    if (act_ != activity::idle || pending_rehash_ || pending_flush_ || (in_flight_.empty() && !script_.empty() && !script_held_))
      continue;
    idle_cv_.notify_all();
    wake_.wait(lock, [&] {
      return stop_ || act_ != activity::idle || pending_rehash_ || pending_flush_ || (!script_.empty() && !script_held_);
    });
  }
}

void session::sample(const sample_request& req, sample_result& out) { sample(req, out, pixels_); }

void session::sample(const sample_request& req, sample_result& out, buffer<occupancy_pixel>& pixels) {
  const stream_view s = sample_stream_.view();
  inspect_request ir = req;
  if (req.occupancy) {
    occupancy_query q = *req.occupancy;
    const std::uint64_t n = std::uint64_t{q.width} * q.height;
    if (pixels.size() < n || pixels.space() != table_->space()) pixels = buffer<occupancy_pixel>(table_->space(), n);
    q.out = pixels.data();
    ir.occupancy = q;
  }
  table_->inspect(ir, out.inspected, s);
  out.stats = table_->stats(s);
  out.pixels = req.occupancy ? pixels.data() : nullptr;
  out.space = table_->space();
}

}  // namespace hs::app
