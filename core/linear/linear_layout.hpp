// The linear family's slot layout and per-slot logic, written once for kernels, the CPU model, the
// invariant checker and the inspection code, for both key widths. A 32-bit table's slot is one
// 64-bit word, key in the low half and value in the high half, so that one 64-bit CAS claims an
// empty slot with its key and value together; a 64-bit table's slot is a 16-byte pair, claimed by
// one 16-byte CAS (sm_90 and up; linear_ref.cuh says what older GPUs do). The width is the slot
// type W: every function here and every kernel takes it as a template parameter, with its keys,
// values and slot indices from slot_traits<W>.
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/common/hash.hpp"
#include "core/common/host_device.hpp"
#include "core/common/key_width.hpp"
#include "core/common/sample_parts.hpp"
#include "core/common/types.hpp"
#include "core/linear/linear_options.hpp"

namespace hs::linear {

/// @brief A 32-bit table's slot: key in the low half, value in the high half.
using slot_word = std::uint64_t;
/// @brief A 64-bit table's slot: a 16-byte pair, aligned so that one load or CAS takes it whole.
struct alignas(16) wide_slot {
  std::uint64_t key, value;
  HS_HD friend constexpr bool operator==(wide_slot a, wide_slot b) {
    return a.key == b.key && a.value == b.value;
  }
  HS_HD friend constexpr bool operator!=(wide_slot a, wide_slot b) { return !(a == b); }
};

/// @brief What a slot type holds: its key and value types, the type of its slot indices (32 bits
/// for tables of at most 2^32 slots, 64 for the wide ones, which may be larger), and how a pair
/// is packed. An empty slot is the empty key with the empty value (memset 0xff).
template <class W>
struct slot_traits;
template <>
struct slot_traits<slot_word> {
  using key = key_type;
  using value = value_type;
  using index = std::uint32_t;
  static constexpr key_width width = key_width::bits32;
  HS_HD static constexpr slot_word empty() { return ~slot_word{0}; }
  HS_HD static constexpr slot_word pack(key k, value v) { return (slot_word{v} << 32) | k; }
  HS_HD static constexpr key key_of(slot_word w) { return static_cast<key>(w); }
  HS_HD static constexpr value value_of(slot_word w) { return static_cast<value>(w >> 32); }
};
template <>
struct slot_traits<wide_slot> {
  using key = wide_key;
  using value = wide_value;
  using index = std::uint64_t;
  static constexpr key_width width = key_width::bits64;
  HS_HD static constexpr wide_slot empty() { return {~0ull, ~0ull}; }
  HS_HD static constexpr wide_slot pack(key k, value v) { return {k, v}; }
  HS_HD static constexpr key key_of(wide_slot w) { return w.key; }
  HS_HD static constexpr value value_of(wide_slot w) { return w.value; }
};
template <class W>
using key_of_t = typename slot_traits<W>::key;
template <class W>
using value_of_t = typename slot_traits<W>::value;
template <class W>
using index_of_t = typename slot_traits<W>::index;

/// @brief The slot type of a key type.
template <class K>
using slot_of_key = std::conditional_t<std::is_same_v<K, wide_key>, wide_slot, slot_word>;
/// @brief Bytes a slot takes: the key and the value, 8 or 16.
constexpr std::uint32_t slot_bytes(key_width w) { return 2 * bits_of(w) / 8; }

/// @brief An empty 32-bit slot: empty key and empty value (memset 0xff).
inline constexpr slot_word k_empty_slot = ~slot_word{0};

template <class W>
HS_HD constexpr W pack_slot(key_of_t<W> k, value_of_t<W> v) {
  return slot_traits<W>::pack(k, v);
}
HS_HD slot_word pack(key_type k, value_type v) { return pack_slot<slot_word>(k, v); }
// The accessors are overloads, not templates, so that a 64-bit word of another spelling
// (unsigned long long, as the CUDA vector types hold it) is read as a 32-bit table's slot.
HS_HD key_type slot_key(slot_word w) { return slot_traits<slot_word>::key_of(w); }
HS_HD wide_key slot_key(wide_slot w) { return w.key; }
HS_HD value_type slot_value(slot_word w) { return slot_traits<slot_word>::value_of(w); }
HS_HD wide_value slot_value(wide_slot w) { return w.value; }

/// @brief Probes walk fewer than 2^32 slots: displacements, the longest probe and the reach are
/// 32-bit. Only a 64-bit table of more than 2^32 slots could need a longer walk (a cluster of
/// 2^32 keys); its insert then reports failed_full, as if the table were full.
inline constexpr std::uint64_t k_walk_limit = std::uint64_t{1} << 32;

/// @brief The key type a key argument is hashed as (a literal or a narrower integer as a 32-bit
/// key), and the index type of a slot computation (64-bit when any argument is).
template <class K>
using key_arg_t = std::conditional_t<(sizeof(K) > 4), std::uint64_t, std::uint32_t>;
template <class... I>
using index_arg_t = std::conditional_t<((sizeof(I) > 4) || ...), std::uint64_t, std::uint32_t>;

/// @brief Slots a home is aligned to: 64-bit keys start their walk at the first slot of their
/// 64-byte line (4 slots of 16 bytes), 32-bit keys anywhere (1).
constexpr std::uint32_t home_line(key_width w) { return 1u << (2 * static_cast<unsigned>(w)); }
template <class K>
inline constexpr std::uint32_t k_home_line = home_line(width_of<key_arg_t<K>>);
static_assert(k_home_line<wide_key> == 4 && k_home_line<key_type> == 1);

/// @brief The first slot a key probes: its hash masked to the power-of-two capacity.
template <class Hash, class K, class I>
HS_HD index_arg_t<I> home_slot(K k, I mask) {
  using X = index_arg_t<I>;
  return static_cast<X>(Hash{}(static_cast<key_arg_t<K>>(k))) & static_cast<X>(mask) &
         ~static_cast<X>(k_home_line<K> - 1);
}

/// @brief How far a slot lies past a home slot, wrapping at the end of the table (the Simple GPU
/// Hash Table article's probe length: (slot - home) & (capacity - 1)).
template <class S, class H, class M>
HS_HD index_arg_t<S, H, M> displacement(S slot, H home, M mask) {
  using I = index_arg_t<S, H, M>;
  return (static_cast<I>(slot) - static_cast<I>(home)) & static_cast<I>(mask);
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
  template <class K>
  HS_HD static K step(K) {
    return 1;
  }
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
  HS_HD static std::uint32_t step(std::uint32_t k) {
    std::uint32_t h = k * 0x9e3779b1u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h | 1u;
  }
  /// 64-bit keys: a mix of the whole key (SplitMix64's finalizer), forced odd.
  HS_HD static std::uint64_t step(std::uint64_t k) {
    std::uint64_t h = k * 0x9e3779b97f4a7c15ull;
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
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
/// home's + (i / width) * step (all mod the capacity; capacities are at least 16 slots). Slot
/// indices are the table's index type I (32 bits for 32-bit tables, so their kernels compute as
/// they always did).
template <class Hash, class K, class H, class M>
HS_HD index_arg_t<H, M> probe_slot(H home_arg, K k, std::uint64_t i, M mask_arg) {
  using I = index_arg_t<H, M>;
  using P = typename probe_of<Hash>::type;
  const auto home = static_cast<I>(home_arg), mask = static_cast<I>(mask_arg);
  const auto ii = static_cast<I>(i);
  if constexpr (P::is_double) {
    const I step = static_cast<I>(P::step(static_cast<key_arg_t<K>>(k)));
    const I sector = (home >> P::width_log2) + (ii >> P::width_log2) * step;
    return ((sector << P::width_log2) | ((home + ii) & (P::width - 1))) & mask;
  } else {
    return (home + ii) & mask;
  }
}

/// @brief The inverse of an odd number modulo 2^32 or 2^64 (Newton's iteration: each step
/// doubles the correct low bits, from 3 at x = a).
template <class I>
HS_HD I odd_inverse(I a) {
  I x = a;
  for (int i = 0; i < (sizeof(I) == 8 ? 5 : 4); ++i) x *= I{2} - a * x;
  return x;
}

/// @brief Which probe of key k lands on `slot`: the probe length (for linear probing, the slot
/// distance; for double hashing, the sector's index along the sequence, (sector - home's sector) /
/// step mod the sector count (the step being odd), times the width, plus the slot's offset past
/// the home slot's within the sector).
template <class Hash, class K, class S, class H, class M>
HS_HD index_arg_t<S, H, M> probe_index(S slot_arg, H home_arg, K k, M mask_arg) {
  using I = index_arg_t<S, H, M>;
  using P = typename probe_of<Hash>::type;
  const auto slot = static_cast<I>(slot_arg), home = static_cast<I>(home_arg),
             mask = static_cast<I>(mask_arg);
  if constexpr (P::is_double) {
    const I sectors = ((slot >> P::width_log2) - (home >> P::width_log2)) *
                      odd_inverse(static_cast<I>(P::step(static_cast<key_arg_t<K>>(k))));
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

/// @brief The state of a slot.
template <class W>
HS_HD slot_state classify_slot(W w) {
  const auto k = slot_traits<W>::key_of(w);
  if (k == key_limits<key_of_t<W>>::empty) return slot_state::empty;
  if (k == key_limits<key_of_t<W>>::tombstone) return slot_state::tombstone;
  return slot_traits<W>::value_of(w) == key_limits<value_of_t<W>>::empty ? slot_state::erased
                                                                         : slot_state::live;
}
HS_HD slot_state classify(slot_word w) { return classify_slot(w); }
HS_HD slot_state classify(wide_slot w) { return classify_slot(w); }

/// @brief True for an empty slot (empty key and empty value).
HS_HD bool is_empty_slot(slot_word w) { return w == k_empty_slot; }
HS_HD bool is_empty_slot(wide_slot w) { return w == slot_traits<wide_slot>::empty(); }
/// @brief True for a slot whose key is a tombstone.
template <class W>
HS_HD bool is_tombstone(W w) {
  return slot_key(w) == key_limits<key_of_t<W>>::tombstone;
}
/// @brief True for a slot whose value is empty (erased, a tombstone, or empty).
template <class W>
HS_HD bool value_is_empty(W w) {
  return slot_value(w) == key_limits<value_of_t<W>>::empty;
}

/// @brief True for a slot holding a key a probe must walk past (anything but empty).
HS_HD bool occupies(slot_word w) { return slot_key(w) != k_empty; }
HS_HD bool occupies(wide_slot w) { return w.key != key_limits<wide_key>::empty; }

/// @brief True for a slot holding a user key (live or erased): the slots probe lengths are taken
/// of.
template <class W>
HS_HD bool holds_key_of(W w) {
  const slot_state st = classify(w);
  return st == slot_state::live || st == slot_state::erased;
}
HS_HD bool holds_key(slot_word w) { return holds_key_of(w); }
HS_HD bool holds_key(wide_slot w) { return holds_key_of(w); }

/// @brief Displacement of the key stored in slot s (only meaningful when holds_key(w)); below
/// k_walk_limit.
template <class Hash, class W, class I>
HS_HD std::uint32_t slot_displacement(I s, W w, I mask) {
  return static_cast<std::uint32_t>(
      probe_index<Hash>(s, home_slot<Hash>(slot_key(w), mask), slot_key(w), mask));
}

/// @brief Counts of slot states over a range of slots, with the displacement sum of the keys.
struct slot_census {
  std::uint32_t live = 0, erased = 0, tombstone = 0, slots = 0;
  std::uint64_t displacement_sum = 0;

  template <class Hash, class W, class I>
  HS_HD void add(I s, W w, I mask) {
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

/// @brief A slot as the tooltip and slot-level views show it (keys and values of either width).
template <class Hash, class W, class I>
HS_HD slot_record make_slot_record(I s, W w, I mask) {
  slot_record r{s, slot_key(w), slot_value(w), 0, 0, classify(w)};
  if (holds_key(w)) {
    const I home = home_slot<Hash>(slot_key(w), mask);
    r.home = home;
    r.displacement = probe_index<Hash>(s, home, slot_key(w), mask);
  }
  return r;
}

}  // namespace hs::linear
