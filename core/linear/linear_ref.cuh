// The device handle of a linear table, passed to kernels by value, and the per-operation probing
// it runs. A group of G threads probes a window of 2G consecutive slots at a time, each thread
// loading two slots with one 16-byte load; windows are aligned, so loads are aligned and the
// group's loads coalesce. The group takes the first slot, in probe order from the home slot, that
// holds the key or is empty: exactly the slot sequential linear probing would take.
#pragma once
#include <cstdint>

#include "core/common/coop_group.cuh"
#include "core/common/types.hpp"
#include "core/linear/linear_layout.hpp"

namespace hs::linear {

/// @brief Counters a linear table keeps on the device.
struct device_counters {
  unsigned long long
      rejected[k_op_kind_count];   ///< reserved keys or values since clear, by op_kind
  unsigned long long failed_full;  ///< inserts that found no free slot, since clear
  unsigned long long occupied;     ///< exact only during a guarded insert (seeded by a census)
  unsigned int max_displacement;   ///< longest probe of any insert: finds never look further
  unsigned int pad;
};

/// @brief An aligned sector of 4 slots (32 bytes, one L2 access), read as two 16-byte halves issued
/// together (one latency). `ViaL2` reads past L1, which inserts need to see other threads' claims.
template <bool ViaL2>
struct sector_reader {
  ulonglong2 lo{}, hi{};

  sector_reader() = default;
  __device__ explicit sector_reader(const slot_word* sector)
      : lo(load(sector)), hi(load(sector + 2)) {}
  __device__ slot_word at(unsigned j) const {
    return j == 0 ? lo.x : j == 1 ? lo.y : j == 2 ? hi.x : hi.y;
  }
  /// Records a word seen since (a failed CAS's answer) for slot j.
  __device__ void set(unsigned j, slot_word w) {
    if (j == 0)
      lo.x = w;
    else if (j == 1)
      lo.y = w;
    else if (j == 2)
      hi.x = w;
    else
      hi.y = w;
  }

 private:
  __device__ static ulonglong2 load(const slot_word* p) {
    if constexpr (ViaL2)
      return __ldcg(reinterpret_cast<const ulonglong2*>(p));
    else
      return *reinterpret_cast<const ulonglong2*>(p);
  }
};

template <class Hash, int G>
struct linear_ref {
  slot_word* slots;
  std::uint32_t mask;
  std::uint64_t capacity;
  device_counters* counters;
  /// Each region's reach (linear_layout.hpp), or null where only the longest probe bounds walks
  /// (a rebuild's kernels: rehash spreads the longest probe over every region afterwards).
  ///
  /// Why a walk may stop at its region's reach: a key k with home h was placed at displacement d
  /// by a CAS, after which its inserter raised reach[h's region] to d (if d > k_reach_near) and the
  /// longest probe to d (note_displacement). Reach words only grow until clear, and every rebuild
  /// ends by setting each word to the new table's longest probe. So a lookup launched after the
  /// insert finished (any later kernel, or this one once the atomics are visible) reads a bound of
  /// at least d, and finds k. Erasing never moves a key (a tombstone keeps its slot), so no key
  /// ever lies past the bound its region recorded. Concurrent operations of one launch are
  /// unordered: a lookup that reads the bound before an insert of its key raised it misses the key,
  /// as it may under the longest probe. A refusal walks past the reach only once no slot is free
  /// (no insert can claim one, so none of its key's copies can appear past it).
  std::uint32_t* reach = nullptr;

