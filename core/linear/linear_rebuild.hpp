// Rebuilding a linear-probing table cluster by cluster (rehash in place, and growth by a power of
// two), written once for the GPU kernels and the host tests.
//
// A cluster is a maximal run of occupied slots (live, erased or tombstone) after an empty slot.
// Every key of a cluster has its home inside the cluster (the slots from its home to it were all
// occupied when it went in), so inserting the cluster's live keys again, in slot order, into the
// same slots emptied, puts each at or before its old slot: clusters never touch one another and
// each can be rebuilt by one thread, with no atomics and no second table. Growing by 2^j works the
// same way: a key's new home is its old one plus a multiple of the old capacity, so the cluster's
// keys land in the 2^j copies of its own range (in slot order, each at or before its old slot in
// that copy), again disjoint from every other cluster's. Shrinking merges clusters of both halves
// (it folds windows instead, at the end of this file), and double hashing has no clusters: its
// rebuilds insert every live key again.
#pragma once
#include <cstdint>

#include "core/common/bit_math.hpp"
#include "core/common/host_device.hpp"
#include "core/linear/linear_layout.hpp"

namespace hs::linear {

/// @brief Slot s starts a cluster: it is occupied and the slot before it (wrapping) is empty.
template <class W, class I>
HS_HD bool starts_cluster(const W* slots, I s, I mask) {
  return occupies(slots[s]) && !occupies(slots[(s - 1) & mask]);
}

/// @brief Rebuilds the cluster that starts at `start` in `old` (capacity old_mask + 1) into `out`
/// (capacity out_mask + 1, a power-of-two multiple): walks it in slot order, drops erased and
/// tombstone slots, and puts each live key at the first empty slot from its home in `out`. With
/// out == old (same mask) the cluster is rebuilt in place; otherwise `out` starts empty. Written
/// for both slot widths (W, with its index type I).
struct rebuilt_cluster {
  std::uint32_t longest = 0;  ///< the longest displacement it gave a key
  std::uint32_t live = 0;     ///< live keys it placed
};

template <class Hash, class W, class I>
HS_HD rebuilt_cluster rebuild_cluster(W* old, I old_mask, I start, W* out, I out_mask) {
  const bool in_place = old == out;
  constexpr I line = 128 / sizeof(W);  // slots a 128-byte line holds
  rebuilt_cluster r;
  for (I i = start;; i = (i + 1) & old_mask) {
#ifdef __CUDA_ARCH__
    // One thread walks a whole cluster, a load at a time: ask for the line 1 KiB ahead at each
    // new line, so a long cluster streams instead of waiting out every line's latency; growing,
    // also the lines of the new slots its keys will look at (one copy of the range per multiple).
    if ((i & (line - 1)) == 0) {
      constexpr I ahead = 1024 / sizeof(W);
      asm volatile("prefetch.global.L2 [%0];" ::"l"(old + ((i + ahead) & old_mask)));
      if (!in_place)
        for (I c = (i + ahead) & old_mask; c <= out_mask && c >= ((i + ahead) & old_mask);
             c += old_mask + 1)
          asm volatile("prefetch.global.L2 [%0];" ::"l"(out + c));
    }
#endif
    const W w = old[i];
    if (!occupies(w))
      break;  // the empty slot that ends the cluster (never written: it is no one's)
    if (classify(w) != slot_state::live) {
      if (in_place) old[i] = slot_traits<W>::empty();  // reusable by a later key of the cluster
      continue;
    }
    const I home = home_slot<Hash>(slot_key(w), out_mask);
    I p = home;
    // The first empty slot from its home; in place, its own slot if none comes before it (then
    // nothing is written: a table without dead slots is only read).
    while (!(in_place && p == i) && !is_empty_slot(out[p]))
      p = (p + 1) & out_mask;  // at or before i's copy
    if (!(in_place && p == i)) {
      if (in_place) old[i] = slot_traits<W>::empty();
      out[p] = w;
    }
    const auto d = static_cast<std::uint32_t>(displacement(p, home, out_mask));
    r.longest = d > r.longest ? d : r.longest;
    ++r.live;
  }
  return r;
}

// Growth through windows (the GPU's fast path for growing a 32-bit table by 2 or 4; 16-byte slots
// would need twice the staging, more shared memory than a block's static limit for shrinking, so
// 64-bit tables grow by clusters and shrink key by key).
//
// rebuild_cluster run by one thread per 32 slots touches its old slots and the F copies of them
// in the new table a word at a time over many microseconds; with a quarter of a million threads
// in flight that is about 100 MB of lines, twice the L2, and ncu read 6.6 GB from DRAM to grow a
// 1 GiB table. Instead a warp takes a window of 1024 old slots: it loads them whole, rebuilds the
// clusters that start and end inside the window into F staged copies of it (each lane the
// clusters starting in its 32 slots, as before), and writes the copies out whole, empty slots
// included, so the new table needs no fill. Only the cluster that holds the window's last slot can
// run past it; that one is deferred, and rebuild_cluster places it after every window is written
// (no other cluster's keys land in its slots, see above). Staged arrays skip one word after every
// 32 (staged_index), so lanes walking their own 32 slots hit different shared-memory banks.

inline constexpr std::uint32_t k_window_slots = 1024;  ///< a warp's: 32 lanes of 32 slots each
inline constexpr std::uint32_t k_staged_slots = k_window_slots + k_window_slots / 32;
inline constexpr std::uint32_t k_no_cluster = ~0u;  ///< a window with nothing deferred

HS_HD std::uint32_t staged_index(std::uint32_t s) { return s + (s >> 5); }

/// @brief The window-relative slot that ends the cluster starting at window slot `first` (its
/// first empty slot), or k_window_slots when the cluster runs past the window.
HS_HD std::uint32_t cluster_end_in_window(const slot_word* window, std::uint32_t first) {
  for (std::uint32_t i = first; i < k_window_slots; ++i)
    if (!occupies(window[staged_index(i)])) return i;
  return k_window_slots;
}

/// @brief One lane's part of a window: rebuilds the clusters starting in window slots
/// [32 lane, 32 lane + 32) (bits `starts`) from the staged window into the F staged copies
/// (`copies`, copy c at c * k_staged_slots, all empty before the window's first lane), for a
/// window that begins at old slot `base` of a table of old_mask + 1 slots growing to out_mask + 1.
/// Returns the start of a cluster that runs past the window in `deferred` (else k_no_cluster).
///
/// The lane's clusters follow one another, so it walks one range of slots, from its first start
/// to the end of its last cluster, skipping what is not live: on the GPU the lanes of a warp then
/// run the same loop together instead of each its own sequence of clusters and scans.
template <class Hash>
HS_HD rebuilt_cluster rebuild_window_lane(const slot_word* window, slot_word* copies,
                                          std::uint32_t lane, std::uint32_t starts,
                                          std::uint32_t base, std::uint32_t old_mask,
                                          std::uint32_t out_mask, std::uint32_t& deferred) {
  rebuilt_cluster r;
  deferred = k_no_cluster;
  if (!starts) return r;
  const std::uint32_t first = lane * 32 + static_cast<std::uint32_t>(lowest_bit(starts));
  const std::uint32_t last = lane * 32 + static_cast<std::uint32_t>(floor_log2(starts));
  std::uint32_t end = cluster_end_in_window(window, last);
  if (end == k_window_slots) {
    deferred = base + last;  // the window's last cluster: placed after every window is written
    end = last;
  }
  const int copy_shift = floor_log2(old_mask) + 1;  // old_mask + 1 = 2^copy_shift (old_mask >= 1)
  for (std::uint32_t i = first; i < end; ++i) {
    const slot_word w = window[staged_index(i)];
    if (classify(w) != slot_state::live) continue;
    // The new home is the old one (inside this key's cluster, so inside the window) plus a
    // multiple of the old capacity: the same window slot in one of the copies.
    const std::uint32_t home = home_slot<Hash>(slot_key(w), out_mask);
    slot_word* copy = copies + (home >> copy_shift) * k_staged_slots;
    const std::uint32_t from = (home & old_mask) - base;
    std::uint32_t p = from;
    while (p <= i && copy[staged_index(p)] != k_empty_slot)
      ++p;                // at or before i: its cluster's keys only
    if (p > i) continue;  // only in a table that breaks the invariant: the caller's count says so
    copy[staged_index(p)] = w;
    r.longest = p - from > r.longest ? p - from : r.longest;
    ++r.live;
  }
  return r;
}

// Shrinking by F through windows. Clusters of the F old ranges that fold onto one new range
// merge, so there is no cluster walk; instead a warp builds one window of 1024 new slots from the
// F old windows that fold onto it, each live key at the first free slot from its home in the
// staged window (lanes race for slots with compare-and-swap in shared memory), and writes the
// window out whole. A key whose home lies outside the window (it sat past its home in an earlier
// old window), or whose window is full from its home on, is inserted into the written table
// afterwards by the ordinary insert. Every key then has only taken slots between its home and
// itself: those placed in a window had that inside the window, the later ones probe as any insert.

/// @brief Places live slot word `w` in the staged new window that starts at new slot `base` of a
/// table of new_mask + 1 slots: the window slot it took, or k_window_slots when it has to wait
/// for the ordinary insert; `from` is its home's window slot when it took one.
template <class Hash>
HS_HD std::uint32_t place_in_window(slot_word* window, slot_word w, std::uint32_t base,
                                    std::uint32_t new_mask, std::uint32_t& from) {
  const std::uint32_t home = home_slot<Hash>(slot_key(w), new_mask);
  if (home < base || home - base >= k_window_slots) return k_window_slots;
  from = home - base;
  for (std::uint32_t p = from; p < k_window_slots; ++p) {
#ifdef __CUDA_ARCH__
    auto* cell = reinterpret_cast<unsigned long long*>(window + staged_index(p));
    if (atomicCAS(cell, static_cast<unsigned long long>(k_empty_slot),
                  static_cast<unsigned long long>(w)) == k_empty_slot)
      return p;
#else
    if (window[staged_index(p)] == k_empty_slot) {
      window[staged_index(p)] = w;
      return p;
    }
#endif
  }
  return k_window_slots;
}

}  // namespace hs::linear
