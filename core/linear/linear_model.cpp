// Sequential semantics of the linear family (seeds 000/001): probe from the home slot; insert
// claims the first empty slot unless the key is met first; find and erase stop at an empty slot.
#include "core/linear/linear_model.hpp"

#include <algorithm>

#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/table/model_batches.hpp"

namespace hs::linear {

linear_model::linear_model(const table_config& cfg)
    : cfg_(cfg), mask_(static_cast<std::uint32_t>(cfg.capacity - 1)) {
  try {
    slots_.assign(cfg.capacity, k_empty_slot);
  } catch (const std::bad_alloc&) {
    throw user_error("not enough host memory for a CPU model of " + std::to_string(cfg.capacity) +
                     " slots");
  }
}

template <class Hash>
std::int64_t linear_model::locate(key_type k) const {
  const std::uint32_t home = home_slot<Hash>(k, mask_);
  for (std::uint64_t d = 0; d <= max_displacement_; ++d) {
    const std::uint32_t s = probe_slot<Hash>(home, k, d, mask_);
    const slot_word w = slots_[s];
    if (slot_key(w) == k) return s;
    if (w == k_empty_slot) return -1;
  }
  return -1;
}

template <class Hash>
op_status linear_model::insert_impl(key_type k, value_type v) {
  if (is_reserved_key(k)) return op_status::rejected_key;
  if (is_reserved_value(v)) return op_status::rejected_value;
  if (cfg_.linear.deletes == linear_delete_mode::tombstone) return insert_reusing<Hash>(k, v);
  const std::uint32_t home = home_slot<Hash>(k, mask_);
  for (std::uint64_t d = 0; d < cfg_.capacity; ++d) {
    const std::uint32_t s = probe_slot<Hash>(home, k, d, mask_);
    slot_word& w = slots_[s];
    if (slot_key(w) == k) {
      const bool was_live = slot_value(w) != k_empty;
      w = pack(k, v);
      return was_live ? op_status::replaced : op_status::inserted;
    }
    if (w == k_empty_slot) {
      w = pack(k, v);
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
template <class Hash>
op_status linear_model::insert_reusing(key_type k, value_type v) {
  const std::uint32_t home = home_slot<Hash>(k, mask_);
  std::int64_t free_slot = -1;
  std::uint32_t free_d = 0;
  for (std::uint64_t d = 0; d < cfg_.capacity; ++d) {
    const std::uint32_t s = probe_slot<Hash>(home, k, d, mask_);
    slot_word& w = slots_[s];
    if (slot_key(w) == k) {
      const bool was_live = slot_value(w) != k_empty;
      w = pack(k, v);
      return was_live ? op_status::replaced : op_status::inserted;
    }
    const bool empty = w == k_empty_slot;
    if ((empty || slot_key(w) == k_tombstone) && free_slot < 0) {
      free_slot = s;
      free_d = static_cast<std::uint32_t>(d);
    }
    // The key lies no further than the longest probe: past it, a free slot found is enough.
    if (empty || (free_slot >= 0 && d >= max_displacement_)) break;
  }
  if (free_slot < 0) {
    ++failed_full_;
    return op_status::failed_full;
  }
  slot_word& w = slots_[static_cast<std::size_t>(free_slot)];
  if (w == k_empty_slot) ++occupied_;
  w = pack(k, v);
  max_displacement_ = std::max(max_displacement_, free_d);
  return op_status::inserted;
}

template <class Hash>
op_status linear_model::find_impl(key_type k, value_type& out) const {
  out = k_empty;
  if (is_reserved_key(k)) return op_status::rejected_key;
  const std::int64_t s = locate<Hash>(k);
  if (s < 0) return op_status::missing;
  out = slot_value(slots_[static_cast<std::size_t>(s)]);
  return out == k_empty ? op_status::missing : op_status::found;
}

template <class Hash>
op_status linear_model::erase_impl(key_type k) {
  if (is_reserved_key(k)) return op_status::rejected_key;
  const std::int64_t s = locate<Hash>(k);
  if (s < 0) return op_status::missing;
  slot_word& w = slots_[static_cast<std::size_t>(s)];
  if (slot_value(w) == k_empty) return op_status::missing;
  // A Simple GPU Hash Table: the key keeps its slot, only the value is emptied; Reusing Deleted
  // Slots: the key becomes a tombstone (still walked past by probes, reused by inserts).
  w = cfg_.linear.deletes == linear_delete_mode::tombstone ? pack(k_tombstone, k_empty)
                                                           : pack(k, k_empty);
  return op_status::erased;
}

op_status linear_model::insert_one(key_type k, value_type v) {
  return dispatch_probing(cfg_.hash, cfg_.linear.probe,
                          [&](auto h) { return insert_impl<decltype(h)>(k, v); });
}
op_status linear_model::find_one(key_type k, value_type& out) const {
  return dispatch_probing(cfg_.hash, cfg_.linear.probe,
                          [&](auto h) { return find_impl<decltype(h)>(k, out); });
}
op_status linear_model::erase_one(key_type k) {
  return dispatch_probing(cfg_.hash, cfg_.linear.probe,
                          [&](auto h) { return erase_impl<decltype(h)>(k); });
}

void linear_model::insert(std::span<const key_type> keys, std::span<const value_type> values,
                          std::span<op_status> status, stream_view) {
  hs::detail::check_bulk("insert", keys.size(), values.size(), status.size());
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    run_model_ops(mutex_, keys.size(), rejected_, {status, {}}, all_of_kind(op_kind::insert),
                  [&](std::size_t i, op_kind, value_type&) {
                    return insert_impl<decltype(h)>(keys[i], values[i]);
                  });
  });
}

void linear_model::find(std::span<const key_type> keys, std::span<value_type> values_out,
                        std::span<op_status> status, stream_view) {
  hs::detail::check_bulk("find", keys.size(), values_out.size(), status.size());
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    run_model_ops(mutex_, keys.size(), rejected_, {status, values_out}, all_of_kind(op_kind::find),
                  [&](std::size_t i, op_kind, value_type& out) {
                    return find_impl<decltype(h)>(keys[i], out);
                  });
  });
}

