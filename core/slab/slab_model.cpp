// Sequential semantics of the slab family (SlabHash): every operation walks its bucket's list from
// the base slab. REPLACE takes the first pair holding the key or empty (in unique mode lists fill
// in order and deleted pairs stay tombstones, so no copy of the key can lie further on); INSERT
// takes the first empty pair; SEARCH and DELETE take the first match; a full list gets a new slab.
#include "core/slab/slab_model.hpp"

#include <algorithm>
#include <bit>

#include "core/common/error.hpp"
#include "core/table/model_batches.hpp"

namespace hs::slab {

slab_model::slab_model(const table_config& cfg) : cfg_(cfg) {
  const std::uint64_t buckets = resolve_buckets(cfg);
  shape_ = resolve_pool(cfg.slab, buckets);
  try {
    reset_storage(buckets);
  } catch (const std::bad_alloc&) {
    throw user_error("not enough host memory for a CPU model of " + std::to_string(buckets) +
                     " buckets");
  }
}

void slab_model::reset_storage(std::uint64_t buckets) {
  img_ = {};
  img_.mode = cfg_.slab.mode;
  img_.hash = cfg_.hash;
  img_.buckets = static_cast<std::uint32_t>(buckets);
  img_.blocks_per_super = shape_.blocks_per_super;
  img_.base.assign(buckets * k_slab_words, k_empty);
  for (std::uint32_t i = 0; i < shape_.initial_super_blocks; ++i) img_.add_super_block();
  cfg_.slab.buckets = buckets;
  cfg_.capacity = buckets * k_slab_pairs;
  next_fit_ = 0;
}

table_config slab_model::config() const {
  std::lock_guard lock(mutex_);
  return cfg_;
}

std::uint32_t slab_model::allocate() {
  for (int round = 0; round < 2; ++round) {
    const std::uint64_t total = img_.pool_capacity();
    for (std::uint64_t i = 0; i < total; i += 32) {
      const std::uint64_t at = (next_fit_ + i) % total / 32 * 32;  // a bitmap word's first slab
      const auto super = static_cast<std::uint32_t>(at / shape_.slabs_per_super());
      const auto index = static_cast<std::uint32_t>(at % shape_.slabs_per_super());
      std::uint32_t& word = img_.bitmaps[super][index / 32];
      if (word == 0xffffffffu) continue;
      const int bit = std::countr_one(word);
      word |= 1u << bit;
      next_fit_ = at;
      const std::uint32_t address =
          make_address(super, (index + bit) / k_slabs_per_block, (index + bit) % k_slabs_per_block);
      std::fill_n(img_.pool_slab(address), k_slab_words, k_empty);
      return address;
    }
    if (img_.slabs.size() >= shape_.max_super_blocks) break;
    next_fit_ = total;
    img_.add_super_block();
  }
  ++alloc_failures_;
  return k_null_address;
}

void slab_model::release(std::uint32_t address) {
  const std::uint32_t index = index_in_super(address);
  img_.bitmaps[super_of(address)][index / 32] &= ~(1u << (index % 32));
}

template <class Pred>
bool slab_model::first_pair(std::uint32_t bucket, Pred pred, std::uint32_t*& slab, int& pair) {
  bool found = false;
  walk_chain(img_, bucket, [&](const std::uint32_t* w, std::uint32_t, std::uint64_t) {
    for (int p = 0; p < k_slab_pairs; ++p)
      if (pred(w[2 * p])) {
        slab = const_cast<std::uint32_t*>(w);
        pair = p;
        found = true;
        return false;
      }
    slab = const_cast<std::uint32_t*>(w);  // the last slab visited: the tail when nothing matched
    return true;
  });
  return found;
}

op_status slab_model::insert_one(key_type k, value_type v) {
  if (is_reserved_key(k)) return op_status::rejected_key;
  if (is_reserved_value(v)) return op_status::rejected_value;
  const bool unique = cfg_.slab.mode == slab_mode::unique;
  std::uint32_t* slab = nullptr;
  int pair = 0;
  const bool hit = first_pair(
      img_.bucket_of(k), [&](std::uint32_t key) { return key == k_empty || (unique && key == k); },
      slab, pair);
  if (!hit) {  // the list is full: link a new slab after its tail
    const std::uint32_t address = allocate();
    if (address == k_null_address) return ++failed_full_, op_status::failed_full;
    slab[k_next_word] = address;
    slab = img_.pool_slab(address);
    pair = 0;
  }
  const bool replaced = slab[2 * pair] == k;
  slab[2 * pair] = k;
  slab[2 * pair + 1] = v;
  return replaced ? op_status::replaced : op_status::inserted;
}

op_status slab_model::find_one(key_type k, value_type& out) const {
  out = k_empty;
  if (is_reserved_key(k)) return op_status::rejected_key;
  op_status st = op_status::missing;
  walk_chain(img_, img_.bucket_of(k), [&](const std::uint32_t* w, std::uint32_t, std::uint64_t) {
    for (int p = 0; p < k_slab_pairs; ++p)
      if (w[2 * p] == k) {
        out = w[2 * p + 1];
        st = op_status::found;
        return false;
      }
    return true;
  });
  return st;
}

op_status slab_model::erase_one(key_type k) {
  if (is_reserved_key(k)) return op_status::rejected_key;
  std::uint32_t* slab = nullptr;
  int pair = 0;
  if (!first_pair(img_.bucket_of(k), [&](std::uint32_t key) { return key == k; }, slab, pair))
    return op_status::missing;
  slab[2 * pair] = deleted_key(cfg_.slab.mode);
  slab[2 * pair + 1] = k_empty;
  return op_status::erased;
}

std::uint32_t slab_model::erase_all_one(key_type k) {
  if (is_reserved_key(k)) return 0;
  std::uint32_t n = 0;
  walk_chain(img_, img_.bucket_of(k), [&](const std::uint32_t* w, std::uint32_t, std::uint64_t) {
    auto* words = const_cast<std::uint32_t*>(w);
    for (int p = 0; p < k_slab_pairs; ++p)
      if (words[2 * p] == k) {
        words[2 * p] = deleted_key(cfg_.slab.mode);
        words[2 * p + 1] = k_empty;
        ++n;
      }
    return true;
  });
  return n;
}

std::uint32_t slab_model::count_one(key_type k) const {
  if (is_reserved_key(k)) return 0;
  std::uint32_t n = 0;
  walk_chain(img_, img_.bucket_of(k), [&](const std::uint32_t* w, std::uint32_t, std::uint64_t) {
    for (int p = 0; p < k_slab_pairs; ++p) n += w[2 * p] == k;
    return true;
  });
  return n;
}

void slab_model::insert_batch(std::span<const key_type> keys, std::span<const value_type> values,
                              std::span<op_status> status, stream_view) {
  detail::check_bulk("insert", keys.size(), values.size(), status.size());
  run_model_ops(
      mutex_, keys.size(), rejected_, {status, {}}, all_of_kind(op_kind::insert),
      [&](std::size_t i, op_kind, value_type&) { return insert_one(keys[i], values[i]); });
}

void slab_model::find_batch(std::span<const key_type> keys, std::span<value_type> values_out,
                            std::span<op_status> status, stream_view) {
  detail::check_bulk("find", keys.size(), values_out.size(), status.size());
  run_model_ops(mutex_, keys.size(), rejected_, {status, values_out}, all_of_kind(op_kind::find),
                [&](std::size_t i, op_kind, value_type& out) { return find_one(keys[i], out); });
}

void slab_model::erase_batch(std::span<const key_type> keys, std::span<op_status> status,
                             stream_view) {
  detail::check_bulk("erase", keys.size(), keys.size(), status.size());
  run_model_ops(mutex_, keys.size(), rejected_, {status, {}}, all_of_kind(op_kind::erase),
                [&](std::size_t i, op_kind, value_type&) { return erase_one(keys[i]); });
}

void slab_model::apply_batch(const op_batch& ops, std::span<value_type> results,
                             std::span<op_status> status, stream_view) {
  detail::check_apply(ops, results.size(), status.size());
  run_model_ops(
      mutex_, ops.keys.size(), rejected_, {status, results},
      [&](std::size_t i) { return ops.kinds[i]; },
      [&](std::size_t i, op_kind kind, value_type& out) {
        switch (kind) {
          case op_kind::insert: return insert_one(ops.keys[i], ops.values[i]);
          case op_kind::find: return find_one(ops.keys[i], out);
          default: return erase_one(ops.keys[i]);
        }
      });
}

void slab_model::erase_all(std::span<const key_type> keys, std::span<std::uint32_t> removed,
                           stream_view) {
  detail::check_bulk("erase_all", keys.size(), removed.empty() ? keys.size() : removed.size(), 0);
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::uint32_t n = erase_all_one(keys[i]);
    rejected_.note_key(op_kind::erase, keys[i]);  // DELETEALL is an erase
    if (!removed.empty()) removed[i] = n;
  }
}

