// How the CPU models run a batch: operation after operation, holding the model's lock a chunk of
// operations at a time rather than for the whole batch, and letting a waiting reader in between
// chunks. A session's sampler reads the model from another thread; with the lock held for a
// batch, a sample of a nearly full table waited for the whole batch of long probes (a 2^22-slot
// linear table filled from load 0.938: a 6.6 s batch). Releasing the lock between chunks is not
// enough by itself: a mutex is not fair, and the batch took it back before the sampler woke (a
// 6.0 s sample). So the lock counts who waits, and a batch steps aside after its chunk while a
// reader does. A sample now waits at most one chunk of 64 operations. Only one thread ever
// changes a model, so the order of chunks and samples changes no result.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <thread>

namespace hs {

/// @brief A mutex (Lockable, for std::lock_guard) that counts the threads waiting for it.
class model_mutex {
 public:
  void lock() {
    waiting_.fetch_add(1, std::memory_order_relaxed);
    m_.lock();
    waiting_.fetch_sub(1, std::memory_order_relaxed);
  }
  void unlock() { m_.unlock(); }
  /// @brief Whether another thread waits for the lock (call without holding it).
  bool wanted() const { return waiting_.load(std::memory_order_relaxed) > 0; }

 private:
  std::mutex m_;
  std::atomic<int> waiting_{0};
};

inline constexpr std::size_t k_model_chunk = 64;

/// @brief Runs op(i) for i in [0, n), holding `m` for each chunk of k_model_chunk operations and
/// letting a thread that waits for `m` take it between chunks.
template <class Op>
void for_each_op_locked(model_mutex& m, std::size_t n, Op&& op) {
  for (std::size_t lo = 0; lo < n; lo += k_model_chunk) {
    {
      std::lock_guard lock(m);
      const std::size_t hi = std::min(n, lo + k_model_chunk);
      for (std::size_t i = lo; i < hi; ++i) op(i);
    }
    while (m.wanted()) std::this_thread::yield();
  }
}

}  // namespace hs