  static constexpr std::uint32_t window = 2 * G;
  /// @brief Inserts or overwrites. Guarded launches (those that may fill the table) count claims
  /// so that probes can stop once no free slot is left, instead of walking the whole table.
  /// With `cas_first` (a mostly empty table) the home slot is claimed blindly with one CAS before
  /// anything is read: one memory round trip instead of two when the home slot is free.
  // teach-region linear-insert
  template <bool Guarded>
  __device__ op_status insert(const coop_group<G>& g, key_type k, value_type v,
                              bool cas_first) const {
    if (is_reserved_key(k) || is_reserved_value(v)) {
      if (g.rank() == 0) atomicAdd(&counters->rejected[int(op_kind::insert)], 1ull);
      return is_reserved_key(k) ? op_status::rejected_key : op_status::rejected_value;
    }
    const std::uint32_t home = home_slot<Hash>(k, mask);  // [teach:home]
    if (cas_first) {
      int outcome = 0;
      if (g.rank() == 0) {
        const slot_word prev = atomicCAS(reinterpret_cast<unsigned long long*>(slots + home),
                                         k_empty_slot, pack(k, v));
        if (prev == k_empty_slot) {
          outcome = static_cast<int>(op_status::inserted);
          if constexpr (Guarded) atomicAdd(&counters->occupied, 1ull);
        } else if (slot_key(prev) == k) {
          outcome = static_cast<int>(assign_value(home, v));
        }
      }
      outcome = g.shfl(outcome, 0);
      if (outcome) return static_cast<op_status>(outcome);
      // The home slot holds another key; the probe below reads it again and walks on.
    }
    if constexpr (probe_of<Hash>::type::is_double) {
      return insert_probed<Guarded>(k, v, home);
    } else {
      return insert_windowed<Guarded>(g, k, v, home);
    }
  }
  // teach-region-end

  /// @brief Tombstone mode's insert (one thread per operation). Reusing Deleted Slots claims the
  /// first tombstone it meets, which stores a key twice when the key already sits further along its
  /// chain. Here the probe walks on to the key or the first empty slot (past the longest probe once
  /// a free slot was seen: no key lies further), remembering the first free slot (tombstone or
  /// empty), and only then claims that slot with one CAS. A failed CAS means another key took it:
  /// the walk resumes after it. Inserts and erases run in separate phases, so during an insert
  /// phase slots only go from free to taken; two threads inserting the same key therefore always
  /// race for the same first free slot, and the loser's CAS returns the winner's key: it overwrites
  /// the value.
  // teach-region linear-insert-reusing
  template <bool Guarded>
  __device__ op_status insert_reusing(key_type k, value_type v) const {
    static_assert(G == 1, "tombstone inserts run one thread per operation");
    if (is_reserved_key(k) || is_reserved_value(v)) {
      atomicAdd(&counters->rejected[int(op_kind::insert)], 1ull);
      return is_reserved_key(k) ? op_status::rejected_key : op_status::rejected_value;
    }
    const std::uint32_t home = home_slot<Hash>(k, mask);  // [teach:home]
    // No k lies further from home than its reach: read only once a walk passes k_reach_near.
    const std::uint32_t longest = current_max();
    std::uint64_t bound = longest < k_reach_near ? longest : k_reach_near;
    bool widened = bound == longest;
    std::uint64_t d = 0;
    // The walk reads a 32-byte sector (4 slots) per L2 round trip instead of a slot (linear
    // probing's next 4 slots, or double hashing's sector of the sequence): the 4 words are read
    // together, as if read one after another in no time, which the walk allows (each read may be
    // as old as the walk; the claim's CAS is what decides).
    std::uint32_t sector = ~0u;
    sector_reader<true> words;
    for (;;) {
      // Walk from d: to k, or to an empty slot, remembering the first free slot.
      std::int64_t free_d = -1;
      slot_word free_w = 0;
      for (; d < capacity; ++d) {
        const std::uint32_t s = probe_slot<Hash>(home, k, d, mask);
        if ((s & ~3u) != sector) {
          sector = s & ~3u;
          words = sector_reader<true>(slots + sector);
        }
        const slot_word w = words.at(s & 3u);             // [teach:read]
        if (slot_key(w) == k) return assign_value(s, v);  // [teach:found]
        const bool empty = w == k_empty_slot;
        if (free_d < 0 && (empty || slot_key(w) == k_tombstone)) {
          free_d = static_cast<std::int64_t>(d);  // [teach:first_free]
          free_w = w;
        }
        if (!empty && free_d >= 0 && d >= bound && !widened) {
          bound = reach_of(home, longest);
          widened = true;
        }
        if (empty || (free_d >= 0 && d >= bound)) break;  // [teach:stop]
        if constexpr (Guarded) {
          // No free slot anywhere, and past the key's reach (read afresh: a concurrent insert of
          // the same key may have lengthened it): the key is not here and cannot go in.
          if ((d & 15) == 15 && free_d < 0 && d > bound && table_full() &&
              d > reach_of(home, current_max()))
            break;
        }
      }
      if (free_d < 0) {
        atomicAdd(&counters->failed_full, 1ull);
        return op_status::failed_full;
      }
      const std::uint32_t s = probe_slot<Hash>(home, k, static_cast<std::uint64_t>(free_d), mask);
      const slot_word prev =
          // [teach:claim]
          atomicCAS(reinterpret_cast<unsigned long long*>(slots + s), free_w, pack(k, v));
      if (prev == free_w) {
        note_displacement(home, static_cast<std::uint32_t>(free_d));
        if constexpr (Guarded) atomicAdd(&counters->occupied, 1ull);
        return op_status::inserted;  // [teach:claimed]
      }
      if (slot_key(prev) == k) return assign_value(s, v);  // the same key, inserted concurrently
      d = static_cast<std::uint64_t>(free_d) + 1;  // [teach:lost] another key took it: walk on
      sector = ~0u;                                // reading afresh
    }
  }
  // teach-region-end

