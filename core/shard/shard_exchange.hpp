// The exchange between a sharded table's devices: one all-to-all step in which every rank sends
// a segment to every rank (itself included) and receives one from each. NCCL runs it between GPUs
// (nccl_exchange.hpp); on simulated devices a host stand-in copies the segments
// (host_exchange.hpp). Both sit behind this interface, so routing, order restoration and statuses
// take one code path.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/common/memory.hpp"
#include "core/common/stream.hpp"

namespace hs {

/// @brief One rank's part of an exchange step for one lane of data (the keys, the values, ...):
/// `send[j]`, `send_bytes[j]` go to rank j, which receives them at its `recv[i]`, `recv_bytes[i]`
/// for this rank i. Ordered on `stream` (the rank's own).
struct rank_segments {
  std::uint32_t rank = 0;
  std::vector<const void*> send;
  std::vector<std::uint64_t> send_bytes;
  std::vector<void*> recv;
  std::vector<std::uint64_t> recv_bytes;
  stream_view stream;
};

class shard_exchange {
 public:
  virtual ~shard_exchange() = default;
  /// @brief Ranks in all: one a device of the table.
  virtual std::uint32_t ranks() const = 0;
  /// @brief The ranks this process drives (all of them in one process; one per process else).
  virtual std::span<const std::uint32_t> local_ranks() const = 0;
  /// @brief Whether other processes drive some ranks (one process a GPU, joined by NCCL's id).
  bool spans_processes() const { return local_ranks().size() != ranks(); }
  /// @brief The GPU a local rank drives, among those this process sees (rank r in one process).
  virtual int device_of(std::uint32_t rank) const { return static_cast<int>(rank); }
  /// @brief Waits until a local rank's stream finished its work, exchange steps included. Bounded
  /// under NCCL: an error or a peer that stops answering aborts the exchange and throws
  /// hs::gpu_error naming the rank and the step; every later step then throws the same.
  virtual void wait(std::uint32_t rank, stream_view s) {
    (void)rank;
    synchronize(s);
  }
  /// @brief Stops the exchange after a failure in the middle of a batch (across processes the
  /// others then hear of it within their wait); later steps throw `why`. No-op where no other
  /// process waits.
  virtual void abandon(const std::string& why) { (void)why; }
  /// @brief Where the segments live: host memory for simulated devices, device memory for GPUs.
  virtual memory_space space() const = 0;
  /// @brief "NCCL 2.28.9, 4 GPUs in one process, peer access between every pair", for the
  /// Numbers and figures.
  virtual std::string describe() const = 0;
  /// @brief Runs one step: every local rank's lanes, in the order given (each rank lists its
  /// lanes in the same order, so that rank i's k-th send to j meets j's k-th receive from i). A
  /// rank's send to j must be as long as j's receive from it; a mismatch throws hs::user_error on
  /// the host stand-in and is a fault under NCCL, so callers size receives from exchanged counts.
  /// `step` names the step in errors ("counts", "keys out", ...).
  virtual void all_to_all(std::span<const rank_segments> lanes, const char* step = "exchange") = 0;
};

}  // namespace hs
