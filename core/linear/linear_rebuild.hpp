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
// that copy), again disjoint from every other cluster's. Shrinking merges clusters of both halves,
// and double hashing has no clusters: those rebuilds insert every live key again instead.
#pragma once
#include <cstdint>

#include "core/common/hd.hpp"
#include "core/linear/linear_layout.hpp"

namespace hs::linear {

/// @brief Slot s starts a cluster: it is occupied and the slot before it (wrapping) is empty.
HS_HD bool starts_cluster(const slot_word* slots, std::uint32_t s, std::uint32_t mask) {
  return occupies(slots[s]) && !occupies(slots[(s - 1) & mask]);
}

/// @brief Rebuilds the cluster that starts at `start` in `old` (capacity old_mask + 1) into `out`
/// (capacity out_mask + 1, a power-of-two multiple): walks it in slot order, drops erased and
/// tombstone slots, and puts each live key at the first empty slot from its home in `out`. With
/// out == old (same mask) the cluster is rebuilt in place; otherwise `out` starts empty.
struct rebuilt_cluster {
  std::uint32_t longest = 0;  ///< the longest displacement it gave a key
  std::uint32_t live = 0;     ///< live keys it placed
};

template <class Hash>
HS_HD rebuilt_cluster rebuild_cluster(slot_word* old, std::uint32_t old_mask, std::uint32_t start, slot_word* out,
                                      std::uint32_t out_mask) {
  const bool in_place = old == out;
  rebuilt_cluster r;
  for (std::uint32_t i = start;; i = (i + 1) & old_mask) {
#ifdef __CUDA_ARCH__
    // One thread walks a whole cluster, a load at a time: ask for the line 1 KiB ahead at each
    // new line, so a long cluster streams instead of waiting out every line's latency; growing,
    // also the lines of the new slots its keys will look at (one copy of the range per multiple).
    if ((i & 15) == 0) {
      asm volatile("prefetch.global.L2 [%0];" ::"l"(old + ((i + 128) & old_mask)));
      if (!in_place)
        for (std::uint32_t c = (i + 128) & old_mask; c <= out_mask && c >= ((i + 128) & old_mask); c += old_mask + 1)
          asm volatile("prefetch.global.L2 [%0];" ::"l"(out + c));
    }
#endif
    const slot_word w = old[i];
    if (!occupies(w)) break;  // the empty slot that ends the cluster (never written: it is no one's)
    if (classify(w) != slot_state::live) {
      if (in_place) old[i] = k_empty_slot;  // reusable by a later key of the cluster
      continue;
    }
    const std::uint32_t home = home_slot<Hash>(slot_key(w), out_mask);
    std::uint32_t p = home;
    // The first empty slot from its home; in place, its own slot if none comes before it (then
    // nothing is written: a table without dead slots is only read).
    while (!(in_place && p == i) && out[p] != k_empty_slot) p = (p + 1) & out_mask;  // at or before i's copy
    if (!(in_place && p == i)) {
      if (in_place) old[i] = k_empty_slot;
      out[p] = w;
    }
    const std::uint32_t d = displacement(p, home, out_mask);
    r.longest = d > r.longest ? d : r.longest;
    ++r.live;
  }
  return r;
}

}  // namespace hs::linear
