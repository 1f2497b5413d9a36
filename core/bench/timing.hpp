// Timing for benchmarks: untimed setup, warm-up runs, then repeated runs timed with CUDA events
// (or the host clock on the CPU backend); results are medians.
#pragma once
#include <functional>
#include <vector>

#include "core/common/stream.hpp"

namespace hs::bench {

struct timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int runs = 0;
};

double median(std::vector<double> v);

/// @brief Runs setup() then work() warmup + reps times; times work() only. On the GPU a short
/// busy kernel precedes each timed region, so the host's enqueue overhead is not counted.
timing measure(stream_view s, bool gpu, int warmup, int reps, const std::function<void()>& setup,
               const std::function<void()>& work);

/// @brief Times one run of work() on the stream.
double time_once(stream_view s, bool gpu, const std::function<void()>& work);

}  // namespace hs::bench
