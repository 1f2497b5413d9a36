// The command state machine: plans batches from the workload's cursor for the current command.
#include "app/session/command_state.hpp"

#include <algorithm>

#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/step_trace.hpp"

namespace hs::app {

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

void command_state::journal(const script_step& s) {
  open_run_.reset();
  journal_.push_back({s, {spec_, maintenance_, record_timeline_}});
}

void command_state::run() {
  script_.clear();
  held_ = false;
  act_ = activity::running;
  journal({script_step::run, 0, 0});  // counted as its batches are planned
  open_run_ = journal_.size() - 1;
}

void command_state::pause() {
  script_.clear();
  act_ = activity::idle;
  open_run_.reset();
}

void command_state::step(std::uint64_t ops) {
  script_.clear();
  act_ = activity::stepping;
  step_ops_ = ops;
  // A traced step replays as `step OPS`; a step of one batch (or of more operations than a
  // traced step takes) as the one batch it is.
  journal(ops > 0 && ops <= k_traced_step_ops ? script_step{script_step::step, 0, ops}
                                              : script_step{script_step::run, 0, 1});
}

void command_state::step(std::vector<given_op> ops) {
  script_.clear();
  act_ = activity::stepping;
  step_ops_ = ops.size();
  script_step s{script_step::step, 0, ops.size()};
  s.given = ops;
  journal(s);
  given_ = std::move(ops);
}

given_op typed_op(op_kind kind, std::uint64_t key) {
  // 31-bit values, so the same key stores the same value in a table of either width.
  return {kind, key,
          kind == op_kind::insert ? workload::random_u32(0x7e7ed, 6, key) & 0x7fffffffu : k_empty};
}

void check_typed_key(std::uint64_t key, key_width w) {
  const std::string text = key_text(key, key_radix::hex, true);
  if (!fits_width(key, w))  // only a narrower width than the widest fails, so the hint holds
    throw user_error("key " + text + " does not fit this table: it holds " +
                     std::string(to_string(w)) + "-bit keys (up to " +
                     key_text(empty_key_of(w) - 2, key_radix::hex, true) +
                     "); a table of key-bits 64 takes it");
  if (is_reserved_key_of(key, w)) throw user_error(text + " is a reserved key");
}

workload::batch_plan plan_of(const std::vector<given_op>& ops, std::uint64_t index) {
  workload::batch_plan p;
  p.index = index;
  p.size = ops.size();
  for (const given_op& o : ops) {
    if (o.kind == op_kind::insert) ++p.inserts;
    if (o.kind == op_kind::find) ++p.hits;
    if (o.kind == op_kind::erase) ++p.erases;
  }
  return p;
}

void command_state::fill_to(double load, const table_progress& p, double max_load) {
  script_.clear();
  start_fill(load, p, max_load);
  journal({act_ == activity::filling ? script_step::fill : script_step::drain, target_load_, 0});
}

void command_state::queue(const std::vector<script_step>& steps) {
  for (const auto& s : steps) script_.push_back(s);
  held_ = false;
}

void command_state::replay(const std::vector<script_step>& steps) {
  if (held_) {
    script_step pause;
    pause.kind = script_step::pause;
    pause.views = stage_views_;
    script_.push_front(pause);
    --stages_reached_;  // the same stage, reached again
  }
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) script_.push_front(*it);
  held_ = false;
}

void command_state::continue_script() { held_ = false; }

void command_state::cancel() {
  script_.clear();
  act_ = activity::idle;
  open_run_.reset();
}

void command_state::guard_stop() {
  if (act_ == activity::scripted && batches_left_ == 0) {
    act_ = activity::idle;
    return;
  }
  cancel();
}

void command_state::reset() {
  script_.clear();
  held_ = false;
  act_ = activity::idle;
  target_load_ = 0;
  cursor_.reset();
  journal_.clear();
  open_run_.reset();
}

std::vector<journal_entry> command_state::rewind(const workload::cursor& c,
                                                 std::size_t journal_length) {
  act_ = activity::idle;
  open_run_.reset();
  cursor_ = c;
  std::vector<journal_entry> undone;
  if (journal_length < journal_.size()) {
    undone.assign(journal_.begin() + long(journal_length), journal_.end());
    journal_.resize(journal_length);
  }
  return undone;
}

// A fill or drain aims at a number of keys fixed now: if the table grows or shrinks on the way,
// the target does not move with it.
void command_state::start_fill(double load, const table_progress& p, double max_load) {
  const double target = std::clamp(load, 0.0, max_load);
  target_load_ = target;
  target_keys_ = static_cast<std::uint64_t>(target * static_cast<double>(p.capacity));
  act_ = target_keys_ >= p.live ? activity::filling : activity::draining;
  stalled_ = 0;
}

void command_state::finish(std::string& note, std::string text) {
  if (!text.empty()) note = std::move(text);
  act_ = activity::idle;
}

