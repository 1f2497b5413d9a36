// A table across processes on simulated devices, for CI: each rank is a thread holding a sharded
// table of its own (one local rank, as a process of one GPU holds), and their exchanges meet in
// one rendezvous, which copies every rank's segments once all have brought theirs. The batch
// path's agreement on terms, its shared refusals and the calls every rank makes together then run
// on a machine without GPUs; the processes' own test (sharded_ranks_test.cpp) needs two GPUs.
// Catch2's assertions are not thread-safe: a rank's thread records what it saw, the test checks it.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "core/common/error.hpp"
#include "core/shard/host_exchange.hpp"
#include "core/shard/sharded_table.hpp"

namespace hs::test {

/// Where the ranks' exchange steps meet. A rank that waits longer than `wait` for the others
/// throws, as a bounded NCCL wait does, so that a test which loses a rank fails instead of hanging.
class rank_rendezvous {
 public:
  rank_rendezvous(std::uint32_t ranks, std::chrono::milliseconds wait)
      : ranks_(ranks), wait_(wait), brought_(ranks) {}
  std::uint32_t ranks() const { return ranks_; }

  /// Rank `rank`'s lanes of one step: returns once every rank's segments are copied (the callers'
  /// buffers stay alive meanwhile, since each waits here); throws what the step found wrong.
  void meet(std::uint32_t rank, std::span<const rank_segments> lanes, const char* step) {
    std::unique_lock hold(lock_);
    if (!stopped_.empty()) throw gpu_error("exchange stopped: " + stopped_);
    brought_[rank].assign(lanes.begin(), lanes.end());
    const std::uint64_t step_number = steps_;
    if (++arrived_ == ranks_) {
      std::vector<rank_segments> all;
      for (const auto& mine : brought_) all.insert(all.end(), mine.begin(), mine.end());
      fault_.clear();
      try {
        host_exchange(ranks_).all_to_all(all, step);
      } catch (const std::exception& e) {
        fault_ = e.what();
      }
      arrived_ = 0;
      ++steps_;
      changed_.notify_all();
    } else if (!changed_.wait_for(hold, wait_,
                                  [&] { return steps_ != step_number || !stopped_.empty(); })) {
      stopped_ = "rank " + std::to_string(rank) + ", the " + step + " step: no answer in time";
      changed_.notify_all();
    }
    if (steps_ == step_number) throw gpu_error("exchange stopped: " + stopped_);
    if (!fault_.empty()) throw user_error(fault_);
  }

  /// A rank gave up inside a batch: the others' steps throw `why` from now on.
  void abandon(const std::string& why) {
    std::lock_guard hold(lock_);
    if (stopped_.empty()) stopped_ = why;
    changed_.notify_all();
  }

 private:
  std::uint32_t ranks_;
  std::chrono::milliseconds wait_;
  std::mutex lock_;
  std::condition_variable changed_;
  std::vector<std::vector<rank_segments>> brought_;  ///< this step's lanes, by rank
  std::uint32_t arrived_ = 0;
  std::uint64_t steps_ = 0;  ///< steps finished
  std::string fault_;        ///< what the last step found wrong, or empty
  std::string stopped_;      ///< why no step runs any more, or empty
};

/// One rank's exchange: a process of one rank, whose steps meet the others' in the rendezvous.
class threaded_exchange final : public shard_exchange {
 public:
  threaded_exchange(std::shared_ptr<rank_rendezvous> meet, std::uint32_t rank)
      : meet_(std::move(meet)), rank_{rank} {}
  std::uint32_t ranks() const override { return meet_->ranks(); }
  std::span<const std::uint32_t> local_ranks() const override { return rank_; }
  memory_space space() const override { return memory_space::host; }
  std::string describe() const override {
    return "rank " + std::to_string(rank_[0]) + " of " + std::to_string(ranks()) +
           " threads (simulated processes)";
  }
  void all_to_all(std::span<const rank_segments> lanes, const char* step) override {
    meet_->meet(rank_[0], lanes, step);
  }
  void abandon(const std::string& why) override { meet_->abandon(why); }

 private:
  std::shared_ptr<rank_rendezvous> meet_;
  std::uint32_t rank_[1];
};

/// Rank `rank`'s table of cfg (simulated devices, cfg.devices ranks) meeting the others at `meet`;
/// `make` makes its shard.
template <class K>
std::unique_ptr<sharded_table<K, K>> threaded_rank_table(
    const table_config& cfg, const std::shared_ptr<rank_rendezvous>& meet, std::uint32_t rank,
    std::function<std::unique_ptr<table>(const table_config&)> make = make_table) {
  shard_parts parts;
  parts.make = [make](std::uint32_t, const table_config& one) { return make(one); };
  parts.exchange = [meet, rank](std::uint32_t) {
    return std::make_unique<threaded_exchange>(meet, rank);
  };
  return std::make_unique<sharded_table<K, K>>(cfg, std::move(parts));
}

/// Runs body(rank) on a thread a rank and joins them all; returns each rank's escaped exception
/// text ("" where none escaped).
inline std::vector<std::string> on_rank_threads(std::uint32_t ranks,
                                                const std::function<void(std::uint32_t)>& body) {
  std::vector<std::string> escaped(ranks);
  std::vector<std::thread> threads;
  for (std::uint32_t r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      try {
        body(r);
      } catch (const std::exception& e) {
        escaped[r] = std::string("escaped: ") + e.what();
      }
    });
  for (std::thread& t : threads) t.join();
  return escaped;
}

}  // namespace hs::test
