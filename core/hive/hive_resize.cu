// Linear-hashing resize kernels (the Hive paper, IV-C): a lane per slot of a bucket pair, 32 /
// slots pairs a warp. They run alone on the table (the host holds it exclusively), so plain loads
// and stores suffice.
#include <cuda_runtime.h>

#include <algorithm>

#include "core/common/cuda_check.hpp"
#include "core/hive/hive_launch.hpp"

namespace hs::hive {

namespace {

constexpr int k_block = 256;
cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }

/// The candidate that placed w in bucket b under geometry g (the first whose address is b).
__device__ std::uint32_t placing_hash(const hive_ref& r, const geometry& g, key_type k,
                                      std::uint64_t b) {
  std::uint32_t h0 = 0;
  for (int i = 0; i < r.hashes.count; ++i) {
    const std::uint32_t h = hash_with(fn_at(r.hashes, i), k);
    if (i == 0) h0 = h;
    if (g.address(h) == b) return h;
  }
  return h0;  // not reachable when the table is consistent
}

// A bucket of S slots (8, 16 or 32) takes S consecutive lanes, 32 / S buckets a warp: with a warp
// a bucket, half the lanes of the default 16-slot buckets idled (ncu on the split: compute-bound,
// 14 of 32 threads active). `slot` is a lane's slot, `first` its bucket's first lane.
struct bucket_lanes {
  std::uint64_t w;  ///< the lane's bucket (pair) among the step's
  unsigned slot, first;
  __device__ explicit bucket_lanes(int slots) {
    // Slots are a power of two: a shift, not a 64-bit division (a software routine of about a
    // hundred instructions, which was a quarter of the split kernel's).
    const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
    w = t >> (__ffs(slots) - 1);
    slot = static_cast<unsigned>(t) & static_cast<unsigned>(slots - 1);
    first = (threadIdx.x & 31u) - slot;
  }
  /// The lanes of this bucket among a warp-wide ballot, as a bucket's slot mask.
  __device__ std::uint32_t own(unsigned ballot, int slots) const {
    return (ballot >> first) & all_free(slots);
  }
};

unsigned grid_for_buckets(std::uint64_t count, int slots) {
  return static_cast<unsigned>((count * static_cast<unsigned>(slots) + k_block - 1) / k_block);
}

// Split: source b = split + w, partner p = b + round. An entry moves when the hash that placed it
// takes its next bit into the partner; movers are packed into the (empty) partner in slot order.
// The source bucket is read from `src` (r's own arrays, or the old ones of a new round: then it is
// written whole into r's).
__global__ void split_kernel(hive_ref r, std::uint64_t count, const word_type* src_words,
                             const meta_word* src_meta) {
  const bucket_lanes at(r.slots);
  const bool mine = at.w < count;  // no early return before the ballot: it needs the whole warp
  const bool in_place = src_words == r.words;
  const std::uint64_t b = r.geo.split + at.w, p = b + r.geo.round;
  const geometry after{r.geo.round, b + 1};  // b split: its entries address with one more bit
  const word_type word = mine ? src_words[b * r.slots + at.slot] : k_empty_word;
  bool mover = false;
  if (word != k_empty_word) mover = after.address(placing_hash(r, r.geo, key_of(word), b)) == p;
  const unsigned movers = at.own(__ballot_sync(0xffffffffu, mover), r.slots);
  if (!mine) return;
  // The partner's slots past the movers start empty (its memory is fresh); movers fill the rest.
  if (at.slot >= static_cast<unsigned>(__popc(movers)))
    r.words[p * r.slots + at.slot] = k_empty_word;
  if (mover) {
    const int rank = __popc(movers & ((1u << at.slot) - 1u));
    r.words[p * r.slots + rank] = word;
  }
  if (mover || !in_place) r.words[b * r.slots + at.slot] = mover ? k_empty_word : word;
  if (at.slot == 0) {
    const meta_word m = src_meta[b] | movers;
    r.bucket_meta[b] = m;
    // Keys whose first candidate was b may now have p: the partner inherits b's away bit.
    r.bucket_meta[p] = make_meta(
        all_free(r.slots) & ~((__popc(movers) == 32) ? 0xffffffffu : (1u << __popc(movers)) - 1u),
        lock_of(m) & k_away_bit);
  }
}

// Merge, pair w = (b, b + round) with b = split - 1 - w: the partner's entries take b's free slots
// in rank order (the i-th mover the i-th free slot); those past b's free slots go to `overflow`
// (the host inserts them again: another candidate, an eviction path or the stash). The partner is
// left as it was: past the buckets in use nothing reads it, and a split writes its partner whole,
// words and metadata (clearing it had been half of a merge's writes).
__global__ void merge_kernel(hive_ref r, std::uint64_t count, word_type* overflow,
                             unsigned long long* overflowed) {
  const bucket_lanes at(r.slots);
  const bool mine =
      at.w < count;  // no early return before the ballot and shuffle: they need the whole warp
  const std::uint64_t b = r.geo.split - 1 - at.w, p = b + r.geo.round;
  const word_type word = mine ? r.words[p * r.slots + at.slot] : k_empty_word;
  const bool mover = word != k_empty_word;
  const unsigned movers = at.own(__ballot_sync(0xffffffffu, mover), r.slots);
  // The bucket's first lane reads the mask and writes it back below: the others use its copy.
  const bool reads = mine && at.slot == 0;
  std::uint32_t free = __shfl_sync(
      0xffffffffu, reads ? mask_of(r.bucket_meta[b]) & all_free(r.slots) : 0u, at.first);
  if (!mine) return;
  const int room = __popc(free);
  if (mover) {
    const int rank = __popc(movers & ((1u << at.slot) - 1u));
    if (rank < room) {
      r.words[b * r.slots + __fns(free, 0, rank + 1)] = word;  // the (rank + 1)-th free slot
    } else {
      overflow[atomicAdd(overflowed, 1ull)] = word;
    }
  }
  if (at.slot == 0) {
    // The lowest min(movers, room) free slots are taken now.
    const int taken = min(__popc(movers), room);
    free = taken == room ? 0u : free & ~((1u << __fns(free, 0, taken + 1)) - 1u);
    // Keys whose first candidate was p now have b: b takes p's away bit too.
    r.bucket_meta[b] = (r.bucket_meta[b] & ~meta_word{all_free(r.slots)}) | free |
                       (r.bucket_meta[p] & lock_part(k_away_bit));
  }
}

__global__ void reset_kernel(hive_ref r, std::uint64_t from, std::uint64_t to) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = from * r.slots + blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
       i < to * r.slots; i += stride)
    r.words[i] = k_empty_word;
  for (std::uint64_t b = from + blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; b < to;
       b += stride) {
    r.bucket_meta[b] = make_meta(all_free(r.slots), 0);
  }
}