  /// @brief Looks a key up; `max_disp` bounds the probe (no key lies further from its home).
  // teach-region linear-find
  __device__ op_status find(const coop_group<G>& g, key_type k, value_type& out,
                            std::uint32_t max_disp) const {
    out = k_empty;
    if (is_reserved_key(k)) {
      if (g.rank() == 0) atomicAdd(&counters->rejected[int(op_kind::find)], 1ull);
      return op_status::rejected_key;
    }
    std::uint32_t slot;
    const slot_word hit = locate(g, k, max_disp, slot);
    if (slot_key(hit) != k) return op_status::missing;  // [teach:missing]
    out = slot_value(hit);                              // [teach:found]
    return out == k_empty ? op_status::missing : op_status::found;
  }
  // teach-region-end

  /// @brief Erases: by emptying the value (A Simple GPU Hash Table; the key keeps its slot), or by
  /// turning the key into a tombstone with an empty value in one CAS (Reusing Deleted Slots).
  // teach-region linear-erase
  __device__ op_status erase(const coop_group<G>& g, key_type k, std::uint32_t max_disp,
                             bool tombstone) const {
    if (is_reserved_key(k)) {
      if (g.rank() == 0) atomicAdd(&counters->rejected[int(op_kind::erase)], 1ull);
      return op_status::rejected_key;
    }
    std::uint32_t slot;
    const slot_word hit = locate(g, k, max_disp, slot);
    if (slot_key(hit) != k) return op_status::missing;  // [teach:missing]
    int outcome = 0;
    if (g.rank() == 0) {
      if (!tombstone) {
        outcome =
            // [teach:erase_value]
            static_cast<int>(atomicExch(value_ptr(slot), k_empty) != k_empty ? op_status::erased
                                                                             : op_status::missing);
      } else {
        slot_word seen = hit;
        outcome = static_cast<int>(op_status::missing);
        while (slot_key(seen) == k && slot_value(seen) != k_empty) {
          // [teach:erase_tombstone]
          const slot_word prev = atomicCAS(reinterpret_cast<unsigned long long*>(slots + slot),
                                           seen, pack(k_tombstone, k_empty));
          if (prev == seen) {
            outcome = static_cast<int>(op_status::erased);
            break;
          }
          seen = prev;  // erased by a concurrent erase of the same key: then missing
        }
      }
    }
    return static_cast<op_status>(g.shfl(outcome, 0));
  }
  // teach-region-end

