// Sequential semantics of the linear family (seeds 000/001): probe from the home slot; insert
// claims the first empty slot unless the key is met first; find and erase stop at an empty slot.
#include "core/linear/linear_model.hpp"

#include <algorithm>

#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/linear/linear_state.hpp"
#include "core/table/model_batches.hpp"

namespace hs::linear {

template <class W>
basic_linear_model<W>::basic_linear_model(const table_config& cfg)
    : cfg_(cfg), mask_(static_cast<index>(cfg.capacity - 1)) {
  try {
    slots_.assign(cfg.capacity, slot_traits<W>::empty());
  } catch (const std::bad_alloc&) {
    throw user_error("not enough host memory for a CPU model of " + std::to_string(cfg.capacity) +
                     " slots");
  }
}

template <class W>
template <class Hash>
std::int64_t basic_linear_model<W>::locate(key k) const {
  const index home = home_slot<Hash>(k, mask_);
  for (std::uint64_t d = 0; d <= max_displacement_; ++d) {
    const index s = probe_slot<Hash>(home, k, d, mask_);
    const W w = slots_[s];
    if (slot_key(w) == k) return static_cast<std::int64_t>(s);
    if (is_empty_slot(w)) return -1;
  }
  return -1;
}

template <class W>
template <class Hash>
op_status basic_linear_model<W>::insert_impl(key k, value v) {
  if (key_limits<key>::reserved_key(k)) return op_status::rejected_key;
  if (key_limits<value>::reserved_value(v)) return op_status::rejected_value;
  if (cfg_.linear.deletes == linear_delete_mode::tombstone) return insert_reusing<Hash>(k, v);
  const index home = home_slot<Hash>(k, mask_);
  for (std::uint64_t d = 0; d < walk_limit(); ++d) {
    const index s = probe_slot<Hash>(home, k, d, mask_);
    W& w = slots_[s];
    if (slot_key(w) == k) {
      const bool was_live = !value_is_empty(w);
      w = pack_slot<W>(k, v);
      return was_live ? op_status::replaced : op_status::inserted;
    }
    if (is_empty_slot(w)) {
      w = pack_slot<W>(k, v);
      ++occupied_;
      max_displacement_ = std::max(max_displacement_, static_cast<std::uint32_t>(d));
      return op_status::inserted;
    }
    // A full table holds no empty slot: past the longest probe the key cannot be present.
    if (occupied_ == cfg_.capacity && d >= max_displacement_) break;
  }
  ++failed_full_;
  return op_status::failed_full;
}

// Tombstone mode (Reusing Deleted Slots, without its flaw): the key may sit anywhere up to the
// first empty slot, behind tombstones, so the probe goes that far before it reuses the first free
// slot it passed.
template <class W>
template <class Hash>
op_status basic_linear_model<W>::insert_reusing(key k, value v) {
  const index home = home_slot<Hash>(k, mask_);
  std::int64_t free_slot = -1;
  std::uint32_t free_d = 0;
  for (std::uint64_t d = 0; d < walk_limit(); ++d) {
    const index s = probe_slot<Hash>(home, k, d, mask_);
    W& w = slots_[s];
    if (slot_key(w) == k) {
      const bool was_live = !value_is_empty(w);
      w = pack_slot<W>(k, v);
      return was_live ? op_status::replaced : op_status::inserted;
    }
    const bool empty = is_empty_slot(w);
    if ((empty || is_tombstone(w)) && free_slot < 0) {
      free_slot = static_cast<std::int64_t>(s);
      free_d = static_cast<std::uint32_t>(d);
    }
    // The key lies no further than the longest probe: past it, a free slot found is enough.
    if (empty || (free_slot >= 0 && d >= max_displacement_)) break;
  }
  if (free_slot < 0) {
    ++failed_full_;
    return op_status::failed_full;
  }
  W& w = slots_[static_cast<std::size_t>(free_slot)];
  if (is_empty_slot(w)) ++occupied_;
  w = pack_slot<W>(k, v);
  max_displacement_ = std::max(max_displacement_, free_d);
  return op_status::inserted;
}

template <class W>
template <class Hash>
op_status basic_linear_model<W>::find_impl(key k, value& out) const {
  out = key_limits<value>::empty;
  if (key_limits<key>::reserved_key(k)) return op_status::rejected_key;
  const std::int64_t s = locate<Hash>(k);
  if (s < 0) return op_status::missing;
  out = slot_value(slots_[static_cast<std::size_t>(s)]);
  return out == key_limits<value>::empty ? op_status::missing : op_status::found;
}

template <class W>
template <class Hash>
op_status basic_linear_model<W>::erase_impl(key k) {
  if (key_limits<key>::reserved_key(k)) return op_status::rejected_key;
  const std::int64_t s = locate<Hash>(k);
  if (s < 0) return op_status::missing;
  W& w = slots_[static_cast<std::size_t>(s)];
  if (value_is_empty(w)) return op_status::missing;
  // A Simple GPU Hash Table: the key keeps its slot, only the value is emptied; Reusing Deleted
  // Slots: the key becomes a tombstone (still walked past by probes, reused by inserts).
  w = cfg_.linear.deletes == linear_delete_mode::tombstone
          ? pack_slot<W>(key_limits<key>::tombstone, key_limits<value>::empty)
          : pack_slot<W>(k, key_limits<value>::empty);
  return op_status::erased;
}

template <class W>
op_status basic_linear_model<W>::insert_one(key k, value v) {
  return dispatch_probing(cfg_.hash, cfg_.linear.probe,
                          [&](auto h) { return insert_impl<decltype(h)>(k, v); });
}
template <class W>
op_status basic_linear_model<W>::find_one(key k, value& out) const {
  return dispatch_probing(cfg_.hash, cfg_.linear.probe,
                          [&](auto h) { return find_impl<decltype(h)>(k, out); });
}
template <class W>
op_status basic_linear_model<W>::erase_one(key k) {
  return dispatch_probing(cfg_.hash, cfg_.linear.probe,
                          [&](auto h) { return erase_impl<decltype(h)>(k); });
}

template <class W>
void basic_linear_model<W>::insert_batch(std::span<const key> keys, std::span<const value> values,
                                         std::span<op_status> status, stream_view) {
  hs::detail::check_bulk("insert", keys.size(), values.size(), status.size());
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    run_model_ops<value>(mutex_, keys.size(), rejected_, {status, {}}, all_of_kind(op_kind::insert),
                         [&](std::size_t i, op_kind, value&) {
                           return insert_impl<decltype(h)>(keys[i], values[i]);
                         });
  });
}

