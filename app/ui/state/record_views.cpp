// The session's records turned into the views' columns.
#include "app/ui/state/record_views.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace hs::app {

vis::throughput_input throughput_input_of(std::span<const batch_point> points) {
  vis::throughput_input in;
  if (points.empty()) return in;
  std::array<vis::rate_series, k_batch_kinds> by_kind;
  for (std::size_t k = 0; k < k_batch_kinds; ++k) {
    by_kind[k].name = batch_kind_label(static_cast<batch_kind>(k));
    by_kind[k].color = static_cast<int>(k);
  }
  const double t0 = points.front().time_s;
  for (const batch_point& p : points) {
    vis::rate_series& s = by_kind[static_cast<std::size_t>(p.kind)];
    s.time_s.push_back(p.time_s - t0);
    s.load.push_back(p.load);
    s.ops_per_s.push_back(p.ops_per_s);
  }
  for (vis::rate_series& s : by_kind)
    if (!s.time_s.empty()) in.series.push_back(std::move(s));
  in.last_ops = points.back().ops;
  in.last_rate = points.back().ops_per_s;
  in.last_load = points.back().load;
  in.last_load_after = points.back().load_after;
  return in;
}

rate_summary summarize_rates(std::span<const batch_point> points, std::uint64_t batch_size) {
  rate_summary r;
  if (points.empty()) return r;
  std::vector<double> whole;
  for (const batch_point& p : points)
    if (p.ops * 2 >= batch_size) whole.push_back(p.ops_per_s);
  r.whole = whole.size();
  if (!whole.empty()) {
    const auto mid = whole.begin() + static_cast<std::ptrdiff_t>(whole.size() / 2);
    std::nth_element(whole.begin(), mid, whole.end());
    r.median = *mid;
    if (whole.size() % 2 == 0) r.median = (r.median + *std::max_element(whole.begin(), mid)) / 2;
  }
  r.last = points.back().ops_per_s;
  r.last_ops = points.back().ops;
  r.last_is_tail = points.back().ops * 2 < batch_size;
  return r;
}

vis::churn_input churn_input_of(std::span<const census_point> points,
                                std::span<const rebuild_event> events) {
  vis::churn_input in;
  for (const census_point& p : points) {
    in.batch.push_back(static_cast<double>(p.batch));
    in.load.push_back(p.load);
    in.tombstones.push_back(p.tombstones);
    in.erased.push_back(p.erased);
    in.mean_probe.push_back(p.mean_probe);
    in.max_probe.push_back(p.max_probe);
    in.ops_per_s.push_back(p.ops_per_s);
  }
  for (const rebuild_event& e : events)
    in.events.push_back({static_cast<double>(e.batch), e.label});
  return in;
}

}  // namespace hs::app
