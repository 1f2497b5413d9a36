// The linear family's slot layout and per-slot logic, written once for kernels, the CPU model, the
// invariant checker and the inspection code. A slot is one 64-bit word: key in the low half, value
// in the high half, so that one 64-bit CAS claims an empty slot with its key and value together.
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/common/hash.hpp"
#include "core/common/hd.hpp"
#include "core/common/inspection.hpp"
#include "core/common/types.hpp"
#include "core/linear/linear_options.hpp"

namespace hs::linear {

using slot_word = std::uint64_t;

/// @brief An empty slot: empty key and empty value (memset 0xff).
inline constexpr slot_word k_empty_slot = ~slot_word{0};

HS_HD slot_word pack(key_type k, value_type v) { return (slot_word{v} << 32) | k; }
HS_HD key_type slot_key(slot_word w) { return static_cast<key_type>(w); }
HS_HD value_type slot_value(slot_word w) { return static_cast<value_type>(w >> 32); }

/// @brief The first slot a key probes: its hash masked to the power-of-two capacity.
template <class Hash>
HS_HD std::uint32_t home_slot(key_type k, std::uint32_t mask) {
  return Hash{}(k)&mask;
}

/// @brief How far a slot lies past a home slot, wrapping at the end of the table (the Simple GPU
/// Hash Table article's probe length: (slot - home) & (capacity - 1)).
HS_HD std::uint32_t displacement(std::uint32_t slot, std::uint32_t home, std::uint32_t mask) {
  return (slot - home) & mask;
}

/// @brief Reach: how far from its home any key homed in a region of 2^k_reach_region_log2 slots was
/// placed. A lookup or a refusal walks no further than its home region's reach, not the table's
/// longest probe. Simulated on the host (2^20 slots filled in random order), the mean bound of a
/// region against the longest probe: load 0.99, 1.9k of 47k slots; 0.999, 18k of 529k; full, 38k
/// of 1.04M. Displacements up to k_reach_near are never recorded (nearly every insert below load
/// 0.9), so every region's bound is at least that far, and walks that short never read the reach
/// (the longest at load 0.8 is 400 slots; reading it from 64 slots on cost lookups there 14%).
inline constexpr unsigned k_reach_region_log2 = 6;
inline constexpr std::uint32_t k_reach_near = 256;

/// @brief Reach words a table of `capacity` slots keeps (one per region, at least one).
HS_HD std::uint64_t reach_regions(std::uint64_t capacity) {
  return capacity >> k_reach_region_log2 ? capacity >> k_reach_region_log2 : 1;
}

/// @brief The probe bound of a key homed in a region whose reach word is `reach`, in a table
/// whose longest probe is `longest`.
HS_HD std::uint32_t reach_bound(std::uint32_t reach, std::uint32_t longest) {
  const std::uint32_t near = reach > k_reach_near ? reach : k_reach_near;
  return near < longest ? near : longest;
}

/// @brief Probing policies: the step from one probe to the next. Linear probing steps 1.
struct linear_probing {
  static constexpr bool is_double = false;
  HS_HD static std::uint32_t step(key_type) { return 1; }
};
/// @brief Double hashing over aligned sectors of 4 slots (32 bytes, what one L2 access returns):
/// a probe reads the sector, its slots in order from the home slot's offset, then jumps a step of
/// sectors, a second hash of the key (a mix independent of the home hash) forced odd, so that with
/// a power-of-two number of sectors it reaches every sector, and so every slot. One slot per
/// probe would fetch a new sector for each (2.5 sectors a hit at load 0.9 against 1.4).
struct double_hashing {
  static constexpr bool is_double = true;
  static constexpr unsigned width_log2 = 2;
  static constexpr std::uint32_t width = 1u << width_log2;  ///< slots a probe reads together
  HS_HD static std::uint32_t step(key_type k) {
    std::uint32_t h = k * 0x9e3779b1u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h | 1u;
  }
};
/// @brief A home hash with a probing policy: probed<murmur3_hash, double_hashing>. A bare hash
/// probes linearly.
template <class Hash, class Probe>
struct probed : Hash {
  using probe = Probe;
};
template <class Hash, class = void>
struct probe_of {
  using type = linear_probing;
};
template <class Hash>
struct probe_of<Hash, std::void_t<typename Hash::probe>> {
  using type = typename Hash::probe;
};

/// @brief The i-th slot a key probes. Linear probing: home + i. Double hashing: slot i % width of
/// sector i / width, counted from the home slot's offset within the sector, the sectors being
/// home's + (i / width) * step (all mod the capacity; capacities are at least 16 slots).
template <class Hash>
HS_HD std::uint32_t probe_slot(std::uint32_t home, key_type k, std::uint64_t i,
                               std::uint32_t mask) {
  using P = typename probe_of<Hash>::type;
  const auto i32 = static_cast<std::uint32_t>(i);
  if constexpr (P::is_double) {
    const std::uint32_t sector = (home >> P::width_log2) + (i32 >> P::width_log2) * P::step(k);
    return ((sector << P::width_log2) | ((home + i32) & (P::width - 1))) & mask;
  } else {
    return (home + i32) & mask;
  }
}

/// @brief The inverse of an odd number modulo 2^32 (Newton's iteration: each step doubles the
/// correct low bits, from 3 at x = a).
HS_HD std::uint32_t odd_inverse(std::uint32_t a) {
  std::uint32_t x = a;
  for (int i = 0; i < 4; ++i) x *= 2u - a * x;
  return x;
}

/// @brief Which probe of key k lands on `slot`: the probe length (for linear probing, the slot
/// distance; for double hashing, the sector's index along the sequence, (sector - home's sector) /
/// step mod the sector count (the step being odd), times the width, plus the slot's offset past
/// the home slot's within the sector).
template <class Hash>
HS_HD std::uint32_t probe_index(std::uint32_t slot, std::uint32_t home, key_type k,
                                std::uint32_t mask) {
  using P = typename probe_of<Hash>::type;
  if constexpr (P::is_double) {
    const std::uint32_t sectors =
        ((slot >> P::width_log2) - (home >> P::width_log2)) * odd_inverse(P::step(k));
    return ((sectors << P::width_log2) | ((slot - home) & (P::width - 1))) & mask;
  } else {
    return displacement(slot, home, mask);
  }
}

/// @brief Calls f(home hash with its probing policy) for a table's hash and probing: a bare hash
/// for linear probing (so its code is what it always was), probed<H, double_hashing> otherwise.
template <class F>
decltype(auto) dispatch_probing(hash_kind h, probe_policy p, F&& f) {
  return dispatch_hash(h, [&](auto hash) -> decltype(auto) {
    using H = decltype(hash);
    if (p == probe_policy::double_hash) return f(probed<H, double_hashing>{});
    return f(hash);
  });
}

/// @brief The state of a slot word.
HS_HD slot_state classify(slot_word w) {
  const key_type k = slot_key(w);
  if (k == k_empty) return slot_state::empty;
  if (k == k_tombstone) return slot_state::tombstone;
  return slot_value(w) == k_empty ? slot_state::erased : slot_state::live;
}

/// @brief True for a slot holding a key a probe must walk past (anything but empty).
HS_HD bool occupies(slot_word w) { return slot_key(w) != k_empty; }

/// @brief True for a slot holding a user key (live or erased): the slots probe lengths are taken
/// of.
HS_HD bool holds_key(slot_word w) {
  const slot_state st = classify(w);
  return st == slot_state::live || st == slot_state::erased;
}

/// @brief Displacement of the key stored in slot s (only meaningful when holds_key(w)).
template <class Hash>
HS_HD std::uint32_t slot_displacement(std::uint32_t s, slot_word w, std::uint32_t mask) {
  return probe_index<Hash>(s, home_slot<Hash>(slot_key(w), mask), slot_key(w), mask);
}

/// @brief Counts of slot states over a range of slots, with the displacement sum of the keys.
struct slot_census {
  std::uint32_t live = 0, erased = 0, tombstone = 0, slots = 0;
  std::uint64_t displacement_sum = 0;

