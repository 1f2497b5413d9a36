// The hive family's views and its per-batch record of inserts by step, as tests and render reach
// them.
#pragma once
#include <mutex>
#include <vector>

#include "app/families/family_ui.hpp"
#include "visualizers/views/hive_view.hpp"
#include "visualizers/views/tile_lanes_view.hpp"

namespace hs::app {

class code_view;

/// @brief Each batch's load before and after and its inserts by step (the live Fig. 9), from the
/// step counters each batch copies back (family_descriptor::copy_batch_counters).
class hive_steps_recorder final : public batch_recorder {
 public:
  void record(const batch_record& b) override;
  void clear() override;
  std::vector<vis::hive_step_point> points() const;

 private:
  mutable std::mutex mutex_;
  std::vector<vis::hive_step_point> points_;
  std::uint64_t before_[5] = {};  // steps 1-4 and moves after the previous batch
};

/// @brief The hive session's step points (empty for another family).
std::vector<vis::hive_step_point> hive_steps(const session& s);
/// @brief The hive view inside `v`, or null when `v` is another family's.
const vis::hive_view* hive_view_of(const family_views* v);
/// @brief The hive's Code view and warp lanes inside `v`, or null.
const code_view* hive_code_of(const family_views* v);
const vis::tile_lanes_view* hive_lanes_of(const family_views* v);

}  // namespace hs::app
