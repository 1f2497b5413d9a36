// Large insert batches (hive_launch.hpp, bulk_insert). The per-key path dirties a random line
// per insert, and on the H200 those writes, not the reads or the atomics, set its pace. Here the
// batch is grouped by first candidate bucket instead (a nested region partition: two passes of
// coalesced copies, no global atomics), and a block per group of buckets places its keys, a
// thread per key: of equal keys one stays, a key already in its bucket is replaced in place, a
// new key takes the i-th free slot of its bucket while the bucket is under the round's cap; then
// one thread per bucket writes its metadata word once. Keys past the cap go on, with the
// bucket's away bit set first, to rounds grouped the same way that fill second candidates nearly
// full, first candidates to the brim, second candidates to the brim (caps that leave room in
// both of a key's buckets keep evictions rare afterwards). What still finds no room, and every
// key of a bucket whose away bit, stash count, lock or intent was set (it may sit elsewhere),
// goes through the per-key insert kernels with every step of the Hive paper. The rounds write
// buckets with plain stores, so the table runs them alone (hive_table::insert); the host waits
// once, for the count of keys left.
//
// This file holds the host's side (the rounds, the rest's spread, the entry points); what the
// blocks work with is in hive_bulk_args.cuh, the placing kernel in hive_bulk_place.cuh.
#include <cuda_runtime.h>

#include <algorithm>
#include <numeric>

#include "core/common/bit_math.hpp"
#include "core/common/block_scan.cuh"
#include "core/common/cuda_check.hpp"
#include "core/common/region_partition.cuh"
#include "core/hive/hive_bulk_args.cuh"
#include "core/hive/hive_bulk_place.cuh"
#include "core/hive/hive_launch.hpp"

namespace hs::hive {

namespace {

cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }

/// How a table's buckets are grouped: groups of 2^group_shift buckets (2^slots_log slots or more,
/// at most 2^18 groups); the first pass sorts by region (at most 512), the second by group within
/// the region (2^sub_shift of them).
struct grouping {
  int group_shift = 0;
  int sub_shift = 0;
  std::uint32_t regions = 0;
  std::uint32_t subs() const { return 1u << sub_shift; }
  std::uint32_t groups() const { return regions * subs(); }
};

grouping grouping_of(const hive_ref& t, int slots_log) {
  const std::uint64_t buckets = t.geo.buckets();
  const int bits = floor_log2_64(2 * buckets - 1);  // ceil(log2 buckets)
  grouping g;
  const int per_group = std::min(slots_log - floor_log2(static_cast<std::uint32_t>(t.slots)),
                                 k_max_group_buckets_log);
  g.group_shift = std::max(per_group, bits - 18);
  const int group_bits = std::max(0, bits - g.group_shift);
  // Both passes as even as the 512-bin limit allows: a scatter's runs are its chunk over its bins.
  g.sub_shift = std::max(group_bits - floor_log2(detail::k_max_regions), group_bits / 2);
  g.regions = static_cast<std::uint32_t>(((buckets - 1) >> (g.group_shift + g.sub_shift)) + 1);
  return g;
}

struct region_of_bucket {
  candidate_bucket bucket;
  int shift;
  __device__ std::uint32_t operator()(key_type k) const { return bucket(k) >> shift; }
};
struct sub_of_bucket {
  candidate_bucket bucket;
  int shift;
  std::uint32_t mask;
  __device__ std::uint32_t operator()(key_type k) const { return (bucket(k) >> shift) & mask; }
};

/// One round: the pairs grouped by the candidate's bucket group, then placed.
template <class Source>
void round_of(const hive_ref& t, const grouping& gr, place_args a, Source in, std::uint64_t n,
              const unsigned long long* n_now, const detail::nested_view& v, stream_view s) {
  const candidate_bucket bucket{t, a.candidate};
  const int region_shift = gr.group_shift + gr.sub_shift;
  detail::partition_nested(region_of_bucket{bucket, region_shift}, gr.regions,
                           sub_of_bucket{bucket, gr.group_shift, gr.subs() - 1}, gr.subs(), in, n,
                           n_now, v, s);
  a.words = v.out_words;
  a.group_bases = v.group_bases;
  a.group_totals = v.group_totals;
  a.group_shift = gr.group_shift;
  const unsigned grid = gr.groups();
  const cudaStream_t st = cuda(s);
  if (a.first_round) {
    if (t.slots == 8)
      place_groups<8, true><<<grid, k_place_block, 0, st>>>(t, a);
    else if (t.slots == 16)
      place_groups<16, true><<<grid, k_place_block, 0, st>>>(t, a);
    else
      place_groups<32, true><<<grid, k_place_block, 0, st>>>(t, a);
  } else {
    if (t.slots == 8)
      place_groups<8, false><<<grid, k_place_block, 0, st>>>(t, a);
    else if (t.slots == 16)
      place_groups<16, false><<<grid, k_place_block, 0, st>>>(t, a);
    else
      place_groups<32, false><<<grid, k_place_block, 0, st>>>(t, a);
  }
  HS_CUDA_CHECK_LAUNCH();
}

/// out[(i * stride) % n] = words[i], unpacked: the rounds hand their rest on sorted by bucket, and
/// keys of one bucket side by side would contend for its claims and lock in the insert kernels.
__global__ void spread(const word_type* words, std::uint64_t n, std::uint64_t stride,
                       key_type* out_keys, value_type* out_values) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t at = i * stride % n;
  out_keys[at] = key_of(words[i]);
  out_values[at] = value_of(words[i]);
}

