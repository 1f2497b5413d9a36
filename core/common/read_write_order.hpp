// Keeps a GPU table's quiet reads and its writes apart across streams.
//
// A quiet read is a lookup batch that skips what lookups otherwise pay to stay correct beside
// concurrent writers (a bucketed table's lock-word snapshots, one extra sector per lookup). It may
// run only while no write can run beside it. On one stream the stream's order already says so;
// across streams each stream keeps an event for its last write and one for its last quiet read:
// - a read is quiet when every other stream's last write has completed;
// - a write first makes its stream wait for every other stream's last quiet read.
// Each check, its launch and its event record happen under one mutex, so a write launched by
// another thread cannot slip between a read's check and its launch.
#pragma once
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "core/common/stream.hpp"

namespace hs {

class read_write_order {
 public:
  read_write_order() = default;
  ~read_write_order();
  read_write_order(const read_write_order&) = delete;
  read_write_order& operator=(const read_write_order&) = delete;

  /// @brief Launches a read: launch(quiet) with quiet true when no write of another stream may
  /// still be running (or waiting to run).
  void read(stream_view s, const std::function<void(bool quiet)>& launch);
  /// @brief Launches a write on s after every quiet read of the other streams.
  void write(stream_view s, const std::function<void()>& launch);
  /// Quiet reads so far (how often the check let a read skip its guards).
  std::uint64_t quiet_reads() const { return quiet_reads_; }

 private:
  struct stream_events {
    void* stream = nullptr;
    void* last_write = nullptr;  // cudaEvent_t, created on first use
    void* last_quiet_read = nullptr;
  };
  stream_events& of(stream_view s);  // call with mutex_ held

  std::mutex mutex_;
  std::vector<stream_events> streams_;
  std::uint64_t quiet_reads_ = 0;
};

}  // namespace hs
