// Timing for benchmarks: untimed setup, warm-up runs, then repeated runs timed with CUDA events
// (or the host clock on the CPU backend); results are medians.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/common/stream.hpp"

namespace hs::bench {

struct timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int runs = 0;
};

double median(std::vector<double> v);

/// @brief n operations' rate in G ops/s in the slowest and the fastest timed run (a median's range,
/// written as "<column> min" / "max", which plot draws as error bars).
struct rate_range {
  double slowest = 0, fastest = 0;
};
rate_range rates_of(std::uint64_t n, const timing& t);

/// @brief Runs setup() then work() warmup + reps times; times work() only. On the GPU a short
/// busy kernel precedes each timed region, so the host's enqueue overhead is not counted.
timing measure(stream_view s, bool gpu, int warmup, int reps, const std::function<void()>& setup,
               const std::function<void()>& work);

/// @brief Times one run of work() on the stream.
double time_once(stream_view s, bool gpu, const std::function<void()>& work);

}  // namespace hs::bench
