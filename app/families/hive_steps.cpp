#include "app/families/hive_steps.hpp"

#include <algorithm>

#include "app/session/session.hpp"

namespace hs::app {

namespace {
constexpr std::size_t k_points_max = 20000;  // then the oldest quarter goes
}  // namespace

// Steps are counted between two batches' counter copies, so each point spans the load from the
// previous point to this one (the first from the load before its batch).
void hive_steps_recorder::record(const batch_record& b) {
  std::lock_guard lock(mutex_);
  vis::hive_step_point p;
  p.load_before = points_.empty() ? b.load_before : points_.back().load_after;
  p.load_after = double(b.live) / double(std::max<std::uint64_t>(b.capacity, 1));
  const auto after = [&](int i) { return i < int(b.counters.size()) ? b.counters[i] : 0; };
  for (int i = 0; i < 4; ++i) p.steps[i] = after(i) - std::min(after(i), before_[i]);
  p.moves = after(4) - std::min(after(4), before_[4]);
  for (int i = 0; i < 5; ++i) before_[i] = after(i);
  points_.push_back(p);
  if (points_.size() > k_points_max)
    points_.erase(points_.begin(), points_.begin() + k_points_max / 4);
}

void hive_steps_recorder::clear() {
  std::lock_guard lock(mutex_);
  points_.clear();
  std::fill(std::begin(before_), std::end(before_), 0);
}

void hive_steps_recorder::cut(std::uint64_t batches, std::span<const std::uint64_t> counters) {
  std::lock_guard lock(mutex_);
  points_.resize(points_.size() - std::min<std::uint64_t>(batches, points_.size()));
  for (int i = 0; i < 5; ++i) before_[i] = i < int(counters.size()) ? counters[i] : 0;
}

std::vector<vis::hive_step_point> hive_steps_recorder::points() const {
  std::lock_guard lock(mutex_);
  return points_;
}

std::vector<vis::hive_step_point> hive_steps(const session& s) {
  const auto* r = dynamic_cast<const hive_steps_recorder*>(s.recorder());
  return r ? r->points() : std::vector<vis::hive_step_point>{};
}

}  // namespace hs::app
