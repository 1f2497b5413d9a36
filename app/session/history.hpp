// A session's history: the table's exact state before each command (table_state.hpp, in the
// table's own memory), with what the session knew then, so Back restores all of it and the
// timeline can show each command as a mark. Bounded by a budget of bytes (default: 1 GiB or an
// eighth of the GPU's free memory, whichever is smaller; host memory for the CPU model) and 64
// states: past either, the oldest states go and Back stops there. A table whose one state passes
// the budget keeps none, and says so once. Not locked itself: the session holds its lock.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "app/session/command_state.hpp"
#include "core/table/step_trace.hpp"
#include "core/table/table_state.hpp"
#include "core/workload/workload.hpp"

namespace hs::app {

inline constexpr std::size_t k_history_states_max = 64;
inline constexpr std::uint64_t k_history_budget_max = std::uint64_t{1} << 30;

/// @brief What the session knew at a state besides the table (the counts the views read, the
/// records' lengths, the workload's cursor and the journal's length).
struct session_point {
  std::uint64_t live = 0, batches = 0, operations = 0, failed_full = 0, rejected = 0;
  std::uint64_t capacity = 0, occupied_bound = 0, dead_since_compaction = 0;
  std::string caption;
  std::size_t events = 0;                     ///< rebuild events recorded
  std::size_t journal = 0;                    ///< journal entries
  workload::cursor cursor;                    ///< the workload's cursor
  std::vector<std::uint64_t> counters_after;  ///< the family's batch counters
  std::shared_ptr<const step_trace> last_step;
  int questions_asked = 0, questions_right = 0;
};

struct history_point {
  table_state table;
  session_point session;
  std::uint64_t version = 0;  ///< the session's version() when it was taken
  std::uint64_t serial = 0;   ///< names the point for good (Back keeps it; the version moves)
};

/// @brief A mark of the timeline: the command that followed a state, and the stage's caption then.
struct history_mark {
  std::string label;         ///< "fill 0.5", "step insert 12 76", "rehash"
  std::string caption;       ///< the scenario's stage caption at that state, if any
  std::uint64_t serial = 0;  ///< the kept state it goes back to (session::back_to_mark)
};

class session_history {
 public:
  explicit session_history(std::uint64_t budget = k_history_budget_max) : budget_(budget) {}

  std::uint64_t budget() const { return budget_; }
  /// @brief Whether a state of `bytes` can be kept at all (else Back is off for this table, and
  /// why says so).
  bool fits(std::uint64_t bytes) const { return bytes <= budget_; }
  /// @brief Keeps a point, dropping the oldest ones past the budget or the count.
  void keep(history_point p);
  /// @brief The state nothing can go back past, and why ("the history budget of 1 GiB holds 3
  /// states"); empty while every state since the table was made is kept.
  const std::string& limit() const { return limit_; }
  void set_off(std::string why) {
    off_ = true;
    limit_ = std::move(why);
    points_.clear();
  }
  bool off() const { return off_; }

  std::size_t size() const { return points_.size(); }
  bool empty() const { return points_.empty(); }
  const history_point& at(std::size_t i) const { return points_[i]; }
  const history_point& back() const { return points_.back(); }
  std::uint64_t bytes() const;
  /// @brief Drops the points after `i` (they were undone); point `i` is the table again, at the
  /// session's version `version`.
  void cut_after(std::size_t i, std::uint64_t version) {
    points_.resize(i + 1);
    points_.back().version = version;
  }
  /// @brief Says where Back stops (the states before were let go).
  void set_limit(std::string why) { limit_ = std::move(why); }
  void clear() {
    points_.clear();
    dropped_ = 0;
    if (!off_) limit_.clear();
  }

 private:
  std::uint64_t budget_;
  std::deque<history_point> points_;
  std::uint64_t dropped_ = 0;  // the oldest points let go for the budget
  std::uint64_t serials_ = 0;  // points kept so far
  std::string limit_;
  bool off_ = false;
};

/// @brief "fill 0.5", "step 1", "step insert 12 76", "run 40", "rehash 2^21": a command's mark.
std::string command_label(const script_step& s);

/// @brief The default budget: 1 GiB, or an eighth of the GPU's free memory when that is smaller.
std::uint64_t default_history_budget(bool gpu);

}  // namespace hs::app