 private:
  __device__ void load_pair(std::uint32_t base, unsigned lane, slot_word& w0, slot_word& w1) const {
    const ulonglong2 v = *reinterpret_cast<const ulonglong2*>(slots + base + 2 * lane);
    w0 = v.x;
    w1 = v.y;
  }

  /// Raises the table's probe bound, and the reach of home's region, to d. Both are read only
  /// here, off the common path of inserts that land near their home slot, and written only when
  /// they grow.
  __device__ void note_displacement(std::uint32_t home, std::uint32_t d) const {
    if (d > *reinterpret_cast<volatile unsigned*>(&counters->max_displacement))
      atomicMax(&counters->max_displacement, d);
    if (d > k_reach_near && reach) {
      std::uint32_t* word = reach + (home >> k_reach_region_log2);
      if (d > *reinterpret_cast<volatile std::uint32_t*>(word)) atomicMax(word, d);
    }
  }

  /// How far from `home` a key homed there can lie: its region's reach, at most `longest` (the
  /// table's longest probe, as the caller read it). Read afresh each time.
  __device__ std::uint32_t reach_of(std::uint32_t home, std::uint32_t longest) const {
    if (!reach) return longest;
    return reach_bound(
        *reinterpret_cast<volatile std::uint32_t*>(reach + (home >> k_reach_region_log2)), longest);
  }

  __device__ unsigned* value_ptr(std::uint32_t slot) const {
    return reinterpret_cast<unsigned*>(slots + slot) + 1;  // the high half of the word
  }

  /// Overwrites the value of a slot holding the key; inserted if the value had been erased.
  __device__ op_status assign_value(std::uint32_t slot, value_type v) const {
    return atomicExch(value_ptr(slot), v) == k_empty ? op_status::inserted : op_status::replaced;
  }

  __device__ bool table_full() const {
    return *reinterpret_cast<volatile unsigned long long*>(&counters->occupied) >= capacity;
  }
  __device__ std::uint32_t current_max() const {
    return *reinterpret_cast<volatile unsigned*>(&counters->max_displacement);
  }