void slab_model::count(std::span<const key_type> keys, std::span<std::uint32_t> counts,
                       stream_view) {
  detail::check_bulk("count", keys.size(), counts.size(), 0);
  std::lock_guard lock(mutex_);
  // COUNT and SEARCHALL are lookups: a reserved key is rejected as a find, as on the GPU.
  for (std::size_t i = 0; i < keys.size(); ++i) {
    counts[i] = count_one(keys[i]);
    rejected_.note_key(op_kind::find, keys[i]);
  }
}

void slab_model::search_all(std::span<const key_type> keys, std::span<const std::uint64_t> offsets,
                            std::span<value_type> values_out, stream_view) {
  detail::check_bulk("search_all", keys.size() + 1, offsets.size(), 0);
  if (!keys.empty() && offsets.back() > values_out.size())
    throw user_error("search_all: the offsets need " + std::to_string(offsets.back()) +
                     " values but the output holds " + std::to_string(values_out.size()));
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const key_type k = keys[i];
    rejected_.note_key(op_kind::find, k);
    if (is_reserved_key(k)) continue;
    std::uint64_t at = offsets[i];
    walk_chain(img_, img_.bucket_of(k), [&](const std::uint32_t* w, std::uint32_t, std::uint64_t) {
      for (int p = 0; p < k_slab_pairs && at < offsets[i + 1]; ++p)
        if (w[2 * p] == k) values_out[at++] = w[2 * p + 1];
      return at < offsets[i + 1];
    });
  }
}

