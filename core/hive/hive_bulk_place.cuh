// The kernel that places a bulk round's keys (place_groups): a block per group of buckets, a
// thread per key, and the steps it runs (sort by bucket, fates, free slots, metadata words, the
// lists handed on). Apart from the host's rounds (hive_bulk.cu), which launch it. Included by
// hive_bulk.cu alone: its unnamed namespace keeps these names to that file, as they were.
#pragma once
#include <algorithm>
#include <cstdint>

#include "core/common/block_scan.cuh"
#include "core/hive/hive_bulk_args.cuh"
#include "core/hive/hive_launch.hpp"

namespace hs::hive {

namespace {

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

}  // namespace

}  // namespace hs::hive