__global__ void clear_hints_kernel(meta_word* meta, std::uint64_t n) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    meta[i] &= ~lock_part(k_hint_bits);
}

}  // namespace

void launch_split(const hive_ref& t, std::uint64_t count, const word_type* src_words,
                  const meta_word* src_meta, stream_view s) {
  if (!count) return;
  split_kernel<<<grid_for_buckets(count, t.slots), k_block, 0, cuda(s)>>>(t, count, src_words,
                                                                          src_meta);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_merge(const hive_ref& t, std::uint64_t count, word_type* overflow,
                  unsigned long long* overflowed, stream_view s) {
  if (!count) return;
  merge_kernel<<<grid_for_buckets(count, t.slots), k_block, 0, cuda(s)>>>(t, count, overflow,
                                                                          overflowed);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_reset_buckets(const hive_ref& t, std::uint64_t from, std::uint64_t to, stream_view s) {
  if (to <= from) return;
  const auto grid = static_cast<unsigned>(
      std::min<std::uint64_t>(((to - from) * t.slots + k_block - 1) / k_block, 8192));
  reset_kernel<<<grid, k_block, 0, cuda(s)>>>(t, from, to);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_clear_hints(const hive_ref& t, stream_view s) {
  const std::uint64_t n = t.geo.buckets();
  const auto grid =
      static_cast<unsigned>(std::min<std::uint64_t>((n + k_block - 1) / k_block, 4096));
  clear_hints_kernel<<<grid, k_block, 0, cuda(s)>>>(t.bucket_meta, n);
  HS_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hs::hive