  template <class Hash>
  HS_HD void add(std::uint32_t s, slot_word w, std::uint32_t mask) {
    const slot_state st = classify(w);
    live += st == slot_state::live;
    erased += st == slot_state::erased;
    tombstone += st == slot_state::tombstone;
    ++slots;
    if (st == slot_state::live || st == slot_state::erased)
      displacement_sum += slot_displacement<Hash>(s, w, mask);
  }
  HS_HD occupancy_pixel to_pixel() const {
    if (slots == 0) return {0.f, 0.f, 0.f, k_no_slot};
    const float n = static_cast<float>(slots);
    const std::uint32_t keys = live + erased;
    return {live / n, erased / n, tombstone / n,
            keys ? static_cast<float>(displacement_sum) / static_cast<float>(keys) : 0.f};
  }
};

/// @brief A slot as the tooltip and slot-level views show it.
template <class Hash>
HS_HD slot_record make_slot_record(std::uint32_t s, slot_word w, std::uint32_t mask) {
  slot_record r{s, slot_key(w), slot_value(w), 0, 0, classify(w)};
  if (holds_key(w)) {
    r.home = home_slot<Hash>(r.key, mask);
    r.displacement = probe_index<Hash>(s, static_cast<std::uint32_t>(r.home), r.key, mask);
  }
  return r;
}

}  // namespace hs::linear
