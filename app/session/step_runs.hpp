// The runs of a traced step: the same operations run again from the same point (Back, then Step)
// may end otherwise on the GPU, where concurrent operations race for slots. The session remembers
// each traced step's outcomes by what it ran and the kept state it started from (the history
// point's serial), and marks the operations that ended otherwise than in the run before.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/table/step_trace.hpp"

namespace hs::app {

/// @brief Every run of one step: its keys, and per run the slot each operation's key held after it
/// (open addressing; none for other families) and whether it ended otherwise than the run before.
struct run_history {
  std::vector<std::uint64_t> keys;
  struct run {
    std::vector<std::optional<std::uint64_t>> slots;
    std::vector<bool> changed;
  };
  std::vector<run> runs;  ///< oldest first, at most k_runs_kept
};
inline constexpr std::size_t k_runs_kept = 64;

class step_runs {
 public:
  /// @brief Compares a finished traced step with the last run of the same operations from the
  /// same kept state `point`, sets its run number and marks (step_trace::run,
  /// stepped_op::changed), and remembers this run.
  void compare_and_keep(step_trace& t, std::uint64_t point);
  void clear() {
    runs_.clear();
    last_ = nullptr;
  }
  /// @brief The runs of the step compared last (empty before any).
  run_history last() const { return last_ ? last_->history : run_history{}; }

 private:
  struct outcome {
    op_status status = op_status::none;
    std::uint64_t result = 0;
    std::optional<std::uint64_t> slot;
  };
  struct runs {
    std::uint64_t count = 0;
    std::vector<outcome> last;
    run_history history;
  };
  std::map<std::string, runs> runs_;
  const runs* last_ = nullptr;
};

}  // namespace hs::app
