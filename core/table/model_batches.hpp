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
#include <span>
#include <thread>

#include "core/common/types.hpp"
#include "core/table/table_state.hpp"

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

/// @brief Operations a CPU model refused (a reserved key or value), by op_kind since clear. The
/// batch loop below is the one place that counts them, from each operation's status.
class rejected_tally {
 public:
  void note(op_kind kind, op_status st) {
    by_kind_[int(kind)] += st == op_status::rejected_key || st == op_status::rejected_value;
  }
  /// @brief For operations that return no status (DELETEALL, COUNT): refused when k is reserved.
  void note_key(op_kind kind, key_type k) { by_kind_[int(kind)] += is_reserved_key(k); }
  void clear() { std::fill(std::begin(by_kind_), std::end(by_kind_), 0); }
  /// @brief Writes the counts into an array of k_op_kind_count (a table_stats' `rejected`).
  void copy_to(std::uint64_t* out) const {
    std::copy(std::begin(by_kind_), std::end(by_kind_), out);
  }
  /// @brief Takes the counts from an array of k_op_kind_count (a restored state's).
  void copy_from(const std::uint64_t* in) { std::copy(in, in + k_op_kind_count, by_kind_); }
  /// @brief The counts and `failed_full` as a state's common counters (table_state.hpp).
  void save(table_state& st, std::uint64_t failed_full) const {
    set_common_counters(st, by_kind_, failed_full);
  }

 private:
  std::uint64_t by_kind_[k_op_kind_count] = {};
};

/// @brief Where a batch's per-operation outcomes go: a status per operation and a found value per
/// operation (either may be empty: not asked for), of the table's value type V.
template <class V = value_type>
struct batch_outputs {
  std::span<op_status> status;
  std::span<V> found;
};

/// @brief Takes every operation of a batch (for_each_op_locked is the loop of every CPU model's
/// insert, find, erase and apply). `run(i, kind, found)` runs operation i, of kind `kind_of(i)`,
/// and returns its status, writing a found value into `found`; operations for which `take(i)` is
/// false are left alone (a phase of a phased batch). V is the value type (32-bit unless given).
template <class V = value_type, class KindOf, class Run, class Take>
void run_model_ops(model_mutex& m, std::size_t n, rejected_tally& rejected, batch_outputs<V> out,
                   KindOf&& kind_of, Run&& run, Take&& take) {
  for_each_op_locked(m, n, [&](std::size_t i) {
    if (!take(i)) return;
    const op_kind kind = kind_of(i);
    V found = key_limits<V>::empty;
    const op_status st = run(i, kind, found);
    rejected.note(kind, st);
    if (!out.status.empty()) out.status[i] = st;
    if (!out.found.empty()) out.found[i] = found;
  });
}

/// @brief run_model_ops over every operation.
template <class V = value_type, class KindOf, class Run>
void run_model_ops(model_mutex& m, std::size_t n, rejected_tally& rejected, batch_outputs<V> out,
                   KindOf&& kind_of, Run&& run) {
  run_model_ops<V>(m, n, rejected, out, kind_of, run, [](std::size_t) { return true; });
}

/// @brief A batch of one kind of operation: kind_of for run_model_ops.
inline auto all_of_kind(op_kind kind) {
  return [kind](std::size_t) { return kind; };
}

}  // namespace hs
