// The device handle of a linear table, passed to kernels by value, and the per-operation probing
// it runs. A group of G threads probes a window of 2G consecutive slots at a time, each thread
// loading two slots with one 16-byte load; windows are aligned, so loads are aligned and the
// group's loads coalesce. The group takes the first slot, in probe order from the home slot, that
// holds the key or is empty: exactly the slot sequential linear probing would take.
//
// Written once for both key widths (the slot type W, linear_layout.hpp). A 64-bit table's slot is
// a 16-byte pair: a thread's two slots are then two 16-byte loads issued together, and a claim is
// one 16-byte CAS on sm_90 and up. Elsewhere, or with tuning pair-cas off, a claim is a CAS of the
// key followed by an exchange of the value (split claims): between the two, the slot holds the key
// with the empty value, which every operation reads as the key erased. A lookup running then
// reports the key missing, as it would had it run before the insert; an insert of the same key
// overwrites the empty value (inserted) and the claiming insert's exchange then reports replaced,
// so a key is still inserted once, by one of them; an erase by value finds nothing to erase.
//
// The struct's slot writes (linear_ref_claims.cuh) and its far walk (linear_walk_far.cuh) are
// defined after it, and the loads it reads slots with are in linear_loads.cuh: apart so that
// this file holds the view and the probes the Code view shows.
#pragma once
#include <cstdint>

#include "core/common/coop_group.cuh"
#include "core/common/types.hpp"
#include "core/linear/linear_layout.hpp"
#include "core/linear/linear_loads.cuh"

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

template <class Hash, int G, class W = slot_word>
struct linear_ref {
  using key = key_of_t<W>;
  using value = value_of_t<W>;
  using index = index_of_t<W>;
  using keys = key_limits<key>;  // the reserved keys and values of this width
  using values = key_limits<value>;
  static constexpr bool wide = sizeof(W) == 16;

  W* slots;
  index mask;
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
  /// 16-byte slots claimed by a key CAS and then the value (the header says what that means);
  /// always so below sm_90, which has no 16-byte CAS.
  bool split_claims = false;

