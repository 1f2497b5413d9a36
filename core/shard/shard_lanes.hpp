// The per-rank steps of a sharded batch that touch every key: count keys by owner, give each key
// its place in the send order (packing its key, value and kind there), and bring each answer back
// to its key's place. On host memory (simulated devices) they run here, in input order; on device
// memory they are kernels (shard_lanes.cu) on the rank's current GPU and stream.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/common/host_device.hpp"
#include "core/common/memory.hpp"
#include "core/common/stream.hpp"
#include "core/shard/shard_map.hpp"

namespace hs::detail {

/// @brief Elements every owner's run of the send order starts on a multiple of: 16 bytes for the
/// one-byte lanes (kinds, statuses), more for the rest (run_layout.hpp says why).
inline constexpr std::uint64_t k_run_align = 16;

/// @brief n rounded up to a multiple of k_run_align.
HS_HD std::uint64_t aligned_up(std::uint64_t n) {
  return (n + k_run_align - 1) / k_run_align * k_run_align;
}

/// @brief Adds to counts[d] the keys owned by device d, for d < m.devices (counts in `space`,
/// zeroed by the caller: one fill clears a batch's counters together).
template <class K>
void count_owners(memory_space space, const shard_map& m, std::span<const K> keys,
                  std::uint64_t* counts, stream_view s);

/// @brief Where place_by_owner packs each key, and its value and kind where a batch has them (null:
/// none), in send order. Values have the keys' width.
template <class K>
struct packed_lanes {
  K* keys = nullptr;
  const K* values_in = nullptr;
  K* values = nullptr;
  const op_kind* kinds_in = nullptr;
  op_kind* kinds = nullptr;
};

/// @brief pos[i] = key i's place in the send order, and the key (value, kind) packed there: device
/// d's keys take the places from the sum of the counts below d, each rounded up to k_run_align,
/// on (the places between runs stay unwritten; `out` holds keys + devices * (k_run_align - 1)).
/// `pos` may be null: a batch that wants no answer back needs no place kept. The
/// host keeps input order within a device; kernels do not. `cursor` is scratch of m.devices
/// counters in `space`, zeroed by the caller. One pass over the keys: placing and packing together
/// read each key once.
template <class K>
void place_by_owner(memory_space space, const shard_map& m, std::span<const K> keys,
                    const std::uint64_t* counts, std::uint64_t* cursor, std::uint32_t* pos,
                    const packed_lanes<K>& out, stream_view s);

/// @brief dst[i] = src[pos[i]] for i < n; elements of `bytes` bytes (1, 4 or 8).
void gather_by(memory_space space, const std::uint32_t* pos, std::size_t n, const void* src,
               void* dst, std::size_t bytes, stream_view s);

#if HS_WITH_CUDA
// The kernels' launchers (shard_lanes.cu).
template <class K>
void device_count_owners(const shard_map& m, std::span<const K> keys, std::uint64_t* counts,
                         stream_view s);
template <class K>
void device_place_by_owner(const shard_map& m, std::span<const K> keys, const std::uint64_t* counts,
                           std::uint64_t* cursor, std::uint32_t* pos, const packed_lanes<K>& out,
                           stream_view s);
void device_gather_by(const std::uint32_t* pos, std::size_t n, const void* src, void* dst,
                      std::size_t bytes, stream_view s);
#endif

}  // namespace hs::detail
