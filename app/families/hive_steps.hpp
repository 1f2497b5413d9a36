// The hive session's per-batch record of inserts by step: what the Insert steps window and figure
// draw (the Hive paper's Fig. 9, filled in batch by batch).
#pragma once
#include <cstdint>
#include <mutex>
#include <vector>

#include "app/session/batch_recorder.hpp"
#include "visualizers/views/hive_view.hpp"

namespace hs::app {

class session;

/// @brief Each batch's load before and after and its inserts by step (the live Fig. 9), from the
/// step counters each batch copies back (family_descriptor::copy_batch_counters).
class hive_steps_recorder final : public batch_recorder {
 public:
  void record(const batch_record& b) override;
  void clear() override;
  void cut(std::uint64_t batches, std::span<const std::uint64_t> counters) override;
  std::vector<vis::hive_step_point> points() const;

 private:
  mutable std::mutex mutex_;
  std::vector<vis::hive_step_point> points_;
  std::uint64_t before_[5] = {};  // steps 1-4 and moves after the previous batch
};

/// @brief The hive session's step points (empty for another family).
std::vector<vis::hive_step_point> hive_steps(const session& s);
}  // namespace hs::app
