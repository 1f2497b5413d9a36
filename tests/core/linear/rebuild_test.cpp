// Rebuilding cluster by cluster (linear_rebuild.hpp), run on the host over tables the model
// built: in place and growing by 2 and 4, in value and tombstone modes, with clusters that wrap
// around the end. The result keeps exactly the live pairs, passes the checker, fills the same
// slots as inserting the live keys into empty slots, and does not depend on the order the
// clusters are rebuilt in (so one thread per cluster on the GPU needs no coordination).
#include <algorithm>
#include <map>

#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include "core/linear/linear_invariants.hpp"
#include "core/linear/linear_model.hpp"
#include "core/linear/linear_rebuild.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using namespace hs::linear;

namespace {

std::vector<std::uint32_t> cluster_starts_of(const std::vector<slot_word>& slots) {
  const auto mask = static_cast<std::uint32_t>(slots.size() - 1);
  std::vector<std::uint32_t> out;
  for (std::uint32_t s = 0; s < slots.size(); ++s)
    if (starts_cluster(slots.data(), s, mask)) out.push_back(s);
  return out;
}

template <class Hash>
std::vector<slot_word> rebuilt(std::vector<slot_word> old, std::size_t factor, bool reverse,
                               std::uint32_t& longest, std::uint64_t& placed) {
  const auto starts = cluster_starts_of(old);  // found before any cluster changes, as on the GPU
  std::vector<slot_word> out;
  if (factor > 1) out.assign(old.size() * factor, k_empty_slot);
  slot_word* dst = factor > 1 ? out.data() : old.data();
  const auto old_mask = static_cast<std::uint32_t>(old.size() - 1);
  const auto new_mask = static_cast<std::uint32_t>(old.size() * factor - 1);
  longest = 0;
  placed = 0;
  std::vector<std::uint32_t> order = starts;
  if (reverse) std::reverse(order.begin(), order.end());
  for (std::uint32_t s : order) {
    const rebuilt_cluster r = rebuild_cluster<Hash>(old.data(), old_mask, s, dst, new_mask);
    longest = std::max(longest, r.longest);
    placed += r.live;
  }
  return factor > 1 ? out : old;
}

// The GPU's growth through windows, a lane at a time: each window staged, its lanes' clusters
// rebuilt into the staged copies, the copies written whole, then the deferred clusters. The new
// table starts as a value no rebuild writes, so a slot no window wrote shows.
template <class Hash>
std::vector<slot_word> grown_by_windows(const std::vector<slot_word>& old, std::uint32_t factor,
                                        std::uint32_t& longest, std::uint64_t& placed,
                                        std::size_t& deferred) {
  std::vector<std::uint32_t> bits(old.size() / 32, 0);
  for (std::uint32_t s : cluster_starts_of(old)) bits[s / 32] |= 1u << (s % 32);
  const slot_word unwritten = pack(0x5eed, 0x5eed);
  std::vector<slot_word> out(old.size() * factor, unwritten);
  const auto old_mask = static_cast<std::uint32_t>(old.size() - 1);
  const auto new_mask = static_cast<std::uint32_t>(out.size() - 1);
  std::vector<std::uint32_t> later;
  longest = 0;
  placed = 0;
  for (std::uint32_t base = 0; base < old.size(); base += k_window_slots) {
    std::vector<slot_word> window(k_staged_slots), copies(factor * k_staged_slots, k_empty_slot);
    for (std::uint32_t k = 0; k < k_window_slots; ++k) window[staged_index(k)] = old[base + k];
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      std::uint32_t d = 0;
      const rebuilt_cluster r = rebuild_window_lane<Hash>(
          window.data(), copies.data(), lane, bits[base / 32 + lane], base, old_mask, new_mask, d);
      longest = std::max(longest, r.longest);
      placed += r.live;
      if (d != k_no_cluster) later.push_back(d);
    }
    for (std::uint32_t c = 0; c < factor; ++c)
      for (std::uint32_t k = 0; k < k_window_slots; ++k)
        out[base + c * old.size() + k] = copies[c * k_staged_slots + staged_index(k)];
  }
  std::vector<slot_word> source = old;  // rebuild_cluster takes the old slots writable (in place)
  for (std::uint32_t s : later) {
    const rebuilt_cluster r =
        rebuild_cluster<Hash>(source.data(), old_mask, s, out.data(), new_mask);
    longest = std::max(longest, r.longest);
    placed += r.live;
  }
  deferred = later.size();
  return out;
}

