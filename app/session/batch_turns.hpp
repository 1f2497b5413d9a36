// Turns between sessions that share a device and must each be timed alone (compare mode): a batch
// from launch to retirement, with what the session does after it (a census when the timeline is
// recorded), holds the turn; the others wait, first come first served. Without it, three tables
// filled together on one GPU each timed batches that shared the GPU with the other two: rates
// of a third of each table's own, and, with a census per batch, rates that jumped between the two
// as batches happened to overlap (render compare-families-gpu on the H200: linear probing 10.6 or
// 1.2 G/s by stage, for its own 11).
#pragma once
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace hs::app {

class batch_turns {
 public:
  /// @brief Waits for this caller's turn (tickets are served in the order they were taken).
  void acquire() {
    std::unique_lock lock(mutex_);
    const std::uint64_t ticket = next_++;
    served_cv_.wait(lock, [&] { return serving_ == ticket; });
  }
  /// @brief Passes the turn to the next ticket.
  void release() {
    {
      std::lock_guard lock(mutex_);
      ++serving_;
    }
    served_cv_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable served_cv_;
  std::uint64_t next_ = 0, serving_ = 0;
};

}  // namespace hs::app