/// A stride coprime with n (so i -> i * stride % n is a permutation) that is not small.
std::uint64_t stride_for(std::uint64_t n) {
  std::uint64_t a = 2654435761u;  // i * a fits 64 bits for i < 2^32
  while (std::gcd(a, n) != 1) a -= 2;
  return a;
}

/// The rest through the per-key insert kernels, with tiles of 2 threads whatever the table's
/// tile: most of these keys evict, and a tile serves its threads' keys one after another, so
/// fewer per tile finish sooner (H200, 2^25 slots: the whole fill 2.84 ms against 2.89 with 4).
void insert_kernels(const hive_ref& t, const key_type* keys, const value_type* values,
                    std::uint64_t n, stream_view s) {
  const batch_io io{batch_operands::insert({keys, n}, {values, n}, {}), batch_op::insert};
  hive_ref pairs = t;
  pairs.tile = 2;
  launch_batch(pairs, io, s);
}

}  // namespace

bool bulk_possible(const hive_ref& t, std::uint64_t n) {
  const int group_slots_log = grouping_of(t, k_group_slots_log).group_shift +
                              floor_log2(static_cast<std::uint32_t>(t.slots));
  return n < (std::uint64_t{1} << 32) && t.hashes.count >= 2 &&
         group_slots_log <= k_group_slots_log;
}

bool bulk_scratch::reserve(const hive_ref& t, std::uint64_t n) {
  const grouping gr =
      grouping_of(t, k_group_slots_log);  // the later rounds' coarser groups need less
  const std::uint64_t offsets_needed = detail::nested_offsets_size(n, gr.regions, gr.subs());
  if (capacity >= n && offsets.size() >= offsets_needed) return true;
  try {
    *this = {};
    for (int i = 0; i < 3; ++i) {
      words[i] = buffer<word_type>(memory_space::device, n);
    }
    offsets = buffer<unsigned>(memory_space::device, offsets_needed);
    counts = buffer<unsigned long long>(memory_space::device, 5);
    capacity = n;
    return true;
  } catch (const std::exception&) {
    *this = {};
    return false;
  }
}

std::uint64_t bulk_insert(const hive_ref& t, const key_type* keys, const value_type* values,
                          std::uint64_t n, bulk_scratch& sc, stream_view s) {
  const grouping first_groups = grouping_of(t, k_group_slots_log),
                 later_groups = grouping_of(t, k_later_slots_log);
  const int S = t.slots;
  struct round_plan {
    int candidate, cap;
  };
  // Caps measured on the H200 (16 slots, fills to 0.9 of 2^25 and 2^27, first-round caps 11-13
  // by second-round caps 14-16): first candidates to 3/4 and second ones to 15/16 before the
  // brim rounds was fastest; it leaves ~0.6% of a fill to the per-key path.
  const round_plan plan[] = {{0, S - S / 4}, {1, S - std::max(1, S / 16)}, {0, S}, {1, S}};
  // counts[0]: keys for the insert kernels; counts[1 + r]: keys round r hands to round r + 1.
  // The host knows only bounds of the rounds' sizes (each at most the one before); the kernels
  // read the counts, so the rounds are queued without waiting.
  unsigned long long* counts = sc.counts.data();
  HS_CUDA_CHECK(cudaMemsetAsync(counts, 0, 5 * sizeof(unsigned long long), cuda(s)));
  word_type* rest = sc.words[2].data();

  // Round r reads its input (the first round the caller's arrays: nothing of the caller's is
  // written), groups it through copy `other` into copy `cur`, places from there and hands the
  // keys it leaves to the next round in `other`; then the copies swap.
  int cur = 1, other = 0;
  for (int r = 0; r < 4; ++r) {
    place_args a{};
    a.candidate = plan[r].candidate;
    a.first_round = r == 0;
    a.cap = plan[r].cap;
    if (r < 3) a.lists[to_next] = {sc.words[other].data(), counts + 1 + r};
    a.lists[to_general] = {rest, counts};
    const grouping& gr = r == 0 ? first_groups : later_groups;
    const auto view = detail::nested_layout(sc.offsets.data(), n, gr.regions, gr.subs(),
                                            sc.words[other].data(), sc.words[cur].data());
    if (r == 0)
      round_of(t, gr, a, detail::split_source{keys, values}, n, nullptr, view, s);
    else
      round_of(t, gr, a, detail::word_source{sc.words[cur].data()}, n, counts + r, view, s);
    std::swap(cur, other);
  }
  unsigned long long left = 0;
  HS_CUDA_CHECK(cudaMemcpyAsync(&left, counts, sizeof left, cudaMemcpyDeviceToHost, cuda(s)));
  HS_CUDA_CHECK(cudaStreamSynchronize(cuda(s)));

  // The rest (evictions, the stash, keys that may be elsewhere: every step of the per-key path),
  // spread into a free copy first.
  // spread into copy 0 as a key array and a value array (n words hold both).
  if (left == 0) return 0;
  auto* left_keys = reinterpret_cast<key_type*>(sc.words[0].data());
  value_type* left_values = left_keys + n;
  spread<<<static_cast<unsigned>((left + 255) / 256), 256, 0, cuda(s)>>>(
      rest, left, stride_for(left), left_keys, left_values);
  HS_CUDA_CHECK_LAUNCH();
  insert_kernels(t, left_keys, left_values, left, s);
  return left;
}

}  // namespace hs::hive