// The GPU's shrink through windows, a key at a time: each new window staged and filled from the
// old windows that fold onto it, written whole, then the keys that waited inserted as any insert
// (the first empty slot from the home, wrapping). `waited` counts those.
template <class Hash>
std::vector<slot_word> shrunk_by_windows(const std::vector<slot_word>& old, std::uint32_t factor,
                                         std::size_t& waited) {
  const std::uint64_t capacity = old.size() / factor;
  const auto mask = static_cast<std::uint32_t>(capacity - 1);
  std::vector<slot_word> out(capacity, pack(0x5eed, 0x5eed)), later;
  for (std::uint32_t base = 0; base < capacity; base += k_window_slots) {
    std::vector<slot_word> window(k_staged_slots, k_empty_slot);
    for (std::uint32_t c = 0; c < factor; ++c)
      for (std::uint32_t k = 0; k < k_window_slots; ++k) {
        const slot_word w = old[c * capacity + base + k];
        if (classify(w) != slot_state::live) continue;
        std::uint32_t from = 0;
        if (place_in_window<Hash>(window.data(), w, base, mask, from) == k_window_slots)
          later.push_back(w);
      }
    for (std::uint32_t k = 0; k < k_window_slots; ++k) out[base + k] = window[staged_index(k)];
  }
  for (slot_word w : later) {
    std::uint32_t p = home_slot<Hash>(slot_key(w), mask);
    while (out[p] != k_empty_slot) p = (p + 1) & mask;
    out[p] = w;
  }
  waited = later.size();
  return out;
}

std::map<key_type, value_type> live_pairs(std::span<const slot_word> slots) {
  std::map<key_type, value_type> m;
  for (slot_word w : slots)
    if (classify(w) == slot_state::live) m[slot_key(w)] = slot_value(w);
  return m;
}

// A rebuilt table holds exactly `expect` (no dead slot), passes the checker with `longest` as its
// probe bound, and fills the slots the model fills inserting the same pairs into empty slots of
// config `cfg` (linear probing's occupied set does not depend on the order keys go in).
void check_rebuilt(const std::vector<slot_word>& slots,
                   const std::map<key_type, value_type>& expect, table_config cfg,
                   std::uint32_t longest) {
  CHECK(live_pairs(slots) == expect);
  table_stats st;
  st.capacity = slots.size();
  st.live = expect.size();
  st.occupied = expect.size();
  st.max_displacement = longest;
  const invariant_report r = check_invariants(slots, cfg.hash, &st, cfg.linear.deletes);
  INFO(r.describe());
  CHECK(r.ok());
  cfg.capacity = slots.size();
  linear_model fresh(cfg);
  for (const auto& [k, v] : expect) fresh.insert_one(k, v);
  for (std::size_t s = 0; s < slots.size(); ++s) {
    INFO("slot " << s);
    REQUIRE(occupies(slots[s]) == occupies(fresh.slots()[s]));
  }
}

}  // namespace