  static constexpr std::uint32_t window = 2 * G;
  /// @brief Inserts or overwrites. Guarded launches (those that may fill the table) count claims
  /// so that probes can stop once no free slot is left, instead of walking the whole table.
  /// With `cas_first` (a mostly empty table) the home slot is claimed blindly with one CAS before
  /// anything is read: one memory round trip instead of two when the home slot is free.
  // teach-region linear-insert
  template <bool Guarded>
  __device__ op_status insert(const coop_group<G>& g, key k, value v, bool cas_first) const {
    if (keys::reserved_key(k) || values::reserved_value(v)) {
      if (g.rank() == 0) atomicAdd(&counters->rejected[int(op_kind::insert)], 1ull);
      return keys::reserved_key(k) ? op_status::rejected_key : op_status::rejected_value;
    }
    const index home = home_slot<Hash>(k, mask);  // [teach:home]
    if (cas_first) {
      int outcome = 0;
      if (g.rank() == 0) {
        // One compare-and-swap: the slot becomes (k, v) only if it is still empty.
        const W prev = claim(home, empty_slot(), k, v);
        if (prev == empty_slot()) {
          outcome = static_cast<int>(claimed(home, v));
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
  __device__ op_status insert_reusing(key k, value v) const {
    static_assert(G == 1, "tombstone inserts run one thread per operation");
    if (keys::reserved_key(k) || values::reserved_value(v)) {
      atomicAdd(&counters->rejected[int(op_kind::insert)], 1ull);
      return keys::reserved_key(k) ? op_status::rejected_key : op_status::rejected_value;
    }
    const index home = home_slot<Hash>(k, mask);  // [teach:home]
    // No k lies further from home than its reach: read only once a walk passes k_reach_near.
    const std::uint32_t longest = current_max();
    std::uint64_t bound = longest < k_reach_near ? longest : k_reach_near;
    bool widened = bound == longest;
    std::uint64_t d = 0;
    // The walk reads a 32-byte sector (4 slots) per L2 round trip instead of a slot (linear
    // probing's next 4 slots, or double hashing's sector of the sequence): the 4 words are read
    // together, as if read one after another in no time, which the walk allows (each read may be
    // as old as the walk; the claim's CAS is what decides).
    index sector = ~index{0};
    sector_reader<true, W> words;
    for (;;) {
      // Walk from d: to k, or to an empty slot, remembering the first free slot.
      std::int64_t free_d = -1;
      W free_w{};
      for (; d < walk_limit(); ++d) {
        const index s = probe_slot<Hash>(home, k, d, mask);
        if ((s & ~index{3}) != sector) {
          sector = s & ~index{3};
          words = sector_reader<true, W>(slots + sector);
        }
        const W w = words.at(static_cast<unsigned>(s & 3u));  // [teach:read]
        if (slot_key(w) == k) return assign_value(s, v);      // [teach:found]
        const bool empty = is_empty_slot(w);
        if (free_d < 0 && (empty || is_tombstone(w))) {
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
      const index s = probe_slot<Hash>(home, k, static_cast<std::uint64_t>(free_d), mask);
      // One compare-and-swap: the slot becomes (k, v) only if it still holds what was read.
      const W prev = claim(s, free_w, k, v);  // [teach:claim]
      if (prev == free_w) {
        note_displacement(home, static_cast<std::uint32_t>(free_d));
        if constexpr (Guarded) atomicAdd(&counters->occupied, 1ull);
        return claimed(s, v);  // [teach:claimed]
      }
      if (slot_key(prev) == k) return assign_value(s, v);  // the same key, inserted concurrently
      d = static_cast<std::uint64_t>(free_d) + 1;  // [teach:lost] another key took it: walk on
      sector = ~index{0};                          // reading afresh
    }
  }
  // teach-region-end

  /// @brief Looks a key up; `max_disp` bounds the probe (no key lies further from its home).
  // teach-region linear-find
  __device__ op_status find(const coop_group<G>& g, key k, value& out,
                            std::uint32_t max_disp) const {
    out = values::empty;
    if (keys::reserved_key(k)) {
      if (g.rank() == 0) atomicAdd(&counters->rejected[int(op_kind::find)], 1ull);
      return op_status::rejected_key;
    }
    index slot;
    const W hit = locate(g, k, max_disp, slot);
    if (slot_key(hit) != k) return op_status::missing;  // [teach:missing]
    out = slot_value(hit);                              // [teach:found]
    return out == values::empty ? op_status::missing : op_status::found;
  }
  // teach-region-end

  /// @brief Erases: by emptying the value (A Simple GPU Hash Table; the key keeps its slot), or by
  /// turning the key into a tombstone with an empty value in one CAS (Reusing Deleted Slots).
  // teach-region linear-erase
  __device__ op_status erase(const coop_group<G>& g, key k, std::uint32_t max_disp,
                             bool tombstone) const {
    if (keys::reserved_key(k)) {
      if (g.rank() == 0) atomicAdd(&counters->rejected[int(op_kind::erase)], 1ull);
      return op_status::rejected_key;
    }
    index slot;
    const W hit = locate(g, k, max_disp, slot);
    if (slot_key(hit) != k) return op_status::missing;  // [teach:missing]
    int outcome = 0;
    if (g.rank() == 0) {
      if (!tombstone) {
        outcome =
            // [teach:erase_value]
            static_cast<int>(exchange_value(slot, values::empty) != values::empty
                                 ? op_status::erased
                                 : op_status::missing);
      } else {
        outcome = static_cast<int>(make_tombstone(slot, hit, k));  // [teach:erase_tombstone]
      }
    }
    return static_cast<op_status>(g.shfl(outcome, 0));
  }
  // teach-region-end

 private:
  __device__ void load_pair(index base, unsigned lane, W& w0, W& w1) const {
    load_two<false>(slots + base + 2 * lane, w0, w1);
  }

  HS_HD static constexpr W empty_slot() { return slot_traits<W>::empty(); }
  /// How far a walk may go: the whole table, or k_walk_limit slots (linear_layout.hpp).
  __device__ std::uint64_t walk_limit() const {
    return capacity < k_walk_limit ? capacity : k_walk_limit;
  }

  // Slot writes and the bounds they raise, defined after the struct (linear_ref_claims.cuh).
  __device__ W claim(index slot, W expected, key k, value v) const;
  __device__ W cas_slot(index slot, W expected, W desired) const;
  __device__ op_status claimed(index slot, value v) const;
  __device__ op_status make_tombstone(index slot, W seen, key k) const;
  __device__ void note_displacement(index home, std::uint32_t d) const;
  __device__ std::uint32_t reach_of(index home, std::uint32_t longest) const;
  __device__ value exchange_value(index slot, value v) const;
  __device__ op_status assign_value(index slot, value v) const;

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
  __device__ op_status insert_windowed(const coop_group<G>& g, key k, value v, index home) const {
    index base = home & ~index{window - 1};
    const std::int64_t skip = static_cast<std::int64_t>(home - base);
    const unsigned lane = g.rank();
    const auto cap = static_cast<std::int64_t>(walk_limit());
    const std::uint64_t windows = (walk_limit() + skip + window - 1) / window;
    for (std::uint64_t w = 0; w < windows; ++w, base = (base + window) & mask) {
      // Two named words, not an array: a runtime index would put the window in local memory.
      W cur0, cur1;
      load_pair(base, lane, cur0, cur1);  // [teach:read]
      const std::int64_t o0 = static_cast<std::int64_t>(w * window + 2 * lane) - skip;
      const bool valid0 = o0 >= 0 && o0 < cap;
      const bool valid1 = o0 + 1 >= 0 && o0 + 1 < cap;
      while (true) {
        const bool c0 = valid0 && (slot_key(cur0) == k || is_empty_slot(cur0));  // [teach:compare]
        const bool c1 = valid1 && (slot_key(cur1) == k || is_empty_slot(cur1));
        const unsigned hits = g.ballot(c0 || c1);
        if (hits == 0) break;
        const unsigned leader = __ffs(hits) - 1;
        int outcome = 0;  // an op_status, or 0 to look at this window again
        if (lane == leader) {
          const W seen = c0 ? cur0 : cur1;
          const index slot = base + 2 * lane + (c0 ? 0u : 1u);
          if (slot_key(seen) == k) {
            outcome = static_cast<int>(assign_value(slot, v));  // [teach:found]
          } else {
            // One compare-and-swap: the slot becomes (k, v) only if it is still empty.
            const W prev = claim(slot, empty_slot(), k, v);  // [teach:claim]
            if (prev == empty_slot()) {
              outcome = static_cast<int>(claimed(slot, v));  // [teach:claimed]
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
            index slot = 0;
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
  __device__ op_status insert_probed(key k, value v, index home) const {
    static_assert(G == 1, "double hashing probes one sector at a time");
    using P = typename probe_of<Hash>::type;
    static_assert(P::width == 4, "sector_reader reads a sector of 4 slots");
    for (std::uint64_t d = 0; d < walk_limit(); d += P::width) {
      const index first = probe_slot<Hash>(home, k, d, mask);
      const index base = first & ~index{P::width - 1};
      sector_reader<true, W> sector(slots + base);
      std::uint32_t r = 0;
      for (;;) {
        // The first slot from probe r on that is empty or holds k, as read: one CAS site for the
        // warp, so that lanes deciding at different slots of their sectors claim together.
        std::uint32_t j = 0;
        W w{};
        for (; r < P::width; ++r) {
          j = static_cast<std::uint32_t>((first + r) & (P::width - 1));
          w = sector.at(j);  // [teach:read]
          if (is_empty_slot(w) || slot_key(w) == k) break;
        }
        if (r == P::width) break;  // none here: the next sector
        const index s = base + j;
        if (slot_key(w) == k) return assign_value(s, v);  // [teach:found]
        // One compare-and-swap: the slot becomes (k, v) only if it is still empty.
        const W prev = claim(s, empty_slot(), k, v);  // [teach:claim]
        if (prev == empty_slot()) {
          note_displacement(home, static_cast<std::uint32_t>(d + r));
          if constexpr (Guarded) atomicAdd(&counters->occupied, 1ull);
          return claimed(s, v);  // [teach:claimed]
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

  /// The rest of a long linear-probing walk, the warp's lanes together (linear_walk_far.cuh).
  __device__ W walk_far(key k, index home, std::uint32_t from, std::uint32_t last,
                        index& slot_out) const;

  /// The word of the first slot in probe order holding k or empty, within k's reach of home, at
  /// most max_disp (the word is empty-keyed when neither is found); every lane gets it, and the
  /// slot index. The first k_reach_near slots are walked as if there were no reach (the loop the
  /// common short walks run stays as lean as it was: with the reach checked inside it, lookups at
  /// load 0.8 ran 18% slower); the rest, once the reach is read, with the warp (walk_far) or on.
  // teach-region linear-locate
  __device__ W locate(const coop_group<G>& g, key k, std::uint32_t max_disp,
                      index& slot_out) const {
    const index home = home_slot<Hash>(k, mask);  // [teach:home]
    const std::uint32_t near = max_disp < k_reach_near ? max_disp : k_reach_near;
    W w = empty_slot();
    if (scan(g, k, home, 0, near, w, slot_out) || near == max_disp) return w;
    const std::uint32_t last = reach_of(home, max_disp);
    if (last <= near) return empty_slot();
    if constexpr (G == 1 && !probe_of<Hash>::type::is_double)
      return walk_far(k, home, near + 1, last, slot_out);
    scan(g, k, home, near + 1, last, w, slot_out);
    return w;
  }
  // teach-region-end

  /// Walks displacements [from, last] of k's probe sequence: true, with the word and slot, at the
  /// first slot holding k or empty; false (the word empty-keyed) when none does.
  // teach-region linear-scan
  __device__ bool scan(const coop_group<G>& g, key k, index home, std::uint32_t from,
                       std::uint32_t last, W& word, index& slot_out) const {
    word = empty_slot();
    const std::int64_t lo = from, limit = static_cast<std::int64_t>(last) + 1;
    if constexpr (probe_of<Hash>::type::is_double) {
      using P = typename probe_of<Hash>::type;
      static_assert(P::width == 4, "sector_reader reads a sector of 4 slots");
      for (std::int64_t d = lo & ~std::int64_t{P::width - 1}; d < limit; d += P::width) {
        const index first = probe_slot<Hash>(home, k, static_cast<std::uint64_t>(d), mask);
        const index base = first & ~index{P::width - 1};
        sector_reader<false, W> sector(slots + base);  // a sector at a time, as inserts
        for (std::uint32_t r = 0; r < P::width && d + r < limit; ++r) {
          if (d + r < lo) continue;
          const auto j = static_cast<std::uint32_t>((first + r) & (P::width - 1));
          const W w = sector.at(j);  // [teach:read_sector]
          if (slot_key(w) == k || is_empty_slot(w)) {
            slot_out = base + j;
            word = w;
            return true;
          }
        }
      }
      return false;
    }
    const index start = (home + from) & mask;
    index base = start & ~index{window - 1};
    const unsigned lane = g.rank();
    for (std::int64_t first = lo - static_cast<std::int64_t>(start - base); first < limit;
         first += window, base = (base + window) & mask) {
      W cur0, cur1;
      load_pair(base, lane, cur0, cur1);  // [teach:read]
      const std::int64_t o0 = first + 2 * lane;
      // [teach:compare]
      const bool c0 = o0 >= lo && o0 < limit && (slot_key(cur0) == k || is_empty_slot(cur0));
      const bool c1 =
          o0 + 1 >= lo && o0 + 1 < limit && (slot_key(cur1) == k || is_empty_slot(cur1));
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

// linear_ref's members defined outside the struct.
#include "core/linear/linear_ref_claims.cuh"
#include "core/linear/linear_walk_far.cuh"