void linear_model::erase(std::span<const key_type> keys, std::span<op_status> status, stream_view) {
  hs::detail::check_bulk("erase", keys.size(), keys.size(), status.size());
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    run_model_ops(
        mutex_, keys.size(), rejected_, {status, {}}, all_of_kind(op_kind::erase),
        [&](std::size_t i, op_kind, value_type&) { return erase_impl<decltype(h)>(keys[i]); });
  });
}

void linear_model::apply(const op_batch& ops, std::span<value_type> results,
                         std::span<op_status> status, stream_view) {
  hs::detail::check_apply(ops, results.size(), status.size());
  // Tombstone mode runs a mixed batch in two phases, like the GPU table: inserts and lookups,
  // then erases. Value mode runs it in order.
  const bool phased = cfg_.linear.deletes == linear_delete_mode::tombstone;
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    using H = decltype(h);
    const auto run = [&](std::size_t i, op_kind kind, value_type& out) {
      switch (kind) {
        case op_kind::insert: return insert_impl<H>(ops.keys[i], ops.values[i]);
        case op_kind::find: return find_impl<H>(ops.keys[i], out);
        default: return erase_impl<H>(ops.keys[i]);
      }
    };
    for (int pass = 0; pass < (phased ? 2 : 1); ++pass)
      run_model_ops(
          mutex_, ops.keys.size(), rejected_, {status, results},
          [&](std::size_t i) { return ops.kinds[i]; }, run,
          [&](std::size_t i) {
            return !phased || (ops.kinds[i] == op_kind::erase) == (pass == 1);
          });
  });
}