TEST_CASE(
    "a cluster-by-cluster rebuild keeps the live pairs, drops the dead slots and needs no order",
    "[linear][rehash]") {
  const linear_delete_mode mode =
      GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  const hash_kind hash = GENERATE(hash_kind::murmur3, hash_kind::identity);
  const std::size_t factor = GENERATE(1, 2, 4);
  CAPTURE(to_string(mode), to_string(hash), factor);
  table_config cfg;
  cfg.capacity = 1u << 12;
  cfg.hash = hash;
  cfg.linear.deletes = mode;
  linear_model m(cfg);
  // Random keys to 0.6, then a run of keys whose homes pile up on the last slots (so a cluster
  // wraps past the end), then every third key erased: dead slots inside every cluster.
  auto keys = test::random_keys(2400, 5);
  for (key_type k = 1; keys.size() < 3300; ++k)
    if ((murmur3_hash{}(k) & 4095) >= 4060 || hash == hash_kind::identity)
      keys.push_back(hash == hash_kind::identity ? 4090 + k * 4096 : k);
  for (std::size_t i = 0; i < keys.size(); ++i)
    m.insert_one(keys[i], static_cast<value_type>(i + 1));
  for (std::size_t i = 0; i < keys.size(); i += 3) m.erase_one(keys[i]);
  const std::vector<slot_word> old(m.slots().begin(), m.slots().end());
  REQUIRE(occupies(old[old.size() - 1]));
  REQUIRE(occupies(old[0]));  // a cluster runs over the end of the table
  const auto expect = live_pairs(old);

  dispatch_hash(hash, [&](auto h) {
    using H = decltype(h);
    std::uint32_t longest = 0, longest_reversed = 0;
    std::uint64_t placed = 0, placed_reversed = 0;
    const auto forward = rebuilt<H>(old, factor, false, longest, placed);
    const auto backward = rebuilt<H>(old, factor, true, longest_reversed, placed_reversed);
    CHECK(forward == backward);  // clusters are independent
    CHECK(longest == longest_reversed);
    CHECK(placed == expect.size());  // what the kernel counts to check that nothing was lost
    CHECK(placed_reversed == expect.size());
    if (factor > 1) {
      // The GPU's growth through windows of 1024 slots gives the same table, and a cluster ran
      // past a window (the one over the end of the table, and more at this load).
      std::uint32_t longest_windows = 0;
      std::uint64_t placed_windows = 0;
      std::size_t deferred = 0;
      const auto windows = grown_by_windows<H>(old, static_cast<std::uint32_t>(factor),
                                               longest_windows, placed_windows, deferred);
      CHECK(windows == forward);
      CHECK(longest_windows == longest);
      CHECK(placed_windows == expect.size());
      CHECK(deferred >= 2);
    }
    check_rebuilt(forward, expect, cfg, longest);
  });
}

TEST_CASE(
    "a shrink through windows keeps the live pairs and fills the slots any insertion order fills",
    "[linear][rehash]") {
  const linear_delete_mode mode =
      GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  const hash_kind hash = GENERATE(hash_kind::murmur3, hash_kind::identity);
  const std::uint32_t factor = GENERATE(2u, 4u);
  CAPTURE(to_string(mode), to_string(hash), factor);
  table_config cfg;
  cfg.capacity = 1u << 14;
  cfg.hash = hash;
  cfg.linear.deletes = mode;
  const std::uint32_t small = cfg.capacity / factor, small_mask = small - 1;
  linear_model m(cfg);
  // Random keys, then keys whose new homes pile up just before a window's end (so the window
  // fills and keys wait), then every fourth erased: live keys at 0.85 of the smaller table.
  const auto live_target = static_cast<std::size_t>(0.85 * small);
  auto keys = test::random_keys(live_target * 4 / 3 - 300, 7);
  dispatch_hash(hash, [&](auto h) {
    using H = decltype(h);
    for (key_type k = 1; keys.size() < live_target * 4 / 3; ++k)
      if (const key_type key = hash == hash_kind::identity ? 1000 + k * small : k;
          (H{}(key)&small_mask) % 1024 >= 1000)
        keys.push_back(key);
  });
  for (std::size_t i = 0; i < keys.size(); ++i)
    m.insert_one(keys[i], static_cast<value_type>(i + 1));
  for (std::size_t i = 0; i < keys.size(); i += 4) m.erase_one(keys[i]);
  const std::vector<slot_word> old(m.slots().begin(), m.slots().end());
  const auto expect = live_pairs(old);
  REQUIRE(expect.size() <= small);

  dispatch_hash(hash, [&](auto h) {
    using H = decltype(h);
    std::size_t waited = 0;
    const auto shrunk = shrunk_by_windows<H>(old, factor, waited);
    CHECK(waited > 0);
    std::uint32_t longest = 0;
    for (std::uint32_t s = 0; s < small; ++s)
      if (classify(shrunk[s]) == slot_state::live)
        longest = std::max(
            longest, displacement(s, home_slot<H>(slot_key(shrunk[s]), small_mask), small_mask));
    check_rebuilt(shrunk, expect, cfg, longest);
  });
}
