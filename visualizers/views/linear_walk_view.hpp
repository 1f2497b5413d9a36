// Step mode of open addressing: a traced step's operations one at a time, each with its probe walk
// from the home slot, slot by slot (keys shown, what the operation did at each), and its outcome;
// the arrows move through the operations. The walk is also handed to the heatmap as outlined
// slots, and the slots to zoom to (one cell per slot).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/common/format.hpp"
#include "core/linear/linear_trace.hpp"
#include "core/table/step_trace.hpp"
#include "visualizers/figure/figure.hpp"
#include "visualizers/views/heatmap_view.hpp"

namespace hs::vis {

class linear_walk_view {
 public:
  /// @brief A new traced step replaces the one shown: each operation's walk replayed on the slots
  /// it found; the first operation is shown. Null or the same step: no change.
  void follow_step(std::shared_ptr<const step_trace> t, linear_delete_mode mode);
  bool has_step() const { return step_ != nullptr; }
  std::size_t shown_op() const { return op_; }
  std::size_t ops() const { return step_ ? step_->ops.size() : 0; }
  const step_trace* step() const { return step_.get(); }
  /// @brief Operation i's replayed walk, or null.
  const linear::probe_walk* walk_at(std::size_t i) const {
    return i < walks_.size() ? &walks_[i] : nullptr;
  }
  void show_op(std::size_t i);
  /// @brief The shown operation's walk as heatmap marks (empty without a step).
  std::vector<slot_mark> marks() const;
  /// @brief The slots to zoom the heatmap to, once after the shown operation changed.
  std::optional<std::pair<std::uint64_t, std::uint64_t>> take_focus() {
    return std::exchange(focus_, std::nullopt);
  }
  /// @brief How keys are written (the lesson's decimal keys, or hex).
  void set_key_radix(key_radix r) { radix_ = r; }
  /// @brief The step line (operation i of n, arrows, outcome) and the walk as a row of cells.
  void draw(float height = 0);
  /// @brief "op,kind,key,status,probe,slot,role,key_there,landed,run,changed" rows for figures:
  /// each probe of each walk, with the slot the insert landed in, which run of these operations
  /// it was and whether it ended otherwise than the run before.
  std::string csv() const;
  /// @brief Paper style: every operation of the step a row, each probe of its walk a point along
  /// it, coloured by what the operation did there (`probing` names the policy in the title).
  fig::figure paper_figure(const std::string& probing) const;

 private:
  std::shared_ptr<const step_trace> step_;
  linear_delete_mode mode_ = linear_delete_mode::value;
  std::vector<linear::probe_walk> walks_;
  std::size_t op_ = 0;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> focus_;
  key_radix radix_ = key_radix::hex;
};

/// @brief The colour of what an operation did at a slot (also the heatmap marks').
ImU32 walk_color(linear::walk_role r);

}  // namespace hs::vis
