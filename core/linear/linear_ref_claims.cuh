// linear_ref's slot writes and the bounds they raise (claim, cas_slot, claimed, make_tombstone,
// note_displacement, reach_of, exchange_value, assign_value), defined outside the struct so that
// linear_ref.cuh keeps to the view and its probes. Included at the end of linear_ref.cuh, never
// on its own.
#pragma once
#include <cstdint>

namespace hs::linear {

/// Claims `slot`, expected to hold `expected` (empty, or a tombstone), for k with v: one CAS of
/// the whole slot, or a split claim (linear_ref.cuh's header), a CAS of the key alone. Returns the
/// slot as the CAS saw it: `expected` when claimed (then finish with claimed()). A split claim that
/// fails reports the key it met, with the empty value.
template <class Hash, int G, class W>
__device__ inline W linear_ref<Hash, G, W>::claim(index slot, W expected, key k, value v) const {
  if constexpr (wide) {
    if (split_claims) {
      const key seen =
          atomicCAS(reinterpret_cast<unsigned long long*>(&slots[slot].key), expected.key, k);
      return seen == expected.key ? expected : W{seen, values::empty};
    }
  }
  return cas_slot(slot, expected, slot_traits<W>::pack(k, v));
}
/// One CAS of a whole slot. The host splits 16-byte claims on a GPU without a 16-byte CAS, so
/// code compiled for one never gets here with a 16-byte slot.
template <class Hash, int G, class W>
__device__ inline W linear_ref<Hash, G, W>::cas_slot(index slot, W expected, W desired) const {
  if constexpr (!wide) {
    return atomicCAS(reinterpret_cast<unsigned long long*>(slots + slot), expected, desired);
  } else {
#if __CUDA_ARCH__ >= 900
    return atomicCAS(slots + slot, expected, desired);
#else
    (void)slot, (void)desired;
    __trap();
    return expected;
#endif
  }
}
/// The status of an insert whose claim() took the slot: inserted, the value having gone in with
/// the key; a split claim stores it now, and a concurrent insert of the same key may have
/// stored one first (then this one replaced it).
template <class Hash, int G, class W>
__device__ inline op_status linear_ref<Hash, G, W>::claimed(index slot, value v) const {
  if constexpr (wide) {
    if (split_claims) return assign_value(slot, v);
  }
  (void)slot, (void)v;
  return op_status::inserted;
}
/// Tombstone mode's erase of k, found as `seen` at `slot`: key and value become the tombstone
/// with the empty value, in one CAS (retried while the slot still holds k with a value), or,
/// split, the value emptied first (which decides) and then the key.
template <class Hash, int G, class W>
__device__ inline op_status linear_ref<Hash, G, W>::make_tombstone(index slot, W seen,
                                                                   key k) const {
  const W dead = slot_traits<W>::pack(keys::tombstone, values::empty);
  if constexpr (wide) {
    if (split_claims) {
      if (exchange_value(slot, values::empty) == values::empty)
        return op_status::missing;  // erased meanwhile
      atomicExch(reinterpret_cast<unsigned long long*>(&slots[slot].key), dead.key);
      return op_status::erased;
    }
  }
  while (slot_key(seen) == k && !value_is_empty(seen)) {
    const W prev = cas_slot(slot, seen, dead);
    if (prev == seen) return op_status::erased;
    seen = prev;  // erased by a concurrent erase of the same key: then missing
  }
  return op_status::missing;
}

/// Raises the table's probe bound, and the reach of home's region, to d. Both are read only
/// here, off the common path of inserts that land near their home slot, and written only when
/// they grow.
template <class Hash, int G, class W>
__device__ inline void linear_ref<Hash, G, W>::note_displacement(index home,
                                                                 std::uint32_t d) const {
  if (d > *reinterpret_cast<volatile unsigned*>(&counters->max_displacement))
    atomicMax(&counters->max_displacement, d);
  if (d > k_reach_near && reach) {
    std::uint32_t* word = reach + (home >> k_reach_region_log2);
    if (d > *reinterpret_cast<volatile std::uint32_t*>(word)) atomicMax(word, d);
  }
}

/// How far from `home` a key homed there can lie: its region's reach, at most `longest` (the
/// table's longest probe, as the caller read it). Read afresh each time.
template <class Hash, int G, class W>
__device__ inline std::uint32_t linear_ref<Hash, G, W>::reach_of(index home,
                                                                 std::uint32_t longest) const {
  if (!reach) return longest;
  return reach_bound(
      *reinterpret_cast<volatile std::uint32_t*>(reach + (home >> k_reach_region_log2)), longest);
}

/// Swaps the value of a slot (the high half of a 32-bit slot's word), returning the old one.
template <class Hash, int G, class W>
__device__ inline typename linear_ref<Hash, G, W>::value linear_ref<Hash, G, W>::exchange_value(
    index slot, value v) const {
  if constexpr (wide)
    return atomicExch(reinterpret_cast<unsigned long long*>(&slots[slot].value), v);
  else
    return atomicExch(reinterpret_cast<unsigned*>(slots + slot) + 1, v);
}

/// Overwrites the value of a slot holding the key; inserted if the value had been erased.
template <class Hash, int G, class W>
__device__ inline op_status linear_ref<Hash, G, W>::assign_value(index slot, value v) const {
  return exchange_value(slot, v) == values::empty ? op_status::inserted : op_status::replaced;
}

}  // namespace hs::linear