void linear_model::load_slots(std::span<const slot_word> slots) {
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
        max_displacement_ = std::max(
            max_displacement_,
            slot_displacement<decltype(h)>(static_cast<std::uint32_t>(s), slots_[s], mask_));
    }
  });
}

void linear_model::clear(stream_view) {
  std::lock_guard lock(mutex_);
  std::fill(slots_.begin(), slots_.end(), k_empty_slot);
  occupied_ = 0;
  max_displacement_ = 0;
  rejected_.clear();
  failed_full_ = 0;
}

table_stats linear_model::stats(stream_view) {
  std::lock_guard lock(mutex_);
  table_stats st;
  st.capacity = cfg_.capacity;
  st.bytes = slots_.size() * sizeof(slot_word);
  for (slot_word w : slots_) {
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

void linear_model::inspect(const inspect_request& req, inspect_result& out, stream_view) {
  std::lock_guard lock(mutex_);
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    using H = decltype(h);
    if (req.occupancy)  // ranges wrap round the table (as in the GPU kernel): no clamp
      fill_occupancy(*req.occupancy, ~std::uint64_t{0}, [&](std::uint64_t lo, std::uint64_t hi) {
        slot_census c;
        for (std::uint64_t s = lo; s < hi; ++s) {
          const auto slot = static_cast<std::uint32_t>(s & mask_);
          c.add<H>(slot, slots_[slot], mask_);
        }
        return c.to_pixel();
      });
    if (req.probe_histogram) {
      out.histogram = {};
      for (std::uint64_t s = 0; s < cfg_.capacity; ++s) {
        const slot_word w = slots_[s];
        if (holds_key(w))
          out.histogram.add(slot_displacement<H>(static_cast<std::uint32_t>(s), w, mask_));
      }
    }
    out.slots.clear();
    if (req.dump_first) {
      for (std::uint32_t i = 0; i < req.dump_count; ++i) {
        const auto s = static_cast<std::uint32_t>((*req.dump_first + i) & mask_);
        out.slots.push_back(make_slot_record<H>(s, slots_[s], mask_));
      }
    }
  });
}

void linear_model::rehash(std::uint64_t capacity, stream_view) {
  if (!is_pow2(capacity) || capacity < 16 || capacity > max_capacity())
    throw user_error("rehash: capacity " + std::to_string(capacity) +
                     " is not a power of two between 16 and 2^32");
  std::lock_guard lock(mutex_);
  std::vector<slot_word> old;
  old.swap(slots_);
  std::uint64_t live = 0;
  for (slot_word w : old) live += classify(w) == slot_state::live;
  if (live > capacity) {
    slots_.swap(old);
    throw user_error("rehash: " + std::to_string(live) + " live keys do not fit in " +
                     std::to_string(capacity) + " slots");
  }
  try {
    slots_.assign(capacity, k_empty_slot);
  } catch (const std::bad_alloc&) {
    slots_.swap(old);
    throw user_error("rehash: not enough host memory for " + std::to_string(capacity) + " slots");
  }
  cfg_.capacity = capacity;
  mask_ = static_cast<std::uint32_t>(capacity - 1);
  occupied_ = 0;
  max_displacement_ = 0;
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto h) {
    for (slot_word w : old)
      if (classify(w) == slot_state::live) insert_impl<decltype(h)>(slot_key(w), slot_value(w));
  });
}

std::uint64_t linear_model::retrieve_all(std::span<key_type> keys, std::span<value_type> values,
                                         stream_view) {
  hs::detail::check_bulk("retrieve_all", keys.size(), values.size(), 0);
  std::lock_guard lock(mutex_);
  std::uint64_t n = 0;
  for (slot_word w : slots_) {
    if (classify(w) != slot_state::live) continue;
    if (n < keys.size()) {
      keys[n] = slot_key(w);
      values[n] = slot_value(w);
    }
    ++n;
  }
  return n;
}

}  // namespace hs::linear
