// Which device owns a key: keys map to a fixed number of virtual shards, virtual shards to
// devices. Going from 2 to 4 devices then moves whole virtual shards, about half of them, and
// never splits one (regpus). The owner is taken from bits of a hash the shards' tables do not use
// (README.md says why); `low_bits` takes the table's own low bits instead, for the lesson that
// shows what then goes wrong.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "core/common/hash.hpp"
#include "core/common/host_device.hpp"
#include "core/table/table.hpp"

namespace hs {

/// @brief Virtual shards of every sharded table: enough that 1 to 64 devices get within 1/256 of
/// an even share, few enough that the map fits a kernel argument.
inline constexpr std::uint32_t k_virtual_shards = 256;

/// @brief The virtual shard of a key. `independent`: the top byte of a 64-bit mix of the key with
/// its own salt (no family places keys by it); `low_bits`: the low byte of the table's hash,
/// the very bits that place the key inside its shard.
template <class Hash, class K>
HS_HD std::uint32_t virtual_shard(owner_bits rule, K key) {
  if (rule == owner_bits::low_bits) return static_cast<std::uint32_t>(Hash{}(key) & 0xffu);
  std::uint64_t x = static_cast<std::uint64_t>(key) ^ 0x6a09e667f3bcc909ull;
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ull;
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ull;
  x ^= x >> 32;
  return static_cast<std::uint32_t>(x >> 56);
}

/// @brief The virtual shards' owners, with the rule that picks a key's virtual shard.
struct shard_map {
  owner_bits rule = owner_bits::independent;
  hash_kind hash = hash_kind::murmur3;
  std::uint32_t devices = 1;
  std::array<std::uint8_t, k_virtual_shards> device_of{};  ///< virtual shard -> device

  /// @brief Virtual shard v on device v mod n: every device gets 256 / n of them.
  static shard_map spread(owner_bits rule, hash_kind hash, std::uint32_t devices);
  /// @brief The map over `devices` devices that moves the fewest virtual shards: each device
  /// keeps its own up to an even share, the rest go to the devices below theirs.
  shard_map regrouped(std::uint32_t devices) const;
  /// @brief Virtual shards each device owns.
  std::vector<std::uint32_t> shares() const;
};

/// @brief The device that owns `key` (host code; kernels call virtual_shard with the hash type).
template <class K>
std::uint32_t owner_of(const shard_map& m, K key) {
  return dispatch_hash(m.hash, [&](auto h) {
    return static_cast<std::uint32_t>(m.device_of[virtual_shard<decltype(h)>(m.rule, key)]);
  });
}

}  // namespace hs
