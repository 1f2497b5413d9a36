// What a table over several devices offers beyond hs::table: its shards, its map of owners, the
// last batch's exchange, and moving to another number of devices (regpus). The views, the session
// and the tests reach it through as_sharded(table&), without naming the key width.
#pragma once
#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/shard/shard_map.hpp"
#include "core/table/table.hpp"

namespace hs {

/// @brief The phases of a sharded batch on each rank, in order.
enum class shard_phase : std::uint8_t { partition, counts, out, table, back };
inline constexpr int k_shard_phases = 5;
inline constexpr std::string_view k_shard_phase_names[k_shard_phases] = {
    "partition", "counts", "exchange", "table call", "return"};

/// @brief What one batch sent between devices: keys[i * devices + j] went from rank i to rank j
/// (rank i's own keys on the diagonal), and the bytes that crossed, both ways.
struct batch_exchange {
  std::uint32_t devices = 0;
  std::vector<std::uint64_t> keys;
  std::uint64_t bytes_out = 0;   ///< keys, values and kinds sent to their owners
  std::uint64_t bytes_back = 0;  ///< statuses and found values sent back
  /// @brief Milliseconds of each phase on each rank (CUDA events on GPUs, the host clock on
  /// simulated devices): [rank][phase].
  std::vector<std::array<double, k_shard_phases>> phase_ms;
  /// @brief The batch from its partition to its answers on the host clock. What the slowest
  /// rank's phases leave of it is the host's own steps: launches, NCCL groups, reading the counts
  /// (across chunks the phases overlap and can add up to more).
  double wall_ms = 0;
  /// @brief The rank whose phases add up to the most: the batch's critical path.
  std::uint32_t slowest() const {
    std::uint32_t worst = 0;
    double most = -1;
    for (std::uint32_t r = 0; r < phase_ms.size(); ++r) {
      double sum = 0;
      for (const double ms : phase_ms[r]) sum += ms;
      if (sum > most) {
        most = sum;
        worst = r;
      }
    }
    return worst;
  }
  std::uint64_t keys_from_to(std::uint32_t i, std::uint32_t j) const {
    return keys[std::size_t(i) * devices + j];
  }
};

/// @brief What regpus did.
struct regpus_result {
  std::uint32_t from = 0, to = 0;
  std::uint32_t virtual_shards_moved = 0;
  std::uint64_t keys = 0;        ///< live pairs carried over
  std::uint64_t keys_moved = 0;  ///< of those, pairs that changed device
  std::uint64_t bytes_moved = 0;
};

class sharded_view {
 public:
  virtual ~sharded_view() = default;
  virtual std::uint32_t devices() const = 0;
  /// @brief Device d's table (a GPU table on GPU d, or a CPU model). On GPUs, call it with GPU d
  /// current (device_scope), as the sharded table does.
  virtual table& shard(std::uint32_t d) = 0;
  virtual const shard_map& map() const = 0;
  /// @brief What the last batch moved (empty before the first): a copy, safe to take while
  /// another thread runs a batch.
  virtual batch_exchange last_exchange() const = 0;
  /// @brief Each device's counters (synchronizes); stats() is their sum (add_up).
  virtual std::vector<table_stats> shard_stats(stream_view s) = 0;
  /// @brief How the devices talk: "NCCL 2.28.9, 4 GPUs in one process, peer access between every
  /// pair", or simulated.
  virtual std::string exchange_name() const = 0;
  /// @brief Moves to `devices` devices at the same total capacity: whole virtual shards change
  /// owner (the fewest that even the shares out), every shard is rebuilt from its live pairs, and
  /// the moved pairs travel through the exchange. Erased entries and tombstones are dropped and
  /// the counters since clear restart, as with rehash. A move that cannot finish (a new device
  /// without room for its pairs, a shard that cannot be made, an exchange that fails) puts every
  /// pair back on the old devices and throws hs::user_error saying so; gpu_error if even that
  /// fails.
  virtual regpus_result regpus(std::uint32_t devices, stream_view s) = 0;
  /// @brief Keys a device a chunk: a larger batch runs in chunks, the exchange of one overlapping
  /// the table calls of the one before (64M by default).
  virtual std::uint64_t chunk_keys() const = 0;
  virtual void set_chunk_keys(std::uint64_t keys) = 0;
};

/// @brief The counters of a table made of these shards: sums, and the longest probe of any.
table_stats add_up(const std::vector<table_stats>& shards);

/// @brief The sharded table behind `t`, or null for a table on one device.
sharded_view* as_sharded(table& t);

}  // namespace hs
