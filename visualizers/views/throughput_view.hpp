// Live throughput: operations per second of each batch over time, and against the load factor
// (seed 000's load sweep, drawn as it happens).
#pragma once
#include <cstdint>
#include <span>

namespace hs::vis {

/// @brief One finished batch.
struct throughput_point {
  double time_s = 0;        ///< when it finished, seconds since the session started
  double load = 0;          ///< live load factor before the batch
  double ops_per_s = 0;     ///< from CUDA events (or the host clock on the CPU backend)
  std::uint64_t ops = 0;
  std::uint8_t kind = 0;    ///< 0 insert-only, 1 find-only, 2 erase-only, 3 mixed
};

class throughput_view {
 public:
  /// @brief Two plots side by side (or stacked when narrow) in the remaining space.
  void draw(std::span<const throughput_point> points, float height = 0);
  bool log_rate = false;
};

}  // namespace hs::vis
