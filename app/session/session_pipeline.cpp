// The session's pipeline: the worker takes the command's next batch from the state machine,
// keeps up to three in flight on the work stream (one on the CPU backend, where work runs on this
// thread), retires them in order (counting statuses to track the exact live key count and
// recording each batch), and between batches runs what must wait for none in flight: rebuilds,
// maintenance, the occupancy guard.
#include <algorithm>
#include <utility>

#include "app/session/batch.hpp"
#include "app/session/gpu_fault_notice.hpp"
#include "app/session/session.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/shard/sharded_view.hpp"

namespace hs::app {

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

bool session::run_table_work(std::unique_lock<std::mutex>& lock) {
  if (pending_rehash_) {
    const std::uint64_t cap = std::exchange(pending_rehash_, 0);
    rebuild(cap, lock);
  } else if (pending_flush_) {
    pending_flush_ = false;
    run_flush(lock);
  } else if (pending_regpus_) {
    move_devices(std::exchange(pending_regpus_, 0), lock);
  } else {
    return false;
  }
  return true;
}

void session::move_devices(std::uint32_t devices, std::unique_lock<std::mutex>& lock) {
  sharded_view* sharded = as_sharded(*table_);
  if (!sharded) {
    fail("regpus " + std::to_string(devices) +
         ": the table is on one device; make it over several (gpus N, --gpus N) to move it");
    return;
  }
  regpus_result moved;
  table_stats after;
  std::string error;
  unlocked(lock, [&] {
    try {
      moved = sharded->regpus(devices, work_stream_.view());
      after = table_->stats(work_stream_.view());
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  if (!error.empty()) {
    ++version_;  // a move put back was rebuilt on its old devices: the views sample it again
    fail("regpus " + std::to_string(devices) + ": " + error);
    return;
  }
  cfg_.table.devices = devices;
  st_.live = after.live;
  capacity_ = after.capacity;
  occupied_bound_ = after.occupied;
  dead_since_compaction_ = 0;  // the shards were rebuilt
  ++version_;
  records_.add_event(st_.batches, strprintf("regpus %u -> %u", moved.from, moved.to));
  st_.note = strprintf("moved from %u to %u devices: %u of %u virtual shards, %s of %s pairs, %s",
                       moved.from, moved.to, moved.virtual_shards_moved, k_virtual_shards,
                       format_count(moved.keys_moved).c_str(), format_count(moved.keys).c_str(),
                       format_bytes(moved.bytes_moved).c_str());
  history_.clear();
  history_.set_limit(
      strprintf("regpus moved the table to %u devices: Back starts from there", devices));
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
  if (table_work_pending()) return false;  // let the batches in flight finish first
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
      pending_regpus_ = 0;
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
      if (in_flight_.empty() && run_table_work(lock)) continue;
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
    const bool work = !commands_.resting() || table_work_pending();
    if (commands_.act() != activity::idle || table_work_pending() || (in_flight_.empty() && work))
      continue;
    pass_turn();
    take_point();  // at rest between commands: the state before the next
    idle_cv_.notify_all();
    wake_.wait(lock, [&] { return stop_ || !commands_.resting() || table_work_pending(); });
  }
  pass_turn();  // stopped with a batch of its own in flight: the others go on
}

}  // namespace hs::app
