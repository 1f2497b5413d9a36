// Medians of event-timed runs after warm-up.
#include "core/bench/timing.hpp"

#include <algorithm>

#include "core/bench/gpu_delay.hpp"
#include "core/bench/profile_row.hpp"

namespace hs::bench {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

rate_range rates_of(std::uint64_t n, const timing& t) {
  const double ops = static_cast<double>(n);
  return {ops / (t.max_ms * 1e-3) / 1e9, ops / (t.min_ms * 1e-3) / 1e9};
}

double time_once(stream_view s, bool gpu, const std::function<void()>& work) {
  stream_timer t(gpu);
  if (gpu) gpu_delay(s, 50.0);  // the host enqueues `work` while this runs: GPU time only
  t.start(s);
  {
    const profile_range named;  // the row's NVTX range: what a profiler selects
    work();
  }
  t.stop(s);
  return t.elapsed_ms();
}

timing measure(stream_view s, bool gpu, int warmup, int reps, const std::function<void()>& setup,
               const std::function<void()>& work) {
  std::vector<double> ms;
  for (int i = 0; i < warmup + reps; ++i) {
    if (setup) setup();
    const double t = time_once(s, gpu, work);
    if (i >= warmup) ms.push_back(t);
  }
  timing r;
  r.runs = reps;
  r.median_ms = median(ms);
  r.min_ms = ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end());
  r.max_ms = ms.empty() ? 0 : *std::max_element(ms.begin(), ms.end());
  return r;
}

}  // namespace hs::bench
