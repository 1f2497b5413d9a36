// linear_ref's far walk (walk_far): the rest of a long linear-probing walk, the warp's lanes
// walking each one's range together. Defined outside the struct so that linear_ref.cuh keeps to
// the view and its probes. Included at the end of linear_ref.cuh, never on its own.
#pragma once
#include <cstdint>

namespace hs::linear {

/// The rest of a long linear-probing walk, for one thread per operation: the word of the first
/// slot at displacement [from, limit) from home that holds k or is empty (empty-keyed if none),
/// and its slot. The lanes of the warp that call it together walk each one's range in turn, a
/// lane per pair of slots: a walk of L slots then takes L / (2 x lanes) loads of consecutive
/// slots instead of L / 2 dependent ones, and the warp's time is the sum of its long walks over
/// its width instead of its longest walk (in a full table of 2^20 slots, its regions' reach
/// has a median of 1.4k slots, a mean of 38k, and a warp's longest of 32 averages 490k).
/// Correct for any subset of lanes: each walks the same sequence of shuffles over the set.
/// Displacements are 32-bit: from >= 1 and last < capacity <= 2^32.
template <class Hash, int G, class W>
__device__ inline W linear_ref<Hash, G, W>::walk_far(key k, index home, std::uint32_t from,
                                                     std::uint32_t last, index& slot_out) const {
  const unsigned lanes = __activemask();
  const unsigned lane = threadIdx.x & 31;
  const auto rank = static_cast<std::uint32_t>(__popc(lanes & ((1u << lane) - 1)));
  const auto size = static_cast<std::uint32_t>(__popc(lanes));
  W mine = empty_slot();
  for (unsigned pending = lanes; pending; pending &= pending - 1) {
    const int owner = __ffs(pending) - 1;
    const key kk = __shfl_sync(lanes, k, owner);
    const std::uint32_t lo = __shfl_sync(lanes, from, owner);
    const std::uint32_t span = __shfl_sync(lanes, last, owner) - lo;  // displacements lo..lo+span
    // 32-bit offsets from the pair (aligned as loads are) that holds displacement lo: a lane's
    // pair at offset rel holds displacements lo - odd + rel and one more.
    const index start = (__shfl_sync(lanes, home, owner) + lo) & mask;
    const std::uint32_t odd = static_cast<std::uint32_t>(start & 1u);
    const index aligned = start - odd;
    W word = empty_slot();
    index at = 0;
    for (std::uint32_t rel = 2 * rank;; rel += 2 * size) {
      const bool in0 = rel >= odd && rel - odd <= span, in1 = rel + 1 - odd <= span;
      const index pair = (aligned + rel) & mask;
      W w0{}, w1{};
      if (in0 || in1) load_two<false>(slots + pair, w0, w1);
      const bool c0 = in0 && (slot_key(w0) == kk || is_empty_slot(w0));
      const bool c1 = in1 && (slot_key(w1) == kk || is_empty_slot(w1));
      const unsigned hits = __ballot_sync(lanes, c0 || c1);
      if (hits) {
        const int first = __ffs(hits) - 1;  // the lowest lane holds the earliest pair
        word = shfl_slot(lanes, c0 ? w0 : w1, first);
        at = __shfl_sync(lanes, pair + (c0 ? 0u : 1u), first);
        break;
      }
      // Done once the next step's first pair (the lowest rank's) starts past the range.
      if (rel - 2 * rank + 2 * size - odd > span) break;
    }
    if (lane == static_cast<unsigned>(owner)) {
      mine = word;
      slot_out = at;
    }
  }
  return mine;
}

}  // namespace hs::linear
