// Runs of one traced step: the same operations stepped again from the same state (Back, then
// Step). A row a run, a column a slot of the run the keys landed in; each cell is coloured by the
// operation whose key took the slot (the first operation dark, the last bright) and outlined in red
// where that run's operation ended otherwise than in the run before. On the GPU, concurrent
// inserts racing for one run of slots may land otherwise run after run; on the CPU model, never.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/format.hpp"

namespace hs::vis {

struct step_runs_data {
  std::vector<std::uint64_t> keys;  ///< the step's operations' keys, in order
  struct run {
    std::vector<std::optional<std::uint64_t>> slots;  ///< where operation i's key landed
    std::vector<bool> changed;  ///< whether operation i ended otherwise than the run before
  };
  std::vector<run> runs;
};

class step_runs_view {
 public:
  void set(step_runs_data d) { data_ = std::move(d); }
  void set_key_radix(key_radix r) { radix_ = r; }
  /// @brief The grid (height 0: in a window).
  void draw(float height = 0);
  /// @brief "run,operation,key,slot,changed" rows.
  std::string csv() const;
  std::size_t runs() const { return data_.runs.size(); }

 private:
  step_runs_data data_;
  key_radix radix_ = key_radix::hex;
};

}  // namespace hs::vis