  /// Linear probing's insert: the group reads a window of 2G slots at a time, and its leader
  /// claims the first slot, in probe order, that holds the key or is empty (the window walk the
  /// header describes). A failed CAS records the word seen and the window is looked at again.
  // teach-region linear-insert-windowed
  template <bool Guarded>
  __device__ op_status insert_windowed(const coop_group<G>& g, key_type k, value_type v,
                                       std::uint32_t home) const {
    std::uint32_t base = home & ~(window - 1);
    const std::int64_t skip = home - base;
    const unsigned lane = g.rank();
    const std::int64_t cap = static_cast<std::int64_t>(capacity);
    const std::uint64_t windows = (capacity + skip + window - 1) / window;
    for (std::uint64_t w = 0; w < windows; ++w, base = (base + window) & mask) {
      // Two named words, not an array: a runtime index would put the window in local memory.
      slot_word cur0, cur1;
      load_pair(base, lane, cur0, cur1);  // [teach:read]
      const std::int64_t o0 = static_cast<std::int64_t>(w * window + 2 * lane) - skip;
      const bool valid0 = o0 >= 0 && o0 < cap;
      const bool valid1 = o0 + 1 >= 0 && o0 + 1 < cap;
      while (true) {
        const bool c0 = valid0 && (slot_key(cur0) == k || cur0 == k_empty_slot);  // [teach:compare]
        const bool c1 = valid1 && (slot_key(cur1) == k || cur1 == k_empty_slot);
        const unsigned hits = g.ballot(c0 || c1);
        if (hits == 0) break;
        const unsigned leader = __ffs(hits) - 1;
        int outcome = 0;  // an op_status, or 0 to look at this window again
        if (lane == leader) {
          const slot_word seen = c0 ? cur0 : cur1;
          const std::uint32_t slot = base + 2 * lane + (c0 ? 0u : 1u);
          if (slot_key(seen) == k) {
            outcome = static_cast<int>(assign_value(slot, v));  // [teach:found]
          } else {
            // [teach:claim]
            const slot_word prev = atomicCAS(reinterpret_cast<unsigned long long*>(slots + slot),
                                             k_empty_slot, pack(k, v));
            if (prev == k_empty_slot) {
              outcome = static_cast<int>(op_status::inserted);  // [teach:claimed]
              note_displacement(home, static_cast<std::uint32_t>(o0 + (c0 ? 0 : 1)));
              if constexpr (Guarded) atomicAdd(&counters->occupied, 1ull);
            } else if (slot_key(prev) == k) {
              outcome = static_cast<int>(assign_value(slot, v));  // same key claimed concurrently
            } else if (c0) {
              cur0 = prev;  // [teach:lost] another key took the slot: look further
            } else {
              cur1 = prev;
            }
          }
        }
        outcome = g.shfl(outcome, leader);
        if (outcome) return static_cast<op_status>(outcome);
      }
      if constexpr (Guarded) {
        // With no free slot left the key can only be within its region's reach: one thread
        // walks the rest of it together with the warp's other lanes that got this far.
        if ((w & 3) == 3 && table_full()) {
          const std::int64_t probed = static_cast<std::int64_t>((w + 1) * window) - skip;
          const auto limit = static_cast<std::int64_t>(reach_of(home, current_max())) + 1;
          if constexpr (G == 1) {
            std::uint32_t slot = 0;
            if (probed < limit &&
                slot_key(walk_far(k, home, static_cast<std::uint32_t>(probed),
                                  static_cast<std::uint32_t>(limit - 1), slot)) == k)
              return assign_value(slot, v);
            break;
          }
          if (probed >= limit) break;
        }
      }
    }
    if (g.rank() == 0) atomicAdd(&counters->failed_full, 1ull);
    return op_status::failed_full;
  }
  // teach-region-end

  /// Value mode's insert under double hashing (one thread per operation): reads a sector of the
  /// probe sequence at a time (from L2, which sees claims), takes its slots in probe order, and
  /// claims the first empty one with one CAS or overwrites the key. Value mode never empties a
  /// slot, so two inserts of one key race for the same first empty slot. The CAS sits outside the
  /// walk over the sector: with a CAS at each slot, lanes that decided at different slots claimed
  /// one after another (ncu at load 0.9: 7.8 of 32 threads active, L2 48% busy).
  // teach-region linear-insert-probed
  template <bool Guarded>
  __device__ op_status insert_probed(key_type k, value_type v, std::uint32_t home) const {
    static_assert(G == 1, "double hashing probes one sector at a time");
    using P = typename probe_of<Hash>::type;
    static_assert(P::width == 4, "sector_reader reads a sector as two 16-byte halves");
    for (std::uint64_t d = 0; d < capacity; d += P::width) {
      const std::uint32_t first = probe_slot<Hash>(home, k, d, mask);
      const std::uint32_t base = first & ~(P::width - 1);
      sector_reader<true> sector(slots + base);
      std::uint32_t r = 0;
      for (;;) {
        // The first slot from probe r on that is empty or holds k, as read: one CAS site for the
        // warp, so that lanes deciding at different slots of their sectors claim together.
        std::uint32_t j = 0;
        slot_word w = 0;
        for (; r < P::width; ++r) {
          j = (first + r) & (P::width - 1);
          w = sector.at(j);  // [teach:read]
          if (w == k_empty_slot || slot_key(w) == k) break;
        }
        if (r == P::width) break;  // none here: the next sector
        const std::uint32_t s = base + j;
        if (slot_key(w) == k) return assign_value(s, v);  // [teach:found]
        const slot_word prev =
            // [teach:claim]
            atomicCAS(reinterpret_cast<unsigned long long*>(slots + s), k_empty_slot, pack(k, v));
        if (prev == k_empty_slot) {
          note_displacement(home, static_cast<std::uint32_t>(d + r));
          if constexpr (Guarded) atomicAdd(&counters->occupied, 1ull);
          return op_status::inserted;  // [teach:claimed]
        }
        // Taken meanwhile: by this key (overwritten above next time) or by another.
        sector.set(j, prev);
      }
      if constexpr (Guarded) {
        // No free slot anywhere, and past the key's reach: it is not here and cannot go in.
        if ((d & 15) == 12 && table_full() && d > reach_of(home, current_max())) break;
      }
    }
    atomicAdd(&counters->failed_full, 1ull);
    return op_status::failed_full;
  }
  // teach-region-end