std::optional<script_step> command_state::take_script_step(const table_progress& p, double max_load,
                                                           std::string& note) {
  while (!script_.empty() && !held_ && act_ == activity::idle) {
    const script_step s = script_.front();
    script_.pop_front();
    if (s.kind == script_step::configure && s.configure_to) {
      spec_ = s.configure_to->workload;  // the session takes the rest; entries after it record them
      maintenance_ = s.configure_to->maintenance;
      record_timeline_ = s.configure_to->record_timeline;
    } else if (s.kind != script_step::pause && s.kind != script_step::ask &&
               s.kind != script_step::back && s.kind != script_step::save_table) {
      journal(s);  // a question is no command: a saved session replays the steps alone
    }
    switch (s.kind) {
      case script_step::fill:
      case script_step::drain: start_fill(s.load, p, max_load); break;
      case script_step::run:
        act_ = activity::scripted;
        batches_left_ = s.batches;
        break;
      case script_step::step:
        act_ = activity::stepping;
        step_ops_ = s.batches;
        given_ = s.given;
        break;
      case script_step::pause:
        held_ = true;
        stage_views_ = s.views;
        ++stages_reached_;
        note = "stage finished: continue to run the next one";
        break;
      case script_step::ask:  // the step waits for the class's answer
        held_ = true;
        note = "a question: answer it, and the step shows whether it was right";
        return s;
      case script_step::clear: cursor_.reset(); return s;
      case script_step::rehash:
      case script_step::regpus:
      case script_step::flush:
      case script_step::say:
      case script_step::configure:
      case script_step::back:
      case script_step::load_table:
      case script_step::save_table: return s;
    }
  }
  return std::nullopt;
}

std::optional<planned_batch> command_state::next(const table_progress& p, std::string& note) {
  planned_batch b;
  switch (act_) {
    case activity::idle: return std::nullopt;
    case activity::running:
      if (open_run_) ++journal_[*open_run_].step.batches;
      b.plan = cursor_.next(spec_);
      return b;
    case activity::scripted:
      if (batches_left_ == 0) {
        if (!p.in_flight) finish(note, {});
        return std::nullopt;
      }
      --batches_left_;
      b.plan = cursor_.next(spec_);
      return b;
    case activity::stepping:
      act_ = activity::idle;
      b.traced = step_ops_ > 0 && step_ops_ <= k_traced_step_ops;
      if (!given_.empty()) {
        b.plan = plan_of(given_, cursor_.batches());
        b.given = std::make_shared<const std::vector<given_op>>(std::move(given_));
        given_.clear();
        return b;
      }
      b.plan = cursor_.next(spec_, step_ops_);
      return b;
    case activity::filling: {
      const std::uint64_t have = p.live + p.pending_inserts;
      if (have >= target_keys_) {
        if (!p.in_flight)
          finish(note, strprintf("filled to load %.3f", double(p.live) / double(p.capacity)));
        return std::nullopt;
      }
      b.plan = cursor_.next(spec_, std::min(spec_.batch_size, target_keys_ - have),
                            workload::op_mix{1, 0, 0, 0});
      return b;
    }
    case activity::draining: {
      const std::uint64_t have = p.live > p.pending_erases ? p.live - p.pending_erases : 0;
      const std::uint64_t erasable = cursor_.inserted() - cursor_.erased();
      if (have <= target_keys_ || erasable == 0) {
        if (!p.in_flight)
          finish(note,
                 have <= target_keys_
                     ? strprintf("drained to load %.3f", double(p.live) / double(p.capacity))
                     : std::string("drain stopped: every key this workload inserted is erased"));
        return std::nullopt;
      }
      b.plan = cursor_.next(spec_, std::min({spec_.batch_size, have - target_keys_, erasable}),
                            workload::op_mix{0, 0, 0, 1});
      return b;
    }
  }
  return std::nullopt;
}

void command_state::fill_batch_done(std::uint64_t inserted, bool failed_full,
                                    const table_progress& p, std::string_view full_note,
                                    std::string& note) {
  if (act_ != activity::filling) return;
  if (failed_full) {
    script_.clear();
    finish(note, std::string(full_note));
    return;
  }
  stalled_ = inserted == 0 ? stalled_ + 1 : 0;
  if (stalled_ >= 3) {
    script_.clear();
    const bool file = spec_.keys.dist == workload::distribution::file && spec_.key_file;
    finish(note,
           file ? strprintf("fill stopped at load %.3f: every key of the key file (%s keys) is in "
                            "the table, so inserts only overwrite",
                            double(p.live) / double(p.capacity),
                            format_count(spec_.key_file->size()).c_str())
                : strprintf("fill stopped at load %.3f: the workload's keys repeat (universe %s), "
                            "so inserts only overwrite; choose a larger universe or another "
                            "distribution",
                            double(p.live) / double(p.capacity),
                            format_count(spec_.keys.universe).c_str()));
  }
}

}  // namespace hs::app
