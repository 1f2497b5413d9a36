#include "core/shard/shard_lanes.hpp"

#include <cstring>
#include <vector>

#include "core/common/error.hpp"

namespace hs::detail {

#if !HS_WITH_CUDA
namespace {
[[noreturn]] void no_cuda() { throw gpu_error("device lanes in a build without CUDA"); }
}  // namespace
#endif

template <class K>
void count_owners(memory_space space, const shard_map& m, std::span<const K> keys,
                  std::uint64_t* counts, stream_view s) {
  (void)s;
  if (space == memory_space::device) {
#if HS_WITH_CUDA
    return device_count_owners(m, keys, counts, s);
#else
    no_cuda();
#endif
  }
  for (const K k : keys) ++counts[owner_of(m, k)];
}

template <class K>
void place_by_owner(memory_space space, const shard_map& m, std::span<const K> keys,
                    const std::uint64_t* counts, std::uint64_t* cursor, std::uint32_t* pos,
                    const packed_lanes<K>& out, stream_view s) {
  (void)s;
  if (space == memory_space::device) {
#if HS_WITH_CUDA
    return device_place_by_owner(m, keys, counts, cursor, pos, out, s);
#else
    no_cuda();
#endif
  }
  std::vector<std::uint64_t> start(m.devices, 0);
  for (std::uint32_t d = 1; d < m.devices; ++d) start[d] = start[d - 1] + aligned_up(counts[d - 1]);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::uint32_t o = owner_of(m, keys[i]);
    const auto at = static_cast<std::uint32_t>(start[o] + cursor[o]++);
    if (pos) pos[i] = at;
    out.keys[at] = keys[i];
    if (out.values) out.values[at] = out.values_in[i];
    if (out.kinds) out.kinds[at] = out.kinds_in[i];
  }
}

void gather_by(memory_space space, const std::uint32_t* pos, std::size_t n, const void* src,
               void* dst, std::size_t bytes, stream_view s) {
  (void)s;
  if (space == memory_space::device) {
#if HS_WITH_CUDA
    return device_gather_by(pos, n, src, dst, bytes, s);
#else
    no_cuda();
#endif
  }
  const auto* from = static_cast<const unsigned char*>(src);
  auto* to = static_cast<unsigned char*>(dst);
  for (std::size_t i = 0; i < n; ++i) std::memcpy(to + i * bytes, from + pos[i] * bytes, bytes);
}

template void count_owners(memory_space, const shard_map&, std::span<const key_type>,
                           std::uint64_t*, stream_view);
template void count_owners(memory_space, const shard_map&, std::span<const wide_key>,
                           std::uint64_t*, stream_view);
template void place_by_owner(memory_space, const shard_map&, std::span<const key_type>,
                             const std::uint64_t*, std::uint64_t*, std::uint32_t*,
                             const packed_lanes<key_type>&, stream_view);
template void place_by_owner(memory_space, const shard_map&, std::span<const wide_key>,
                             const std::uint64_t*, std::uint64_t*, std::uint32_t*,
                             const packed_lanes<wide_key>&, stream_view);

}  // namespace hs::detail
