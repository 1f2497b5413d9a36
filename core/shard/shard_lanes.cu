// The device side of shard_lanes.hpp. Counting and placing never take an atomic a key: a plain
// atomic per key would queue 2^26 updates on a handful of counters. Up to k_few owners (every
// host's GPUs) each warp tallies its keys by owner with one ballot an owner and reserves runs a
// block at a time; more owners (simulated devices go to 64) group each warp's keys by owner with
// __match_any_sync, one atomic for the lanes that share one.
// Each block reads the map of virtual shards from shared memory: looked up in the kernel argument
// (the constant bank), the 32 lanes' different virtual shards would be read one after another.
#include <cuda_runtime.h>

#include "core/common/cuda_check.hpp"
#include "core/shard/shard_lanes.hpp"

namespace hs::detail {

namespace {

constexpr int k_threads = 256;
constexpr int k_items = 8;  // keys a thread takes per block tile

struct owner_table {
  owner_bits rule;
  std::uint32_t devices;
  std::uint8_t device_of[k_virtual_shards];
};

owner_table table_of_map(const shard_map& m) {
  owner_table t{m.rule, m.devices, {}};
  for (std::uint32_t v = 0; v < k_virtual_shards; ++v) t.device_of[v] = m.device_of[v];
  return t;
}

/// The map of virtual shards in the block's shared memory (call before a __syncthreads).
__device__ void load_map(const owner_table& t, std::uint8_t* map) {
  for (std::uint32_t v = threadIdx.x; v < k_virtual_shards; v += blockDim.x)
    map[v] = t.device_of[v];
}

template <class Hash, class K>
__device__ std::uint32_t owner(owner_bits rule, const std::uint8_t* map, K key) {
  return map[virtual_shard<Hash>(rule, key)];
}

/// Where owner d's run starts in the send order: the counts below d, each rounded up to
/// k_run_align. Each place block works it out itself, so no launch has to precede the kernel.
__device__ unsigned long long run_start(const std::uint64_t* counts, std::uint32_t d) {
  unsigned long long at = 0;
  for (std::uint32_t e = 0; e < d; ++e) at += aligned_up(counts[e]);
  return at;
}

/// A thread's items to their places `at` (and their positions, where answers are wanted), each
/// value and kind loaded before any store: a store could alias a later load, so the compiler
/// would not move the load above it, and each would wait out its latency in turn.
template <class K>
__device__ void pack_items(const packed_lanes<K>& out, std::uint32_t* pos, std::size_t tile,
                           std::size_t n, const K (&key)[k_items],
                           const std::uint32_t (&at)[k_items]) {
  K value[k_items];
  op_kind kind[k_items];
  for (int k = 0; k < k_items; ++k) {
    const std::size_t i = tile + std::size_t(k) * k_threads + threadIdx.x;
    if (i >= n) continue;
    if (out.values) value[k] = out.values_in[i];
    if (out.kinds) kind[k] = out.kinds_in[i];
  }
  for (int k = 0; k < k_items; ++k) {
    const std::size_t i = tile + std::size_t(k) * k_threads + threadIdx.x;
    if (i >= n) continue;
    if (pos) pos[i] = at[k];
    out.keys[at[k]] = key[k];
    if (out.values) out.values[at[k]] = value[k];
    if (out.kinds) out.kinds[at[k]] = kind[k];
  }
}

/// Adds `delta` to counter[d] once for the lanes of the warp that share d; returns what the
/// counter held before this lane's part (the lanes below it with the same d come first).
__device__ unsigned long long warp_add(unsigned long long* counter, std::uint32_t d, bool active) {
  const unsigned mask = __ballot_sync(0xffffffffu, active);
  if (!active) return 0;
  const unsigned peers = __match_any_sync(mask, d);
  const int lane = threadIdx.x & 31;
  const int leader = __ffs(peers) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(counter + d, static_cast<unsigned long long>(__popc(peers)));
  base = __shfl_sync(peers, base, leader);
  return base + __popc(peers & ((1u << lane) - 1));
}

constexpr std::uint32_t k_few = 8;  // owners the ballot kernels take
constexpr int k_warps = k_threads / 32;

/// A warp's keys by owner so far (the same in every lane), for owners below k_few.
struct warp_tally {
  unsigned running[k_few] = {};
  /// Counts this item (owner `own`; none when inactive) and returns its rank among the warp's keys
  /// of that owner: the warp's earlier items first, then the lanes below it.
  __device__ unsigned add(std::uint32_t devices, std::uint32_t own, bool active) {
    const unsigned below = (1u << (threadIdx.x & 31)) - 1;
    unsigned rank = 0;
#pragma unroll
    for (std::uint32_t d = 0; d < k_few; ++d) {
      if (d >= devices) break;  // the same in every lane
      const unsigned b = __ballot_sync(0xffffffffu, active && own == d);
      if (active && own == d) rank = running[d] + __popc(b & below);
      running[d] += __popc(b);
    }
    return rank;
  }
  /// Lane d's share: the warp's keys of owner d (0 in lanes from `devices` on).
  __device__ unsigned of_lane(std::uint32_t devices) const {
    const unsigned lane = threadIdx.x & 31;
    unsigned c = 0;
#pragma unroll
    for (std::uint32_t d = 0; d < k_few; ++d)
      if (lane == d && d < devices) c = running[d];
    return c;
  }
};

template <class Hash, class K>
__global__ void count_few_kernel(owner_table t, const K* keys, std::size_t n,
                                 unsigned long long* counts) {
  __shared__ unsigned local[k_few];
  __shared__ std::uint8_t map[k_virtual_shards];
  if (threadIdx.x < k_few) local[threadIdx.x] = 0;
  load_map(t, map);
  __syncthreads();
  warp_tally w;
  const std::size_t tile = std::size_t(blockIdx.x) * k_threads * k_items;
  K key[k_items];  // every load first, as in place_few_kernel
  for (int k = 0; k < k_items; ++k) {
    const std::size_t i = tile + std::size_t(k) * k_threads + threadIdx.x;
    key[k] = i < n ? keys[i] : K{};
  }
  for (int k = 0; k < k_items; ++k) {
    const bool active = tile + std::size_t(k) * k_threads + threadIdx.x < n;
    w.add(t.devices, active ? owner<Hash>(t.rule, map, key[k]) : 0, active);
  }
  if (const unsigned c = w.of_lane(t.devices)) atomicAdd(local + (threadIdx.x & 31), c);
  __syncthreads();
  if (threadIdx.x < t.devices && local[threadIdx.x])
    atomicAdd(counts + threadIdx.x, static_cast<unsigned long long>(local[threadIdx.x]));
}

/// Places a block's keys with no atomic but one a block and owner: each key's place is its
/// owner's run for the block, plus the keys of that owner in the warps below, plus its warp rank.
template <class Hash, class K>
__global__ void place_few_kernel(owner_table t, const K* keys, std::size_t n,
                                 const std::uint64_t* counts, unsigned long long* cursor,
                                 std::uint32_t* pos, packed_lanes<K> out) {
  __shared__ unsigned below[k_warps][k_few];  // keys of owner d in the warps below w
  __shared__ unsigned long long base[k_few];
  __shared__ std::uint8_t map[k_virtual_shards];
  load_map(t, map);
  __syncthreads();
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  const std::size_t tile = std::size_t(blockIdx.x) * k_threads * k_items;
  warp_tally w;
  std::uint32_t own[k_items];
  unsigned rank[k_items];
  K key[k_items];
  // Every key's load first: the tally's ballots would otherwise wait on each load in turn.
  for (int k = 0; k < k_items; ++k) {
    const std::size_t i = tile + std::size_t(k) * k_threads + threadIdx.x;
    key[k] = i < n ? keys[i] : K{};
  }
  for (int k = 0; k < k_items; ++k) {
    const bool active = tile + std::size_t(k) * k_threads + threadIdx.x < n;
    own[k] = active ? owner<Hash>(t.rule, map, key[k]) : 0;
    rank[k] = w.add(t.devices, own[k], active);
  }
  if (lane < k_few) below[warp][lane] = w.of_lane(t.devices);
  __syncthreads();
  if (threadIdx.x < t.devices) {  // a thread an owner: the warps' runs in order, one reservation
    const unsigned d = threadIdx.x;
    unsigned sum = 0;
    for (int v = 0; v < k_warps; ++v) {
      const unsigned c = below[v][d];
      below[v][d] = sum;
      sum += c;
    }
    base[d] = run_start(counts, d) +
              (sum ? atomicAdd(cursor + d, static_cast<unsigned long long>(sum)) : 0);
  }
  __syncthreads();
  std::uint32_t at[k_items];
  for (int k = 0; k < k_items; ++k)
    at[k] = static_cast<std::uint32_t>(base[own[k]] + below[warp][own[k]] + rank[k]);
  pack_items(out, pos, tile, n, key, at);
}

template <class Hash, class K>
__global__ void count_kernel(owner_table t, const K* keys, std::size_t n,
                             unsigned long long* counts) {
  __shared__ unsigned long long local[k_max_devices];
  __shared__ std::uint8_t map[k_virtual_shards];
  for (std::uint32_t d = threadIdx.x; d < t.devices; d += blockDim.x) local[d] = 0;
  load_map(t, map);
  __syncthreads();
  const std::size_t tile = std::size_t(blockIdx.x) * k_threads * k_items;
  for (int k = 0; k < k_items; ++k) {
    const std::size_t i = tile + std::size_t(k) * k_threads + threadIdx.x;
    const bool active = i < n;
    warp_add(local, active ? owner<Hash>(t.rule, map, keys[i]) : 0, active);
  }
  __syncthreads();
  for (std::uint32_t d = threadIdx.x; d < t.devices; d += blockDim.x)
    if (local[d]) atomicAdd(counts + d, local[d]);
}

template <class Hash, class K>
__global__ void place_kernel(owner_table t, const K* keys, std::size_t n,
                             const std::uint64_t* counts, unsigned long long* cursor,
                             std::uint32_t* pos, packed_lanes<K> out) {
  __shared__ unsigned long long local[k_max_devices];
  __shared__ unsigned long long base[k_max_devices];
  __shared__ std::uint8_t map[k_virtual_shards];
  for (std::uint32_t d = threadIdx.x; d < t.devices; d += blockDim.x) local[d] = 0;
  load_map(t, map);
  __syncthreads();
  const std::size_t tile = std::size_t(blockIdx.x) * k_threads * k_items;
  std::uint32_t own[k_items];
  unsigned long long rank[k_items];
  K key[k_items];
  for (int k = 0; k < k_items; ++k) {
    const std::size_t i = tile + std::size_t(k) * k_threads + threadIdx.x;
    const bool active = i < n;
    key[k] = active ? keys[i] : K{};
    own[k] = active ? owner<Hash>(t.rule, map, key[k]) : 0;
    rank[k] = warp_add(local, own[k], active);
  }
  __syncthreads();
  // One reservation a block and owner: the block's keys of owner d take a run of places.
  for (std::uint32_t d = threadIdx.x; d < t.devices; d += blockDim.x)
    base[d] = run_start(counts, d) + (local[d] ? atomicAdd(cursor + d, local[d]) : 0);
  __syncthreads();
  std::uint32_t at[k_items];
  for (int k = 0; k < k_items; ++k) at[k] = static_cast<std::uint32_t>(base[own[k]] + rank[k]);
  pack_items(out, pos, tile, n, key, at);
}

/// dst[i] = src[pos[i]] over a tile of k_items a thread: every place, then every element, loaded
/// before any store (as in pack_items: a store could alias a later load).
template <class T>
__global__ void gather_kernel(const std::uint32_t* pos, std::size_t n, const T* src, T* dst) {
  const std::size_t tile = std::size_t(blockIdx.x) * k_threads * k_items;
  std::uint32_t at[k_items];
  T got[k_items];
  for (int k = 0; k < k_items; ++k) {
    const std::size_t i = tile + std::size_t(k) * k_threads + threadIdx.x;
    if (i < n) at[k] = pos[i];
  }
  for (int k = 0; k < k_items; ++k)
    if (tile + std::size_t(k) * k_threads + threadIdx.x < n) got[k] = src[at[k]];
  for (int k = 0; k < k_items; ++k) {
    const std::size_t i = tile + std::size_t(k) * k_threads + threadIdx.x;
    if (i < n) dst[i] = got[k];
  }
}

unsigned tiles(std::size_t n) {
  return static_cast<unsigned>((n + k_threads * k_items - 1) / (k_threads * k_items));
}

cudaStream_t as_cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }

}  // namespace

