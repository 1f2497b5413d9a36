// The linear family's slot layout and per-slot logic, written once for kernels, the CPU model, the
// invariant checker and the inspection code. A slot is one 64-bit word: key in the low half, value
// in the high half, so that one 64-bit CAS claims an empty slot with its key and value together.
#pragma once
#include <cstdint>

#include "core/common/hd.hpp"
#include "core/common/inspection.hpp"
#include "core/common/types.hpp"

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
  return Hash{}(k) & mask;
}

/// @brief How far a slot lies past a home slot, wrapping at the end of the table (seed 000's
/// probe length: (slot - home) & (capacity - 1)).
HS_HD std::uint32_t displacement(std::uint32_t slot, std::uint32_t home, std::uint32_t mask) {
  return (slot - home) & mask;
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

/// @brief True for a slot holding a user key (live or erased): the slots probe lengths are taken of.
HS_HD bool holds_key(slot_word w) {
  const slot_state st = classify(w);
  return st == slot_state::live || st == slot_state::erased;
}

/// @brief Displacement of the key stored in slot s (only meaningful when holds_key(w)).
template <class Hash>
HS_HD std::uint32_t slot_displacement(std::uint32_t s, slot_word w, std::uint32_t mask) {
  return displacement(s, home_slot<Hash>(slot_key(w), mask), mask);
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
    r.displacement = displacement(s, static_cast<std::uint32_t>(r.home), mask);
  }
  return r;
}

}  // namespace hs::linear
