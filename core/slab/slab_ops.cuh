// The slab hash's operations for one tile (SlabHash, III-B and IV-C): each walks its key's bucket
// list from the base slab, one slab read per step by the whole tile; every decision is taken from
// ballots and shuffles, so the tile's lanes stay together. Updates are single 64-bit CASes on a
// pair (the key word first); a failed CAS re-reads the same slab. A full list gets a new slab from
// SlabAlloc, linked by one 32-bit CAS on the tail's next pointer; the loser of that race returns
// its slab and follows the winner's (slab_alloc.cuh says how a scan for free slabs still sees it).
#pragma once
#include <cstdint>

#include "core/slab/slab_alloc.cuh"

namespace hs::slab {

/// @brief What a tile does for one operation.
enum class dev_op : std::uint8_t { search, replace, insert, erase, erase_all, count, search_all };

template <class Hash>
struct slab_device {
  std::uint32_t* base = nullptr;
  std::uint32_t buckets = 0;
  slab_mode mode = slab_mode::unique;
  Hash hash{};
  pool_ref pool;
};

struct op_result {
  op_status status = op_status::none;
  std::uint32_t value = k_empty;
  std::uint32_t count = 0;
};

/// @brief Where SEARCHALL writes one key's values.
struct value_range {
  value_type* out = nullptr;
  std::uint64_t at = 0, end = 0;
};

// teach-region slab-cas-pair
template <int T>
__device__ bool cas_pair(const slab_tile<T>& t, std::uint32_t* slab, int pair,
                         std::uint64_t expected, std::uint64_t desired) {
  bool ok = false;
  if (t.lane == 0)
    // [teach:cas]
    ok = atomicCAS(reinterpret_cast<unsigned long long*>(slab + 2 * pair), expected, desired) ==
         expected;
  return t.shfl(ok, 0);
}
// teach-region-end

// teach-region slab-run-op
// The list is full: allocate a slab, empty it, and link it after the tail. Returns the slab to
// read next (the fresh one, or the one another tile linked first), or null when the pool is out.
template <int T>
__device__ __forceinline__ std::uint32_t* link_new_slab(const slab_tile<T>& t,
                                                        alloc_state<T>& alloc,
                                                        std::uint32_t tile_id, const pool_ref& pool,
                                                        std::uint32_t* tail) {
  const std::uint32_t fresh = allocate(t, alloc, pool, tile_id, true);  // [teach:allocate]
  if (fresh == k_null_address) return nullptr;
  std::uint32_t* fresh_slab = pool_slab(pool, fresh);
  write_empty_slab(t, fresh_slab);
  __syncwarp(t.mask);  // every lane's stores, then one fence, before the slab is published
  __threadfence();
  std::uint32_t seen = 0;
  if (t.lane == 0) seen = atomicCAS(tail + k_next_word, k_null_address, fresh);  // [teach:link]
  seen = t.shfl(seen, 0);
  if (seen == k_null_address) {
    if (t.lane == 0) release_held_slab(pool, false);
    return fresh_slab;
  }
  if (t.lane == 0) {
    deallocate(pool, fresh);
    release_held_slab(pool, true);
  }
  return pool_slab(pool, seen);
}

template <int T, class Hash>
__device__ __forceinline__ op_result run_op(const slab_tile<T>& t, alloc_state<T>& alloc,
                                            std::uint32_t tile_id, const slab_device<Hash>& d,
                                            dev_op op, key_type k, value_type v,
                                            value_range range) {
  op_result r;
  // [teach:bucket]
  std::uint32_t* slab = d.base + std::size_t{bucket_of(d.hash, k, d.buckets)} * k_slab_words;
  for (;;) {
    const slab_words<32 / T> s = read_slab(t, slab);  // [teach:read]
    if (op == dev_op::search) {
      const int p = first_pair(t, s, [k](std::uint32_t key) { return key == k; });  // [teach:match]
      if (p >= 0) return {op_status::found, word_of(t, s, 2 * p + 1), 1};           // [teach:found]
    } else if (op == dev_op::replace || op == dev_op::insert) {
      const bool unique = op == dev_op::replace;
      const int p = first_pair(
          // [teach:pair_free]
          t, s, [k, unique](std::uint32_t key) { return key == k_empty || (unique && key == k); });
      if (p >= 0) {
        const std::uint32_t old_key = word_of(t, s, 2 * p), old_value = word_of(t, s, 2 * p + 1);
        if (cas_pair(t, slab, p, pack_pair(old_key, old_value), pack_pair(k, v)))  // [teach:claim]
          // [teach:claimed]
          return {old_key == k ? op_status::replaced : op_status::inserted, k_empty, 1};
        continue;  // another tile changed that pair: read the slab again
      }
    } else if (op == dev_op::erase || op == dev_op::erase_all) {
      const int p = first_pair(t, s, [k](std::uint32_t key) { return key == k; });
      if (p >= 0) {
        const std::uint32_t old_value = word_of(t, s, 2 * p + 1);
        if (cas_pair(t, slab, p, pack_pair(k, old_value),  // [teach:erase]
                     pack_pair(deleted_key(d.mode), k_empty))) {
          ++r.count;
          if (op == dev_op::erase) return {op_status::erased, k_empty, 1};  // [teach:erased]
        }
        continue;  // DELETEALL looks for more in this slab; a failed CAS retries
      }
    } else if (op == dev_op::count) {
      r.count += count_pairs(t, s, [k](std::uint32_t key) { return key == k; });
    } else {  // search_all: the matches in pair order, while the range has room
      const int first = first_pair(t, s, [k](std::uint32_t key) { return key == k; });
      if (first >= 0)
        for (int p = first; p < k_slab_pairs && range.at < range.end; ++p) {
          const std::uint32_t key = word_of(t, s, 2 * p), value = word_of(t, s, 2 * p + 1);
          if (key != k) continue;
          if (t.lane == 0) range.out[range.at] = value;
          ++range.at;
          ++r.count;
        }
      if (range.at >= range.end) return r;
    }
    const std::uint32_t next = word_of(t, s, k_next_word);
    if (next != k_null_address) {
      slab = pool_slab(d.pool, next);  // [teach:next]
      continue;
    }
    if (op != dev_op::replace && op != dev_op::insert) {
      // [teach:missing]
      r.status = op == dev_op::search || op == dev_op::erase ? op_status::missing : op_status::none;
      return r;
    }
    slab = link_new_slab(t, alloc, tile_id, d.pool, slab);
    if (!slab) return {op_status::failed_full, k_empty, 0};
  }
}
// teach-region-end

}  // namespace hs::slab