template <class W>
void basic_linear_model<W>::find_batch(std::span<const key> keys, std::span<value> values_out,
                                       std::span<op_status> status, stream_view) {
  hs::detail::check_bulk("find", keys.size(), values_out.size(), status.size());
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    run_model_ops<value>(
        mutex_, keys.size(), rejected_, {status, values_out}, all_of_kind(op_kind::find),
        [&](std::size_t i, op_kind, value& out) { return find_impl<decltype(h)>(keys[i], out); });
  });
}

template <class W>
void basic_linear_model<W>::erase_batch(std::span<const key> keys, std::span<op_status> status,
                                        stream_view) {
  hs::detail::check_bulk("erase", keys.size(), keys.size(), status.size());
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    run_model_ops<value>(
        mutex_, keys.size(), rejected_, {status, {}}, all_of_kind(op_kind::erase),
        [&](std::size_t i, op_kind, value&) { return erase_impl<decltype(h)>(keys[i]); });
  });
}

template <class W>
void basic_linear_model<W>::apply_batch(const batch& ops, std::span<value> results,
                                        std::span<op_status> status, stream_view) {
  hs::detail::check_apply(ops, results.size(), status.size());
  // Tombstone mode runs a mixed batch in two phases, like the GPU table: inserts and lookups,
  // then erases. Value mode runs it in order.
  const bool phased = cfg_.linear.deletes == linear_delete_mode::tombstone;
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    using H = decltype(h);
    const auto run = [&](std::size_t i, op_kind kind, value& out) {
      switch (kind) {
        case op_kind::insert: return insert_impl<H>(ops.keys[i], ops.values[i]);
        case op_kind::find: return find_impl<H>(ops.keys[i], out);
        default: return erase_impl<H>(ops.keys[i]);
      }
    };
    for (int pass = 0; pass < (phased ? 2 : 1); ++pass)
      run_model_ops<value>(
          mutex_, ops.keys.size(), rejected_, {status, results},
          [&](std::size_t i) { return ops.kinds[i]; }, run,
          [&](std::size_t i) {
            return !phased || (ops.kinds[i] == op_kind::erase) == (pass == 1);
          });
  });
}