template <class K>
void device_count_owners(const shard_map& m, std::span<const K> keys, std::uint64_t* counts,
                         stream_view s) {
  if (keys.empty()) return;
  const owner_table t = table_of_map(m);
  auto* c = reinterpret_cast<unsigned long long*>(counts);
  dispatch_hash(m.hash, [&](auto h) {
    using H = decltype(h);
    if (m.devices <= k_few)
      count_few_kernel<H>
          <<<tiles(keys.size()), k_threads, 0, as_cuda(s)>>>(t, keys.data(), keys.size(), c);
    else
      count_kernel<H>
          <<<tiles(keys.size()), k_threads, 0, as_cuda(s)>>>(t, keys.data(), keys.size(), c);
  });
  HS_CUDA_CHECK_LAUNCH();
}

template <class K>
void device_place_by_owner(const shard_map& m, std::span<const K> keys, const std::uint64_t* counts,
                           std::uint64_t* cursor, std::uint32_t* pos, const packed_lanes<K>& out,
                           stream_view s) {
  auto* c = reinterpret_cast<unsigned long long*>(cursor);
  if (keys.empty()) return;
  const owner_table t = table_of_map(m);
  dispatch_hash(m.hash, [&](auto h) {
    using H = decltype(h);
    if (m.devices <= k_few)
      place_few_kernel<H><<<tiles(keys.size()), k_threads, 0, as_cuda(s)>>>(
          t, keys.data(), keys.size(), counts, c, pos, out);
    else
      place_kernel<H><<<tiles(keys.size()), k_threads, 0, as_cuda(s)>>>(t, keys.data(), keys.size(),
                                                                        counts, c, pos, out);
  });
  HS_CUDA_CHECK_LAUNCH();
}

