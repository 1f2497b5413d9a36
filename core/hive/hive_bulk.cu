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
#include <cuda_runtime.h>

#include <algorithm>
#include <numeric>

#include "core/common/bit_math.hpp"
#include "core/common/block_scan.cuh"
#include "core/common/cuda_check.hpp"
#include "core/common/region_partition.cuh"
#include "core/hive/hive_launch.hpp"

namespace hs::hive {

namespace {

constexpr int k_place_block = 256;
constexpr unsigned k_group_room =
    2048;  // keys a block sorts in shared memory; more: the insert kernels
// A block's groups: 1024 slots in the first round (at 0.9, ~920 keys a block, and the group's
// words fit in shared memory for the presence check); 8192 in later rounds (at most 512 buckets),
// whose keys are fewer (a block per group costs its latency however few keys it has).
constexpr int k_group_slots_log = 10;
constexpr int k_later_slots_log = 13;
constexpr int k_max_group_buckets_log = 9;
constexpr unsigned k_full = 0xffffffffu;

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

struct candidate_bucket {
  hive_ref r;
  int which;
  __device__ std::uint32_t operator()(key_type k) const {
    return static_cast<std::uint32_t>(r.geo.address(hash_with(fn_at(r.hashes, which), k)));
  }
};
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

/// A list of words the rounds hand on.
struct word_list {
  word_type* words = nullptr;
  unsigned long long* count = nullptr;
};

enum list_id : int { to_next = 0, to_general = 1 };

struct place_args {
  const word_type* words;  // grouped by the candidate's group of buckets
  const unsigned* group_bases;
  const unsigned* group_totals;
  int group_shift;
  int candidate;     // which of the keys' candidates the round fills
  bool first_round;  // presence checked (later rounds' keys are known absent), away bits set
  int cap;           // fill a bucket up to this many live slots
  word_list
      lists[2];  // to_next: first round, keys past the cap; to_general: for the insert kernels
};

/// What a block knows: its keys sorted by bucket, per position what becomes of it, per bucket
/// its metadata and (when presence must be checked) its words, and what it hands on (positions,
/// staged so that each list costs one global atomic per block, not one per key).
template <int S, bool First>
struct block_state {
  static constexpr unsigned k_buckets = std::min(
      (1u << (First ? k_group_slots_log : k_later_slots_log)) / S, 1u << k_max_group_buckets_log);
  word_type sorted[k_group_room];
  word_type words[First ? 1u << k_group_slots_log
                        : 1];              // the group's slots (buckets with keys to look for)
  unsigned short bucket_at[k_group_room];  // local bucket of each sorted position
  unsigned char fate[k_group_room];
  unsigned short fresh_before[k_group_room + 1];  // new keys before each position (block scan)
  unsigned short staged[2][k_group_room];
  unsigned start[k_buckets + 1];
  unsigned fill[k_buckets];
  std::uint32_t free_mask[k_buckets];
  std::uint32_t lock_word[k_buckets];
  unsigned staged_count[2];
  unsigned long long staged_base[2];
  unsigned tally[2];  // replaced, claimed
};

enum fate_of : unsigned char { fate_drop, fate_replaced, fate_fresh, fate_general };

/// Index of the n-th (from 0) set bit of m; n < popcount(m).
__device__ int nth_set_bit(std::uint32_t m, int n) {
  if (((m + (m & (0u - m))) & m) == 0)
    return __ffs(m) - 1 + n;  // one run of set bits (the usual free mask)
  int pos = 0;
  for (int half = 16; half > 0; half /= 2) {
    const std::uint32_t low = m & ((1u << half) - 1u);
    const int c = __popc(low);
    if (n >= c) {
      n -= c;
      m >>= half;
      pos += half;
    } else {
      m = low;
    }
  }
  return pos;
}

/// Free slots bucket lb may still fill in this round.
template <int S>
__device__ int room_of(const place_args& a, std::uint32_t free) {
  const int free_n = __popc(free);
  return std::max(0, std::min(free_n, a.cap - (S - free_n)));
}

constexpr unsigned k_per_thread = k_group_room / k_place_block;  // sorted keys a thread holds

/// A group too large to sort in shared memory: all its keys go to the insert kernels.
__device__ __forceinline__ void hand_group_to_insert_kernels(const place_args& a, unsigned base,
                                                             unsigned total) {
  const unsigned lane = threadIdx.x & 31u;
  const word_list& out = a.lists[to_general];
  for (unsigned i = 0; i < total; i += k_place_block) {
    const unsigned at = i + threadIdx.x;
    const bool want = at < total;
    const unsigned mask = __ballot_sync(k_full, want);
    unsigned long long b0 = 0;
    if (lane == 0 && mask) b0 = atomicAdd(out.count, static_cast<unsigned long long>(__popc(mask)));
    b0 = __shfl_sync(k_full, b0, 0);
    if (want) out.words[b0 + __popc(mask & ((1u << lane) - 1u))] = a.words[base + at];
  }
}

/// The group's free masks and lock words into shared memory; its key counts and tallies zeroed.
template <int S, bool First>
__device__ __forceinline__ void load_bucket_meta(const hive_ref& r, block_state<S, First>& st,
                                                 std::uint64_t first, unsigned buckets) {
  const std::uint64_t in_use = r.geo.buckets();
  for (unsigned i = threadIdx.x; i < buckets; i += k_place_block) {
    st.fill[i] = 0;
    const meta_word m = first + i < in_use ? r.bucket_meta[first + i] : make_meta(0, 0);
    st.free_mask[i] = mask_of(m);
    st.lock_word[i] = lock_of(m);
  }
  if (threadIdx.x < 2) st.staged_count[threadIdx.x] = 0, st.tally[threadIdx.x] = 0;
}

/// The counting sort's first pass: each of the thread's keys counted in its bucket, `local`
/// getting the bucket within the group (0xffff: none, a reserved key or value, counted rejected)
/// and `rank` the key's place among its bucket's (the atomics' order).
template <int S, bool First>
__device__ __forceinline__ void count_keys_by_bucket(const hive_ref& r, const place_args& a,
                                                     block_state<S, First>& st, unsigned base,
                                                     unsigned total, std::uint64_t first,
                                                     unsigned short (&rank)[k_per_thread],
                                                     unsigned short (&local)[k_per_thread]) {
  const candidate_bucket bucket_of{r, a.candidate};
  unsigned rejected = 0;
#pragma unroll
  for (unsigned j = 0; j < k_per_thread; ++j) {
    const unsigned at = j * k_place_block + threadIdx.x;
    local[j] = 0xffff;
    if (at < total) {
      const word_type w = a.words[base + at];
      const key_type k = key_of(w);
      if (is_reserved_key(k) || is_reserved_value(value_of(w))) {
        ++rejected;
      } else {
        local[j] = static_cast<unsigned short>(bucket_of(k) - first);
        rank[j] = static_cast<unsigned short>(atomicAdd(&st.fill[local[j]], 1u));
      }
    }
  }
  if (rejected) atomicAdd(r.counters + c_rejected, static_cast<unsigned long long>(rejected));
}

/// start[lb]: the sorted position of bucket lb's first key, start[buckets]: all the keys (an
/// exclusive scan of the counts by the first warp, k_scan counts a lane).
template <int S, bool First>
__device__ __forceinline__ void scan_bucket_starts(block_state<S, First>& st, unsigned buckets) {
  if (threadIdx.x < 32) {
    const unsigned lane = threadIdx.x & 31u;
    constexpr unsigned k_scan = (block_state<S, First>::k_buckets + 31) / 32;
    unsigned f[k_scan], sum = 0;
#pragma unroll
    for (unsigned i = 0; i < k_scan; ++i) {
      f[i] = lane * k_scan + i < buckets ? st.fill[lane * k_scan + i] : 0;
      sum += f[i];
    }
    unsigned incl = sum;
    for (unsigned off = 1; off < 32; off <<= 1) {
      const unsigned up = __shfl_up_sync(k_full, incl, off);
      if (lane >= off) incl += up;
    }
    unsigned run = incl - sum;
#pragma unroll
    for (unsigned i = 0; i < k_scan; ++i) {
      if (lane * k_scan + i < buckets) st.start[lane * k_scan + i] = run;
      run += f[i];
    }
    if (lane == 31) st.start[buckets] = incl;
  }
}

/// The counting sort's second pass: each of the thread's keys to its sorted position.
template <int S, bool First>
__device__ __forceinline__ void scatter_to_sorted(const place_args& a, block_state<S, First>& st,
                                                  unsigned base,
                                                  const unsigned short (&rank)[k_per_thread],
                                                  const unsigned short (&local)[k_per_thread]) {
#pragma unroll
  for (unsigned j = 0; j < k_per_thread; ++j)
    if (local[j] != 0xffff) {
      const unsigned p = st.start[local[j]] + rank[j];
      st.sorted[p] = a.words[base + j * k_place_block + threadIdx.x];
      st.bucket_at[p] = local[j];
    }
}

/// The first round looks for its keys in their buckets: the words of buckets with live slots
/// and keys, read whole (coalesced).
template <int S, bool First>
__device__ __forceinline__ void load_searched_words(const hive_ref& r, block_state<S, First>& st,
                                                    std::uint64_t first, unsigned buckets) {
  for (unsigned i = threadIdx.x; i < (1u << k_group_slots_log); i += k_place_block) {
    const unsigned lb = i / S;
    if (lb < buckets && st.start[lb + 1] > st.start[lb] && (~st.free_mask[lb] & all_free(S)))
      st.words[i] = r.words[first * S + i];
  }
}

/// Each sorted position's fate: dropped (an equal key follows), replaced in place (the first
/// round finds the key in its bucket), fresh, or for the insert kernels. Consecutive threads take
/// consecutive positions, so their stores fall in few lines.
template <int S, bool First>
__device__ __forceinline__ void decide_fates(const hive_ref& r, const place_args& a,
                                             block_state<S, First>& st, std::uint64_t first,
                                             unsigned valid) {
  for (unsigned p = threadIdx.x; p < valid; p += k_place_block) {
    const unsigned lb = st.bucket_at[p];
    const unsigned s0 = st.start[lb], s1 = st.start[lb + 1];
    unsigned char f = fate_fresh;
    if (s1 - s0 > 32 || (a.first_round && (st.lock_word[lb] & (k_lock_bit | k_hint_bits |
                                                               k_intent_bit | k_away_bit)))) {
      f = fate_general;  // a pile of keys on one bucket, or keys that may sit elsewhere
    } else {
      const key_type k = key_of(st.sorted[p]);  // the last of equal keys stays
      for (unsigned q = p + 1; q < s1; ++q)
        if (key_of(st.sorted[q]) == k) f = fate_drop;
      if constexpr (First)
        if (f == fate_fresh) {
          for (std::uint32_t live = ~st.free_mask[lb] & all_free(S); live; live &= live - 1) {
            const int j = __ffs(live) - 1;
            if (key_of(st.words[lb * S + j]) == k) {
              r.words[(first + lb) * S + j] = st.sorted[p];
              f = fate_replaced;
            }
          }
        }
    }
    st.fate[p] = f;
  }
}

/// fresh_before[p]: new keys before sorted position p (a thread sums k_per_thread consecutive
/// fates, then one block scan). Every thread of the block calls.
template <int S, bool First>
__device__ __forceinline__ void count_fresh_before(block_state<S, First>& st, unsigned valid) {
  const unsigned mine = threadIdx.x * k_per_thread;
  unsigned fresh_here = 0;
  for (unsigned p = mine; p < mine + k_per_thread && p < valid; ++p)
    fresh_here += st.fate[p] == fate_fresh;
  unsigned all = 0;
  unsigned before = block_exclusive_scan<k_place_block>(fresh_here, &all);
  for (unsigned p = mine; p < mine + k_per_thread && p < valid; ++p) {
    st.fresh_before[p] = static_cast<unsigned short>(before);
    before += st.fate[p] == fate_fresh;
  }
  if (threadIdx.x == k_place_block - 1) st.fresh_before[valid] = static_cast<unsigned short>(all);
}

/// New keys take free slots in order while the bucket is under the cap; the others are staged
/// for the next round or the insert kernels.
template <int S, bool First>
__device__ __forceinline__ void place_fresh_keys(const hive_ref& r, const place_args& a,
                                                 block_state<S, First>& st, std::uint64_t first,
                                                 unsigned valid) {
  unsigned replaced = 0;
  for (unsigned p = threadIdx.x; p < valid; p += k_place_block) {
    const unsigned lb = st.bucket_at[p];
    const unsigned char f = st.fate[p];
    replaced += f == fate_replaced;
    int list = -1;
    if (f == fate_general) {
      list = to_general;
    } else if (f == fate_fresh) {
      const std::uint32_t free = st.free_mask[lb];
      const int i = st.fresh_before[p] - st.fresh_before[st.start[lb]];
      if (i < room_of<S>(a, free))
        r.words[(first + lb) * S + nth_set_bit(free, i)] = st.sorted[p];
      else
        list = a.lists[to_next].words ? to_next : to_general;
    }
    // Staged with one shared atomic per warp and list (one per key serializes the warp on it).
    const unsigned active = __activemask(), lane_now = threadIdx.x & 31u;
#pragma unroll
    for (int l = 0; l < 2; ++l) {
      const unsigned mask = __ballot_sync(active, list == l);
      if (!mask) continue;
      const int leader = __ffs(mask) - 1;
      unsigned at = 0;
      if (lane_now == unsigned(leader)) at = atomicAdd(&st.staged_count[l], unsigned(__popc(mask)));
      at = __shfl_sync(active, at, leader);
      if (list == l)
        st.staged[l][at + __popc(mask & ((1u << lane_now) - 1u))] = static_cast<unsigned short>(p);
    }
  }
  if (replaced) atomicAdd(&st.tally[0], replaced);
}

/// A thread per bucket: its free mask less the slots taken, and the away bit before a key whose
/// first candidate it is goes anywhere else.
template <int S, bool First>
__device__ __forceinline__ void write_bucket_meta(const hive_ref& r, const place_args& a,
                                                  block_state<S, First>& st, std::uint64_t first,
                                                  unsigned buckets) {
  for (unsigned lb = threadIdx.x; lb < buckets; lb += k_place_block) {
    const unsigned s0 = st.start[lb], s1 = st.start[lb + 1];
    if (s1 == s0 || s1 - s0 > 32) continue;
    const std::uint32_t free = st.free_mask[lb], lock = st.lock_word[lb];
    if (a.first_round && (lock & (k_lock_bit | k_hint_bits | k_intent_bit | k_away_bit))) continue;
    const int fresh = st.fresh_before[s1] - st.fresh_before[s0];
    const int placed = std::min(fresh, room_of<S>(a, free));
    std::uint32_t claimed = 0;
    if (placed > 0) {
      const int last = nth_set_bit(free, placed - 1);
      claimed = free & (last == 31 ? ~0u : (2u << last) - 1u);
    }
    const std::uint32_t away = a.first_round && fresh > placed ? k_away_bit : 0u;
    if (claimed | away) r.bucket_meta[first + lb] = make_meta(free & ~claimed, lock | away);
    if (placed) atomicAdd(&st.tally[1], unsigned(placed));
  }
}

/// The block's room in each list it hands on to: one global atomic per list.
template <int S, bool First>
__device__ __forceinline__ void reserve_staged_room(const place_args& a,
                                                    block_state<S, First>& st) {
  if (threadIdx.x < 2 &&
      st.staged_count[threadIdx.x]) {  // (no indexing of a by thread: that copies it to the stack)
    unsigned long long* count = threadIdx.x == 0 ? a.lists[0].count : a.lists[1].count;
    st.staged_base[threadIdx.x] =
        atomicAdd(count, static_cast<unsigned long long>(st.staged_count[threadIdx.x]));
  }
}

/// The staged keys copied (coalesced) into the lists, and the block's tallies into the counters.
template <int S, bool First>
__device__ __forceinline__ void copy_staged_and_tally(const hive_ref& r, const place_args& a,
                                                      block_state<S, First>& st) {
#pragma unroll
  for (int list = 0; list < 2; ++list)
    for (unsigned i = threadIdx.x; i < st.staged_count[list]; i += k_place_block)
      a.lists[list].words[st.staged_base[list] + i] = st.sorted[st.staged[list][i]];
  if (r.instrument && threadIdx.x == 0) {
    if (st.tally[0]) atomicAdd(r.counters + c_step1, static_cast<unsigned long long>(st.tally[0]));
    if (st.tally[1]) atomicAdd(r.counters + c_step2, static_cast<unsigned long long>(st.tally[1]));
  }
}

/// One block per group of buckets, a thread per key: the keys are sorted by bucket in shared
/// memory; each learns whether an equal key follows it (then it is dropped: one of equal keys
/// stays, which one is not promised), whether its key is in the bucket already (replaced in
/// place), or which free slot it takes (the i-th new key of a bucket the i-th free slot, while
/// the bucket is under the round's cap); the rest is handed on. One thread per bucket then writes
/// its metadata word.
template <int S, bool First>
__global__ void __launch_bounds__(k_place_block, 6) place_groups(hive_ref r, place_args a) {
  __shared__ block_state<S, First> st;
  const unsigned g = blockIdx.x;
  const unsigned total = a.group_totals[g];
  if (total == 0) return;
  const unsigned base = a.group_bases[g];
  if (total > k_group_room) {  // the whole block takes this branch
    hand_group_to_insert_kernels(a, base, total);
    return;
  }
  const unsigned buckets = 1u << a.group_shift;
  const std::uint64_t first = std::uint64_t{g} << a.group_shift;
  load_bucket_meta(r, st, first, buckets);
  __syncthreads();

  // Sort by bucket (a counting sort).
  // (A thread keeps only each key's bucket and rank: the words are read again, from L2, to be
  // placed; holding them would cost 16 registers and so blocks per SM.)
  unsigned short rank[k_per_thread];
  unsigned short local[k_per_thread];  // 0xffff: none
  count_keys_by_bucket(r, a, st, base, total, first, rank, local);
  __syncthreads();
  scan_bucket_starts(st, buckets);
  __syncthreads();
  scatter_to_sorted(a, st, base, rank, local);
  if constexpr (First) load_searched_words(r, st, first, buckets);
  __syncthreads();

  const unsigned valid = st.start[buckets];
  decide_fates(r, a, st, first, valid);
  __syncthreads();
  count_fresh_before(st, valid);
  __syncthreads();
  place_fresh_keys(r, a, st, first, valid);
  write_bucket_meta(r, a, st, first, buckets);

  // Hand on: one atomic per list, then coalesced copies.
  __syncthreads();
  reserve_staged_room(a, st);
  __syncthreads();
  copy_staged_and_tally(r, a, st);
}

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