void slab_model::flush(stream_view) {
  std::lock_guard lock(mutex_);
  for (std::uint32_t b = 0; b < img_.buckets; ++b) {
    std::vector<std::uint64_t> live;
    std::vector<std::uint32_t> chain;  // pool addresses after the base slab, in order
    walk_chain(img_, b, [&](const std::uint32_t* w, std::uint32_t address, std::uint64_t pos) {
      if (pos > 0) chain.push_back(address);
      for (int p = 0; p < k_slab_pairs; ++p)
        if (is_live_key(w[2 * p])) live.push_back(pack_pair(w[2 * p], w[2 * p + 1]));
      return true;
    });
    const std::size_t keep =
        live.empty() ? 0 : (live.size() - 1) / k_slab_pairs;  // chained slabs kept
    for (std::size_t s = 0; s <= keep; ++s) {
      std::uint32_t* w = s == 0 ? img_.base_slab(b) : img_.pool_slab(chain[s - 1]);
      for (int p = 0; p < k_slab_pairs; ++p) {
        const std::size_t i = s * k_slab_pairs + p;
        w[2 * p] = i < live.size() ? static_cast<std::uint32_t>(live[i]) : k_empty;
        w[2 * p + 1] = i < live.size() ? static_cast<std::uint32_t>(live[i] >> 32) : k_empty;
      }
      if (s == keep) w[k_next_word] = k_null_address;
    }
    for (std::size_t s = keep; s < chain.size(); ++s) release(chain[s]);
  }
}

void slab_model::clear(stream_view) {
  std::lock_guard lock(mutex_);
  std::fill(img_.base.begin(), img_.base.end(), k_empty);
  for (auto& words : img_.bitmaps) std::fill(words.begin(), words.end(), 0u);
  next_fit_ = 0;
  rejected_.clear();
  failed_full_ = alloc_failures_ = 0;
}

table_stats slab_model::stats(stream_view) {
  std::lock_guard lock(mutex_);
  std::uint64_t bytes = img_.base.size() * 4;
  for (const auto& s : img_.slabs) bytes += s.size() * 4;
  for (const auto& s : img_.bitmaps) bytes += s.size() * 4;
  table_stats st =
      stats_from_census(census(img_), img_.buckets, img_.pool_capacity(), img_.slabs.size(), bytes);
  rejected_.copy_to(st.rejected);
  st.failed_full = failed_full_;
  st.slab.alloc_failures = alloc_failures_;
  return st;
}

void slab_model::inspect(const inspect_request& req, inspect_result& out, stream_view) {
  std::lock_guard lock(mutex_);
  inspect_image(img_, req, out);
}

std::uint64_t slab_model::retrieve_pairs(std::span<key_type> keys, std::span<value_type> values,
                                         stream_view) {
  detail::check_bulk("retrieve_all", keys.size(), values.size(), 0);
  std::lock_guard lock(mutex_);
  std::uint64_t n = 0;
  for (std::uint32_t b = 0; b < img_.buckets; ++b)
    walk_chain(img_, b, [&](const std::uint32_t* w, std::uint32_t, std::uint64_t) {
      for (int p = 0; p < k_slab_pairs; ++p)
        if (is_live_key(w[2 * p])) {
          if (n < keys.size()) keys[n] = w[2 * p], values[n] = w[2 * p + 1];
          ++n;
        }
      return true;
    });
  return n;
}

void slab_model::rehash(std::uint64_t capacity, stream_view s) {
  table_config next = config();
  next.slab.buckets = 0;
  next.capacity = capacity ? capacity : next.capacity;
  const std::uint64_t buckets = resolve_buckets(next);
  const std::uint64_t live = stats(s).live;
  std::vector<key_type> keys(live);
  std::vector<value_type> values(live);
  retrieve_all(keys, values, s);
  std::lock_guard lock(mutex_);
  slab_image old = img_;
  const table_config old_cfg = cfg_;
  reset_storage(buckets);
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (insert_one(keys[i], values[i]) == op_status::failed_full) {  // keep the table as it was
      img_ = std::move(old);
      cfg_ = old_cfg;
      next_fit_ = 0;
      throw user_error("rehash: SlabAlloc's pool limit cannot hold the live keys in " +
                       std::to_string(buckets) + " buckets; the table is unchanged");
    }
}

slab_image slab_model::snapshot(stream_view) {
  std::lock_guard lock(mutex_);
  return img_;
}

void slab_model::load(slab_image img) {
  std::lock_guard lock(mutex_);
  if (img.buckets != img_.buckets) throw user_error("load: the image has a different bucket count");
  shape_.blocks_per_super = img.blocks_per_super;
  shape_.max_super_blocks = std::max<std::uint32_t>(shape_.max_super_blocks,
                                                    static_cast<std::uint32_t>(img.slabs.size()));
  img_ = std::move(img);
}

}  // namespace hs::slab