  /// The rest of a long linear-probing walk, for one thread per operation: the word of the first
  /// slot at displacement [from, limit) from home that holds k or is empty (empty-keyed if none),
  /// and its slot. The lanes of the warp that call it together walk each one's range in turn, a
  /// lane per pair of slots: a walk of L slots then takes L / (2 x lanes) loads of consecutive
  /// slots instead of L / 2 dependent ones, and the warp's time is the sum of its long walks over
  /// its width instead of its longest walk (in a full table of 2^20 slots, its regions' reach
  /// has a median of 1.4k slots, a mean of 38k, and a warp's longest of 32 averages 490k).
  /// Correct for any subset of lanes: each walks the same sequence of shuffles over the set.
  /// Displacements are 32-bit: from >= 1 and last < capacity <= 2^32.
  __device__ slot_word walk_far(key_type k, std::uint32_t home, std::uint32_t from,
                                std::uint32_t last, std::uint32_t& slot_out) const {
    const unsigned lanes = __activemask();
    const unsigned lane = threadIdx.x & 31;
    const auto rank = static_cast<std::uint32_t>(__popc(lanes & ((1u << lane) - 1)));
    const auto size = static_cast<std::uint32_t>(__popc(lanes));
    slot_word mine = k_empty_slot;
    for (unsigned pending = lanes; pending; pending &= pending - 1) {
      const int owner = __ffs(pending) - 1;
      const key_type kk = __shfl_sync(lanes, k, owner);
      const std::uint32_t lo = __shfl_sync(lanes, from, owner);
      const std::uint32_t span = __shfl_sync(lanes, last, owner) - lo;  // displacements lo..lo+span
      // 32-bit offsets from the pair (aligned as loads are) that holds displacement lo: a lane's
      // pair at offset rel holds displacements lo - odd + rel and one more.
      const std::uint32_t start = (__shfl_sync(lanes, home, owner) + lo) & mask;
      const std::uint32_t odd = start & 1u, aligned = start - odd;
      slot_word word = k_empty_slot;
      std::uint32_t at = 0;
      for (std::uint32_t rel = 2 * rank;; rel += 2 * size) {
        const bool in0 = rel >= odd && rel - odd <= span, in1 = rel + 1 - odd <= span;
        const std::uint32_t pair = (aligned + rel) & mask;
        slot_word w0 = 0, w1 = 0;
        if (in0 || in1) {
          const ulonglong2 v = *reinterpret_cast<const ulonglong2*>(slots + pair);
          w0 = v.x;
          w1 = v.y;
        }
        const bool c0 = in0 && (slot_key(w0) == kk || w0 == k_empty_slot);
        const bool c1 = in1 && (slot_key(w1) == kk || w1 == k_empty_slot);
        const unsigned hits = __ballot_sync(lanes, c0 || c1);
        if (hits) {
          const int first = __ffs(hits) - 1;  // the lowest lane holds the earliest pair
          word = __shfl_sync(lanes, c0 ? w0 : w1, first);
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

  /// The word of the first slot in probe order holding k or empty, within k's reach of home, at
  /// most max_disp (the word is empty-keyed when neither is found); every lane gets it, and the
  /// slot index. The first k_reach_near slots are walked as if there were no reach (the loop the
  /// common short walks run stays as lean as it was: with the reach checked inside it, lookups at
  /// load 0.8 ran 18% slower); the rest, once the reach is read, with the warp (walk_far) or on.
  // teach-region linear-locate
  __device__ slot_word locate(const coop_group<G>& g, key_type k, std::uint32_t max_disp,
                              std::uint32_t& slot_out) const {
    const std::uint32_t home = home_slot<Hash>(k, mask);  // [teach:home]
    const std::uint32_t near = max_disp < k_reach_near ? max_disp : k_reach_near;
    slot_word w = k_empty_slot;
    if (scan(g, k, home, 0, near, w, slot_out) || near == max_disp) return w;
    const std::uint32_t last = reach_of(home, max_disp);
    if (last <= near) return k_empty_slot;
    if constexpr (G == 1 && !probe_of<Hash>::type::is_double)
      return walk_far(k, home, near + 1, last, slot_out);
    scan(g, k, home, near + 1, last, w, slot_out);
    return w;
  }
  // teach-region-end

  /// Walks displacements [from, last] of k's probe sequence: true, with the word and slot, at the
  /// first slot holding k or empty; false (the word empty-keyed) when none does.
  // teach-region linear-scan
  __device__ bool scan(const coop_group<G>& g, key_type k, std::uint32_t home, std::uint32_t from,
                       std::uint32_t last, slot_word& word, std::uint32_t& slot_out) const {
    word = k_empty_slot;
    const std::int64_t lo = from, limit = static_cast<std::int64_t>(last) + 1;
    if constexpr (probe_of<Hash>::type::is_double) {
      using P = typename probe_of<Hash>::type;
      static_assert(P::width == 4, "sector_reader reads a sector as two 16-byte halves");
      for (std::int64_t d = lo & ~std::int64_t{P::width - 1}; d < limit; d += P::width) {
        const std::uint32_t first = probe_slot<Hash>(home, k, static_cast<std::uint64_t>(d), mask);
        const std::uint32_t base = first & ~(P::width - 1);
        sector_reader<false> sector(slots + base);  // a sector at a time, as inserts
        for (std::uint32_t r = 0; r < P::width && d + r < limit; ++r) {
          if (d + r < lo) continue;
          const std::uint32_t j = (first + r) & (P::width - 1);
          const slot_word w = sector.at(j);  // [teach:read_sector]
          if (slot_key(w) == k || w == k_empty_slot) {
            slot_out = base + j;
            word = w;
            return true;
          }
        }
      }
      return false;
    }
    const std::uint32_t start = (home + from) & mask;
    std::uint32_t base = start & ~(window - 1);
    const unsigned lane = g.rank();
    for (std::int64_t first = lo - (start - base); first < limit;
         first += window, base = (base + window) & mask) {
      slot_word cur0, cur1;
      load_pair(base, lane, cur0, cur1);  // [teach:read]
      const std::int64_t o0 = first + 2 * lane;
      // [teach:compare]
      const bool c0 = o0 >= lo && o0 < limit && (slot_key(cur0) == k || cur0 == k_empty_slot);
      const bool c1 =
          o0 + 1 >= lo && o0 + 1 < limit && (slot_key(cur1) == k || cur1 == k_empty_slot);
      const unsigned hits = g.ballot(c0 || c1);
      if (hits) {
        const unsigned leader = __ffs(hits) - 1;
        slot_out = g.shfl(base + 2 * lane + (c0 ? 0u : 1u), leader);
        word = g.shfl(c0 ? cur0 : cur1, leader);
        return true;
      }
    }
    return false;
  }
  // teach-region-end
};

}  // namespace hs::linear
