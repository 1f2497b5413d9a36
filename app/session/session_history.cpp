// The session's history (history.hpp): a state kept at every rest between commands, Back and
// Forward, the timeline's marks, and table files read and written between batches.
#include <algorithm>

#include "app/session/session.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/table_file.hpp"

namespace hs::app {

void session::come_to_rest(std::unique_lock<std::mutex>& lock) {
  // A running command stops; a held script stays where it is, but Forward's replay, if it has
  // commands left, stops too (they stay in redo_: each leaves it only as it starts).
  if (commands_.act() != activity::idle || replay_left_ > 0) commands_.pause();
  replay_left_ = 0;
  idle_cv_.wait(lock,
                [&] { return in_flight_.empty() && !table_work_pending() && outside_lock_ == 0; });
}

void session::consume_replayed(std::size_t journal_before) {
  const std::size_t now = commands_.journal().size();
  for (std::size_t grown = now > journal_before ? now - journal_before : 0;
       grown > 0 && replay_left_ > 0 && !redo_.empty(); --grown, --replay_left_)
    redo_.erase(redo_.begin());
}

void session::take_point() {
  if (history_.off() || lost()) return;
  if (!history_.empty() && history_.back().version == version_.load()) return;
  try {
    // Memory for the state is checked before it is taken: about what the table holds.
    const std::uint64_t estimate = table_->stats(work_stream_.view()).bytes;
    if (!history_.fits(estimate)) {
      history_.set_off(
          strprintf("Back is off for this table: one state of it (%s) is more than "
                    "the history's budget (%s)",
                    format_bytes(estimate).c_str(), format_bytes(history_.budget()).c_str()));
      return;
    }
    if (gpu() && device_memory_now().free_bytes < 2 * estimate) {
      history_.clear();
      history_.set_limit("GPU memory ran short for another state: Back starts from here");
    }
    history_point p;
    p.table = table_->save_state(work_stream_.view());
    session_point& q = p.session;
    q.live = st_.live;
    q.batches = st_.batches;
    q.operations = st_.operations;
    q.failed_full = st_.failed_full;
    q.rejected = st_.rejected;
    q.capacity = capacity_.load();
    q.occupied_bound = occupied_bound_;
    q.dead_since_compaction = dead_since_compaction_;
    q.caption = st_.caption;
    q.events = records_.events().size();
    q.journal = commands_.journal().size();
    q.cursor = commands_.cursor();
    q.counters_after = counters_after_;
    q.last_step = last_step_;
    q.questions_asked = st_.questions_asked;
    q.questions_right = st_.questions_right;
    p.version = version_.load();
    history_.keep(std::move(p));
  } catch (const std::exception& e) {
    history_.clear();
    history_.set_limit(std::string("a state could not be kept (") + e.what() +
                       "): Back starts from here");
  }
}

void session::restore_point(std::size_t i) {
  const history_point& p = history_.at(i);
  table_->restore_state(p.table, work_stream_.view());  // throws with the table unchanged
  const session_point& q = p.session;
  const std::uint64_t undone_batches = st_.batches - std::min(st_.batches, q.batches);
  records_.cut(undone_batches, q.batches, q.events);
  if (recorder_) recorder_->cut(undone_batches, q.counters_after);
  counters_after_ = q.counters_after;
  last_step_ = q.last_step;
  std::vector<journal_entry> undone = commands_.rewind(q.cursor, q.journal);
  redo_.insert(redo_.begin(), undone.begin(), undone.end());
  st_.live = q.live;
  st_.batches = q.batches;
  st_.operations = q.operations;
  st_.failed_full = q.failed_full;
  st_.rejected = q.rejected;
  st_.caption = q.caption;
  st_.questions_asked = q.questions_asked;
  st_.questions_right = q.questions_right;
  st_.question.reset();
  st_.error = false;
  capacity_ = q.capacity;
  occupied_bound_ = q.occupied_bound;
  dead_since_compaction_ = q.dead_since_compaction;
  ++version_;
  history_.cut_after(i, version_.load());
}

std::string session::undo_refusal(std::uint64_t n, std::uint64_t undoable) const {
  if (n > 0 && n <= undoable) return {};
  std::string why = undoable == 0
                        ? "there is nothing to undo"
                        : strprintf("only %llu command%s can be undone",
                                    (unsigned long long)undoable, undoable == 1 ? "" : "s");
  if (!history_.limit().empty()) why += " (" + history_.limit() + ")";
  return strprintf("Back %llu: ", (unsigned long long)n) + why;
}

void session::check_undoable(std::uint64_t n, std::uint64_t undoable) const {
  if (std::string why = undo_refusal(n, undoable); !why.empty()) throw user_error(why);
}

std::string session::back_refusal(std::uint64_t n) const {
  if (history_.off()) return history_.limit();
  // A command since the last kept state counts too: the worker keeps its state when it rests.
  const bool changed = !history_.empty() && history_.back().version != version_.load();
  return undo_refusal(n, history_.empty() ? 0 : history_.size() - 1 + (changed ? 1 : 0));
}

std::string session::forward_refusal(std::uint64_t n) const {
  if (redo_.empty()) return "Forward: nothing to redo (Forward replays what Back undid)";
  std::uint64_t available = 0;
  for (const journal_entry& e : redo_) available += e.step.kind != script_step::say;
  if (n == 0 || n > available)
    return strprintf("Forward %llu: only %llu command%s can be replayed", (unsigned long long)n,
                     (unsigned long long)available, available == 1 ? "" : "s");
  return {};
}

std::string session::why_not_back(std::uint64_t n) const {
  std::lock_guard lock(mutex_);
  return back_refusal(n);
}

std::string session::why_not_forward(std::uint64_t n) const {
  std::lock_guard lock(mutex_);
  return forward_refusal(n);
}

void session::go_back(std::uint64_t n) {
  take_point();
  if (history_.off()) throw user_error(history_.limit());
  const std::uint64_t now = history_.empty() ? 0 : history_.size() - 1;
  check_undoable(n, now);
  const std::string label = history_locked().marks.at(now - n).label;
  restore_point(now - n);
  st_.note = "back before " + (label.empty() ? std::string("the last change") : label) +
             (redo_.empty() ? "" : "; Forward replays it");
}

void session::back(std::uint64_t n) {
  std::unique_lock lock(mutex_);
  if (lost()) return;  // status() says why
  // What cannot be undone is refused before a running command is stopped.
  if (std::string why = back_refusal(n); !why.empty()) throw user_error(why);
  come_to_rest(lock);
  go_back(n);
}

void session::back_to_mark(std::uint64_t serial) {
  std::unique_lock lock(mutex_);
  if (lost()) return;
  come_to_rest(lock);
  take_point();
  std::size_t i = 0;
  while (i < history_.size() && history_.at(i).serial != serial) ++i;
  if (i == history_.size())
    throw user_error("that mark's state is no longer kept (the history's budget let it go)");
  if (i + 1 == history_.size()) throw user_error("that mark is the table as it is now");
  go_back(history_.size() - 1 - i);
}

void session::forward(std::uint64_t n) {
  std::unique_lock lock(mutex_);
  if (lost()) return;
  if (std::string why = forward_refusal(n); !why.empty()) throw user_error(why);
  // n commands: a stage's caption (say) undone with them is replayed with them, not counted.
  std::size_t entries = 0;
  for (std::uint64_t commands = 0; entries < redo_.size() && commands < n; ++entries)
    commands += redo_[entries].step.kind != script_step::say;
  come_to_rest(lock);
  std::vector<script_step> steps;
  for (std::size_t i = 0; i < entries; ++i) {
    script_step configure;
    configure.kind = script_step::configure;
    configure.configure_to = redo_[i].settings;
    steps.push_back(configure);
    steps.push_back(redo_[i].step);
  }
  replay_left_ = entries;  // each leaves redo_ as it starts (consume_replayed)
  commands_.replay(steps);
  st_.note.clear();
  wake_.notify_all();
}

session::history_view session::history() const {
  std::lock_guard lock(mutex_);
  return history_locked();
}

session::history_view session::history_locked() const {
  history_view v;
  v.redo = redo_.size();
  v.limit = history_.limit();
  v.off = history_.off();
  v.bytes = history_.bytes();
  v.budget = history_.budget();
  const auto& journal = commands_.journal();
  // A mark per kept state before a command: every state but the last, and the last too when the
  // table changed since (a command runs).
  const std::size_t n = history_.size();
  const bool changed = n && history_.back().version != version_.load();
  for (std::size_t i = 0; i < n && (i + 1 < n || changed); ++i) {
    const std::size_t from = history_.at(i).session.journal;
    const std::size_t to = i + 1 < n ? history_.at(i + 1).session.journal : journal.size();
    history_mark m;
    for (std::size_t j = from; j < std::min(to, journal.size()) && m.label.empty(); ++j)
      m.label = command_label(journal[j].step);
    if (m.label.empty()) m.label = "change";
    m.serial = history_.at(i).serial;
    m.caption = i + 1 < n ? history_.at(i + 1).session.caption : st_.caption;
    v.marks.push_back(std::move(m));
  }
  return v;
}

void session::save_table(const std::string& path) {
  std::unique_lock lock(mutex_);
  if (lost()) throw user_error("the GPU faulted: the table cannot be saved");
  come_to_rest(lock);
  hs::save_table(*table_, path, work_stream_.view());
  st_.note = "saved the table to " + path;
}

void session::count_answer(bool right) {
  std::lock_guard lock(mutex_);
  ++st_.questions_asked;
  st_.questions_right += right;
}

void session::load_table(const std::string& path) {
  restore(read_table_file(path), path);  // read outside the lock: a large file takes a while
}

void session::restore(const table_state& st, const std::string& path) {
  std::unique_lock lock(mutex_);
  if (lost()) return;
  come_to_rest(lock);
  take_point();
  load_state(st, path);
  redo_.clear();
  replay_left_ = 0;
  script_step s;
  s.kind = script_step::load_table;
  s.text = path;
  commands_.journal(s);
  take_point();  // the opened table: the first command after it can be undone
}

bool session::run_history_step(const script_step& s) {
  try {
    if (s.kind == script_step::back) go_back(s.batches);
    if (s.kind == script_step::save_table) hs::save_table(*table_, s.text, work_stream_.view());
    if (s.kind == script_step::load_table) load_state(read_table_file(s.text), s.text);
    return true;
  } catch (const std::exception& e) {
    fail(e.what());
    return false;
  }
}

void session::load_state(const table_state& st, const std::string& path) {
  try {
    check_restorable(st.config, table_->config());
    table_->restore_state(st, work_stream_.view());
  } catch (const user_error& e) {
    throw user_error("table file " + path + ": " + e.what());
  }
  const table_stats ts = table_->stats(work_stream_.view());
  st_.live = ts.live;
  capacity_ = ts.capacity;
  occupied_bound_ = ts.occupied;
  dead_since_compaction_ = 0;
  records_.add_event(st_.batches, "opened " + path);
  ++version_;
  st_.note = strprintf("opened %s: %s live keys in %s slots", path.c_str(),
                       format_count(ts.live).c_str(), format_count(ts.capacity).c_str());
}

}  // namespace hs::app