template <class W>
void basic_linear_model<W>::load_slots(std::span<const W> slots) {
  if (slots.size() != slots_.size())
    throw user_error("load_slots: " + std::to_string(slots.size()) +
                     " slots given for a table of " + std::to_string(slots_.size()));
  std::lock_guard lock(mutex_);
  std::copy(slots.begin(), slots.end(), slots_.begin());
  occupied_ = 0;
  max_displacement_ = 0;
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    for (std::uint64_t s = 0; s < slots_.size(); ++s) {
      if (!occupies(slots_[s])) continue;
      ++occupied_;
      if (holds_key(slots_[s]))
        max_displacement_ =
            std::max(max_displacement_,
                     slot_displacement<decltype(h)>(static_cast<index>(s), slots_[s], mask_));
    }
  });
}

template <class W>
void basic_linear_model<W>::clear(stream_view) {
  std::lock_guard lock(mutex_);
  std::fill(slots_.begin(), slots_.end(), slot_traits<W>::empty());
  occupied_ = 0;
  max_displacement_ = 0;
  rejected_.clear();
  failed_full_ = 0;
}

template <class W>
table_stats basic_linear_model<W>::stats(stream_view) {
  std::lock_guard lock(mutex_);
  table_stats st;
  st.capacity = cfg_.capacity;
  st.bytes = slots_.size() * sizeof(W);
  for (const W& w : slots_) {
    const slot_state state = classify(w);
    st.live += state == slot_state::live;
    st.erased += state == slot_state::erased;
    st.tombstones += state == slot_state::tombstone;
  }
  st.occupied = st.live + st.erased + st.tombstones;
  st.max_displacement = max_displacement_;
  rejected_.copy_to(st.rejected);
  st.failed_full = failed_full_;
  return st;
}

template <class W>
void basic_linear_model<W>::inspect(const inspect_request& req, inspect_result& out, stream_view) {
  std::lock_guard lock(mutex_);
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    using H = decltype(h);
    if (req.occupancy)  // ranges wrap round the table (as in the GPU kernel): no clamp
      fill_occupancy(*req.occupancy, ~std::uint64_t{0}, [&](std::uint64_t lo, std::uint64_t hi) {
        slot_census c;
        for (std::uint64_t s = lo; s < hi; ++s) {
          const auto slot = static_cast<index>(s & mask_);
          c.add<H>(slot, slots_[slot], mask_);
        }
        return c.to_pixel();
      });
    if (req.probe_histogram) {
      out.histogram = {};
      for (std::uint64_t s = 0; s < cfg_.capacity; ++s) {
        const W w = slots_[s];
        if (holds_key(w)) out.histogram.add(slot_displacement<H>(static_cast<index>(s), w, mask_));
      }
    }
    out.slots.clear();
    if (req.dump_first) {
      for (std::uint64_t i = 0; i < req.dump_count; ++i) {
        const auto s = static_cast<index>((*req.dump_first + i) & mask_);
        out.slots.push_back(make_slot_record<H>(s, slots_[s], mask_));
      }
    }
  });
}

template <class W>
void basic_linear_model<W>::rehash(std::uint64_t capacity, stream_view) {
  check_capacity("rehash", capacity, slot_traits<W>::width);
  std::lock_guard lock(mutex_);
  std::vector<W> old;
  old.swap(slots_);
  std::uint64_t live = 0;
  for (const W& w : old) live += classify(w) == slot_state::live;
  if (live > capacity) {
    slots_.swap(old);
    throw user_error("rehash: " + std::to_string(live) + " live keys do not fit in " +
                     std::to_string(capacity) + " slots");
  }
  try {
    slots_.assign(capacity, slot_traits<W>::empty());
  } catch (const std::bad_alloc&) {
    slots_.swap(old);
    throw user_error("rehash: not enough host memory for " + std::to_string(capacity) + " slots");
  }
  cfg_.capacity = capacity;
  mask_ = static_cast<index>(capacity - 1);
  occupied_ = 0;
  max_displacement_ = 0;
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    for (const W& w : old)
      if (classify(w) == slot_state::live) insert_impl<decltype(h)>(slot_key(w), slot_value(w));
  });
}

template <class W>
std::uint64_t basic_linear_model<W>::retrieve_pairs(std::span<key> keys, std::span<value> values,
                                                    stream_view) {
  hs::detail::check_bulk("retrieve_all", keys.size(), values.size(), 0);
  std::lock_guard lock(mutex_);
  std::uint64_t n = 0;
  for (const W& w : slots_) {
    if (classify(w) != slot_state::live) continue;
    if (n < keys.size()) {
      keys[n] = slot_key(w);
      values[n] = slot_value(w);
    }
    ++n;
  }
  return n;
}

template class basic_linear_model<slot_word>;
template class basic_linear_model<wide_slot>;

}  // namespace hs::linear
