#include "core/shard/shard_map.hpp"

namespace hs {

shard_map shard_map::spread(owner_bits rule, hash_kind hash, std::uint32_t devices) {
  shard_map m;
  m.rule = rule;
  m.hash = hash;
  m.devices = devices;
  for (std::uint32_t v = 0; v < k_virtual_shards; ++v)
    m.device_of[v] = static_cast<std::uint8_t>(v % devices);
  return m;
}

shard_map shard_map::regrouped(std::uint32_t n) const {
  shard_map out = *this;
  out.devices = n;
  // An even share is 256 / n, and the first 256 mod n devices take one more.
  std::vector<std::uint32_t> quota(n, k_virtual_shards / n);
  for (std::uint32_t d = 0; d < k_virtual_shards % n; ++d) ++quota[d];
  std::vector<std::uint32_t> kept(n, 0);
  std::vector<std::uint32_t> homeless;
  for (std::uint32_t v = 0; v < k_virtual_shards; ++v) {
    const std::uint32_t d = device_of[v];
    if (d < n && kept[d] < quota[d])
      ++kept[d];
    else
      homeless.push_back(v);
  }
  std::uint32_t d = 0;
  for (const std::uint32_t v : homeless) {
    while (kept[d] == quota[d]) ++d;
    out.device_of[v] = static_cast<std::uint8_t>(d);
    ++kept[d];
  }
  return out;
}

std::vector<std::uint32_t> shard_map::shares() const {
  std::vector<std::uint32_t> n(devices, 0);
  for (const std::uint8_t d : device_of) ++n[d];
  return n;
}

}  // namespace hs
