// Samples a session off the UI thread, so that a frame never waits for the table: the frame asks
// for a sample, draws the newest one that has finished, and a sampler thread runs the inspection
// kernels (on the session's sampling stream) and the copies back meanwhile. Three results rotate:
// the one the frame draws, the newest finished one, and the one being filled; each holds its own
// pixel buffer, so the frame's image is never overwritten under it.
#pragma once
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "app/session/session.hpp"
#include "visualizers/views/heatmap_request.hpp"

namespace hs::app {

class sampler {
 public:
  explicit sampler(session& s);
  ~sampler();  ///< waits for a sample in progress
  sampler(const sampler&) = delete;
  sampler& operator=(const sampler&) = delete;

  /// @brief Asks for a sample (replacing one asked for and not yet started); `tag` comes back with
  /// its result (the frame's heatmap request).
  void request(const sample_request& req, const vis::heatmap_request& tag);
  /// @brief Whether a sample is asked for or running.
  bool busy() const;
  /// @brief Whether one is being taken now; whether one is asked for and not started yet.
  bool running() const;
  bool pending() const;
  /// @brief Wall time the last finished sample took on the sampler thread (0 before the first).
  double last_sample_seconds() const;
  /// @brief Samples finished since the sampler started.
  std::uint64_t samples() const;
  /// @brief The newest finished sample, if one finished since the last call, copied into `out`;
  /// its pixels stay valid until the next take() that returns true. Rethrows a sampling error.
  bool take(sample_result& out, vis::heatmap_request& tag);

 private:
  struct slot {
    sample_result result;
    buffer<occupancy_pixel> pixels;
    vis::heatmap_request tag;
  };
  void loop();

  session& sess_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<std::pair<sample_request, vis::heatmap_request>> asked_;
  bool running_ = false, ready_ = false, stop_ = false;
  double last_seconds_ = 0;
  std::uint64_t samples_ = 0;
  std::string error_;
  slot front_, ready_slot_, back_;  // drawn by the frame, finished, being filled
  std::thread thread_;
};

}  // namespace hs::app