void device_gather_by(const std::uint32_t* pos, std::size_t n, const void* src, void* dst,
                      std::size_t bytes, stream_view s) {
  if (n == 0) return;
  const auto launch = [&](auto element) {
    using T = decltype(element);
    gather_kernel<T><<<tiles(n), k_threads, 0, as_cuda(s)>>>(pos, n, static_cast<const T*>(src),
                                                             static_cast<T*>(dst));
  };
  if (bytes == 1)
    launch(std::uint8_t{});
  else if (bytes == 4)
    launch(std::uint32_t{});
  else
    launch(std::uint64_t{});
  HS_CUDA_CHECK_LAUNCH();
}

template void device_count_owners(const shard_map&, std::span<const key_type>, std::uint64_t*,
                                  stream_view);
template void device_count_owners(const shard_map&, std::span<const wide_key>, std::uint64_t*,
                                  stream_view);
template void device_place_by_owner(const shard_map&, std::span<const key_type>,
                                    const std::uint64_t*, std::uint64_t*, std::uint32_t*,
                                    const packed_lanes<key_type>&, stream_view);
template void device_place_by_owner(const shard_map&, std::span<const wide_key>,
                                    const std::uint64_t*, std::uint64_t*, std::uint32_t*,
                                    const packed_lanes<wide_key>&, stream_view);

}  // namespace hs::detail
