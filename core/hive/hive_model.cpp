#include "core/hive/hive_model.hpp"

#include "core/hive/hive_image_inspect.hpp"

#include <algorithm>

#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/model_batches.hpp"

namespace hs::hive {

namespace {
int lowest(std::uint32_t m) { return m ? __builtin_ctz(m) : -1; }
}  // namespace

hive_model::hive_model(const table_config& cfg) : cfg_(cfg), shape_(resolve_shape(cfg)) {
  if (cfg_.capacity == 0) cfg_.capacity = default_capacity(cfg_.backend);
  img_.slots = shape_.slots;
  img_.hashes = shape_.hashes;
  img_.geo = {shape_.buckets, 0};
  img_.stash.assign(shape_.stash_capacity, k_empty_word);
  ensure_storage(shape_.buckets);
}

void hive_model::ensure_storage(std::uint64_t buckets) {
  if (img_.masks.size() >= buckets) return;
  img_.words.resize(buckets * img_.slots, k_empty_word);
  img_.masks.resize(buckets, all_free(img_.slots));
  img_.locks.resize(buckets, 0);
}

table_config hive_model::config() const {
  std::lock_guard lock(mutex_);
  table_config c = cfg_;
  c.capacity = img_.geo.buckets() * img_.slots;
  return c;
}

long long hive_model::stash_find(key_type k, const candidates& c) const {
  if (stash_hint(img_.locks[c.b[0]]) == 0) return -1;
  for (std::uint64_t i = 0; i < img_.stash_used; ++i)
    if (img_.stash[i] != k_empty_word && key_of(img_.stash[i]) == k)
      return static_cast<long long>(i);
  return -1;
}

op_status hive_model::find_one(key_type k, value_type& out) const {
  out = k_empty;
  if (is_reserved_key(k)) return op_status::rejected_key;
  const candidates c = img_.candidates_of(k);
  for (int i = 0; i < c.count; ++i) {
    const word_type* b = img_.bucket(c.b[i]);
    for (int s = 0; s < img_.slots; ++s)
      if (b[s] != k_empty_word && key_of(b[s]) == k) {
        out = value_of(b[s]);
        return op_status::found;
      }
  }
  const long long at = stash_find(k, c);
  if (at >= 0) {
    out = value_of(img_.stash[at]);
    return op_status::found;
  }
  return op_status::missing;
}

op_status hive_model::erase_one(key_type k) {
  if (is_reserved_key(k)) return op_status::rejected_key;
  const candidates c = img_.candidates_of(k);
  for (int i = 0; i < c.count; ++i) {
    word_type* b = img_.bucket(c.b[i]);
    for (int s = 0; s < img_.slots; ++s)
      if (b[s] != k_empty_word && key_of(b[s]) == k) {
        b[s] = k_empty_word;
        img_.masks[c.b[i]] |= 1u << s;
        return op_status::erased;
      }
  }
  const long long at = stash_find(k, c);
  if (at >= 0) {
    img_.stash[at] = k_empty_word;
    img_.locks[c.b[0]] -= k_stash_hint_unit;
    return op_status::erased;
  }
  return op_status::missing;
}

// Step 3 without concurrency: the same walk as the kernels (find_path), then the moves.
bool hive_model::evict_for(key_type k, value_type v, const candidates& c, int attempt) {
  const int S = img_.slots;
  std::uint64_t cur = c.b[victim_mix(k, seed_, attempt, 63) % c.count];
  path_record rec;
  std::uint8_t slot_of[k_max_eviction_depth];
  std::uint64_t dest = 0;
  bool found = false;
  for (int d = 0; d < cfg_.hive.eviction_depth; ++d) {
    // As the kernels' find_path: a victim not yet on the path, from a pseudo-random slot on.
    const int first = static_cast<int>(victim_mix(k, seed_, attempt, d) % S);
    int slot = -1;
    word_type w = k_empty_word;
    std::uint64_t alt = k_no_bucket;
    for (int tries = 0; tries < S && alt == k_no_bucket; ++tries) {
      slot = (first + tries) % S;
      bool on_path = false;
      for (int e = 0; e < d; ++e) on_path |= rec.bucket[e] == cur && slot_of[e] == slot;
      if (on_path) continue;
      w = img_.bucket(cur)[slot];
      if (w == k_empty_word) return false;
      alt = alternate_of(img_.candidates_of(key_of(w)), cur);
    }
    if (alt == k_no_bucket) return false;
    rec.bucket[d] = cur;
    rec.moved[d] = key_of(w);
    slot_of[d] = static_cast<std::uint8_t>(slot);
    rec.length = d + 1;
    if (img_.masks[alt] & all_free(S)) {
      dest = alt;
      found = true;
      break;
    }
    cur = alt;
  }
  if (!found) return false;
  int free_slot = lowest(img_.masks[dest] & all_free(S));
  img_.masks[dest] &= ~(1u << free_slot);
  std::uint64_t ahead_bucket = dest;
  int ahead_slot = free_slot;
  for (int d = static_cast<int>(rec.length) - 1; d >= 0; --d) {
    word_type& from = img_.bucket(rec.bucket[d])[slot_of[d]];
    if (img_.candidates_of(key_of(from)).b[0] == rec.bucket[d])
      img_.locks[rec.bucket[d]] |= k_away_bit;  // leaves its first candidate
    img_.bucket(ahead_bucket)[ahead_slot] = from;
    from = k_empty_word;
    ahead_bucket = rec.bucket[d];
    ahead_slot = slot_of[d];
    if (!moving_inside_) ++moves_;
  }
  if (ahead_bucket != c.b[0]) img_.locks[c.b[0]] |= k_away_bit;
  img_.bucket(ahead_bucket)[ahead_slot] = pack(k, v);
  if (cfg_.hive.instrument && !moving_inside_) {
    ++path_lengths_[rec.length];
    rec.newcomer = k;
    rec.dest = dest;
    if (paths_.size() < k_path_ring)
      paths_.push_back(rec);
    else
      paths_[path_head_ % k_path_ring] = rec;
    ++path_head_;
  }
  return true;
}

op_status hive_model::insert_unlocked(key_type k, value_type v, bool count_steps) {
  if (is_reserved_key(k)) return op_status::rejected_key;
  if (is_reserved_value(v)) return op_status::rejected_value;
  const candidates c = img_.candidates_of(k);
  const auto done = [&](insert_step s, op_status st) {
    if (count_steps && cfg_.hive.instrument) ++steps_[static_cast<int>(s) - 1];
    return st;
  };
  // Step 1: replace.
  for (int i = 0; i < c.count; ++i) {
    word_type* b = img_.bucket(c.b[i]);
    for (int s = 0; s < img_.slots; ++s)
      if (b[s] != k_empty_word && key_of(b[s]) == k) {
        b[s] = pack(k, v);
        return done(insert_step::replace, op_status::replaced);
      }
  }
  if (const long long at = stash_find(k, c); at >= 0) {
    img_.stash[at] = pack(k, v);
    return done(insert_step::replace, op_status::replaced);
  }
  // Step 2: claim in the first candidate while it has room enough, else in the one with the most
  // free slots (the first on ties), as the kernels do.
  int free_slots[k_max_hashes] = {};
  for (int i = 0; i < c.count; ++i)
    free_slots[i] = __builtin_popcount(img_.masks[c.b[i]] & all_free(img_.slots));
  const int best = placement_of(free_slots, c.count, img_.slots);
  if (best >= 0) {
    const std::uint64_t b = c.b[best];
    const int s = lowest(img_.masks[b] & all_free(img_.slots));
    img_.masks[b] &= ~(1u << s);
    if (b != c.b[0]) img_.locks[c.b[0]] |= k_away_bit;
    img_.bucket(b)[s] = pack(k, v);
    return done(insert_step::claim, op_status::inserted);
  }
  // Step 3: bounded eviction, a few walks.
  for (int attempt = 0; cfg_.hive.eviction_depth > 0 && attempt < 8; ++attempt) {
    if (evict_for(k, v, c, attempt)) return done(insert_step::evict, op_status::inserted);
    if (!moving_inside_) ++restarts_;
  }
  // Step 4: the stash, or refused.
  if (img_.stash_used < img_.stash.size()) {
    img_.stash[img_.stash_used++] = pack(k, v);
    img_.locks[c.b[0]] += k_stash_hint_unit;
    return done(insert_step::stash, op_status::inserted);
  }
  ++failed_full_;
  return op_status::failed_full;
}

op_status hive_model::insert_one(key_type k, value_type v) {
  std::lock_guard lock(mutex_);
  return insert_unlocked(k, v, true);
}

// The GPU table's automatic resizing (hive_table.cu), decision for decision: it counts live keys
// only when an upper bound (the last count plus every operation since) could pass the growth
// threshold, or when the erases since the last count reach 1/16 of the slots; the counts
// themselves are exact here as there.
std::uint64_t hive_model::count_live() {
  live_bound_ = img_.live_in_buckets() + img_.live_in_stash();
  erases_since_ = 0;
  return live_bound_;
}

void hive_model::grow_for(std::uint64_t ops) {
  if (!cfg_.hive.auto_resize) return;
  const auto cap = [&] { return double(img_.geo.buckets() * img_.slots); };
  if (double(live_bound_ + ops) <= cfg_.hive.grow_above * cap()) return;
  const std::uint64_t live = count_live();
  while (double(live + ops) > cfg_.hive.grow_above * cap())
    if (!expand_unlocked(shape_.resize_batch(img_.geo.round))) break;
  live_bound_ = live;
}

void hive_model::shrink_after(std::uint64_t ops) {
  if (!cfg_.hive.auto_resize || cfg_.hive.shrink_below <= 0) return;
  erases_since_ += ops;
  const auto cap = [&] { return double(img_.geo.buckets() * img_.slots); };
  if (img_.geo.buckets() <= shape_.buckets || double(erases_since_) < cap() / 16) return;
  const std::uint64_t live = count_live();
  while (double(live) < cfg_.hive.shrink_below * cap() && img_.geo.buckets() > shape_.buckets)
    if (!contract_unlocked(
            std::min(shape_.resize_batch(img_.geo.round), img_.geo.buckets() - shape_.buckets)))
      break;
}

void hive_model::insert_batch(std::span<const key_type> keys, std::span<const value_type> values,
                              std::span<op_status> status, stream_view) {
  detail::check_bulk("insert", keys.size(), values.size(), status.size());
  {
    std::lock_guard lock(mutex_);
    ++seed_;
    grow_for(keys.size());
    live_bound_ += keys.size();
  }
  run_model_ops(mutex_, keys.size(), rejected_, {status, {}}, all_of_kind(op_kind::insert),
                [&](std::size_t i, op_kind, value_type&) {
                  return insert_unlocked(keys[i], values[i], true);
                });
}

void hive_model::find_batch(std::span<const key_type> keys, std::span<value_type> values_out,
                            std::span<op_status> status, stream_view) {
  detail::check_bulk("find", keys.size(), values_out.size(), status.size());
  run_model_ops(mutex_, keys.size(), rejected_, {status, values_out}, all_of_kind(op_kind::find),
                [&](std::size_t i, op_kind, value_type& out) { return find_one(keys[i], out); });
}

void hive_model::erase_batch(std::span<const key_type> keys, std::span<op_status> status,
                             stream_view) {
  detail::check_bulk("erase", keys.size(), keys.size(), status.size());
  run_model_ops(mutex_, keys.size(), rejected_, {status, {}}, all_of_kind(op_kind::erase),
                [&](std::size_t i, op_kind, value_type&) { return erase_one(keys[i]); });
  {
    std::lock_guard lock(mutex_);
    shrink_after(keys.size());
  }
}

void hive_model::apply_batch(const op_batch& ops, std::span<value_type> results,
                             std::span<op_status> status, stream_view) {
  detail::check_apply(ops, results.size(), status.size());
  {
    std::lock_guard lock(mutex_);
    ++seed_;
    // As the GPU table, which cannot read the kinds: every operation may insert.
    grow_for(ops.keys.size());
    live_bound_ += ops.keys.size();
  }
  run_model_ops(
      mutex_, ops.keys.size(), rejected_, {status, results},
      [&](std::size_t i) { return ops.kinds[i]; },
      [&](std::size_t i, op_kind kind, value_type& out) {
        switch (kind) {
          case op_kind::insert: return insert_unlocked(ops.keys[i], ops.values[i], true);
          case op_kind::find: return find_one(ops.keys[i], out);
          default: return erase_one(ops.keys[i]);
        }
      });
  {
    std::lock_guard lock(mutex_);
    shrink_after(ops.keys.size());
  }
}

void hive_model::clear(stream_view) {
  std::lock_guard lock(mutex_);
  std::fill(img_.words.begin(), img_.words.end(), k_empty_word);
  std::fill(img_.masks.begin(), img_.masks.end(), all_free(img_.slots));
  std::fill(img_.locks.begin(), img_.locks.end(), 0u);
  std::fill(img_.stash.begin(), img_.stash.end(), k_empty_word);
  img_.stash_used = 0;
  rejected_.clear();
  failed_full_ = moves_ = restarts_ = 0;
  std::fill(std::begin(steps_), std::end(steps_), 0);
  std::fill(std::begin(path_lengths_), std::end(path_lengths_), 0);
  paths_.clear();
  path_head_ = 0;
  live_bound_ = erases_since_ = 0;
}

table_stats hive_model::stats(stream_view) {
  std::lock_guard lock(mutex_);
  table_stats st;
  st.capacity = img_.geo.buckets() * img_.slots;
  st.live = img_.live_in_buckets() + img_.live_in_stash();
  st.occupied = st.live;
  st.bytes = img_.words.size() * sizeof(word_type) + (img_.masks.size() + img_.locks.size()) * 4 +
             img_.stash.size() * sizeof(word_type);
  rejected_.copy_to(st.rejected);
  st.failed_full = failed_full_;
  hive_counters& h = st.hive;
  h.slots_per_bucket = static_cast<std::uint32_t>(img_.slots);
  h.buckets = img_.geo.buckets();
  h.round = img_.geo.round;
  h.split = img_.geo.split;
  h.stash_capacity = img_.stash.size();
  h.stash_used = img_.stash_used;
  h.stash_live = img_.live_in_stash();
  h.instrumented = cfg_.hive.instrument;
  std::copy(std::begin(steps_), std::end(steps_), h.steps);
  h.moves = moves_;
  h.locks = moves_;  // the model takes one lock per move, as the kernels do
  h.restarts = restarts_;
  std::copy(std::begin(path_lengths_), std::end(path_lengths_), h.path_lengths);
  h.splits = splits_;
  h.merges = merges_;
  h.merges_refused = merges_refused_;
  return st;
}

void hive_model::inspect(const inspect_request& req, inspect_result& out, stream_view s) {
  {
    std::lock_guard lock(mutex_);
    out = {};
    inspect_image(img_, req, out);
  }
  if (req.hive.paths) out.hive.paths = recent_paths(s);  // takes the lock itself
}

std::uint64_t hive_model::retrieve_pairs(std::span<key_type> keys, std::span<value_type> values,
                                         stream_view) {
  detail::check_bulk("retrieve_all", keys.size(), values.size(), 0);
  std::lock_guard lock(mutex_);
  std::uint64_t n = 0;
  const auto take = [&](word_type w) {
    if (w == k_empty_word) return;
    if (n < keys.size()) {
      keys[n] = key_of(w);
      values[n] = value_of(w);
    }
    ++n;
  };
  for (std::uint64_t i = 0; i < img_.geo.buckets() * img_.slots; ++i) take(img_.words[i]);
  for (std::uint64_t i = 0; i < img_.stash_used; ++i) take(img_.stash[i]);
  return n;
}

std::vector<word_type> hive_model::drain_stash() {
  std::vector<word_type> out;
  for (std::uint64_t i = 0; i < img_.stash_used; ++i)
    if (img_.stash[i] != k_empty_word) out.push_back(img_.stash[i]);
  std::fill(img_.stash.begin(), img_.stash.end(), k_empty_word);
  img_.stash_used = 0;
  for (auto& l : img_.locks) l &= ~k_hint_bits;
  return out;
}

std::vector<word_type> hive_model::reinsert(const std::vector<word_type>& words) {
  // Keys moved inside the table are not the user's inserts: neither their steps, moves, paths and
  // restarts (the GPU table runs them uninstrumented) nor a refusal count.
  const std::uint64_t failed_before = failed_full_;
  moving_inside_ = true;
  std::vector<word_type> failed;
  for (word_type w : words)
    if (insert_unlocked(key_of(w), value_of(w), false) == op_status::failed_full)
      failed.push_back(w);
  moving_inside_ = false;
  failed_full_ = failed_before;
  return failed;
}

// The kernels' split (hive_resize.cu), one bucket at a time.
void hive_model::split_step(std::uint64_t count) {
  const int S = img_.slots;
  ensure_storage(2 * img_.geo.round);
  for (std::uint64_t w = 0; w < count; ++w) {
    const std::uint64_t b = img_.geo.split, p = b + img_.geo.round;
    const geometry before = img_.geo, after{img_.geo.round, b + 1};
    int moved = 0;
    std::fill(img_.bucket(p), img_.bucket(p) + S, k_empty_word);
    for (int s = 0; s < S; ++s) {
      const word_type word = img_.bucket(b)[s];
      if (word == k_empty_word) continue;
      std::uint32_t h = hash_with(img_.hashes.fns[0], key_of(word));
      for (int i = 0; i < img_.hashes.count; ++i) {
        const std::uint32_t hi = hash_with(img_.hashes.fns[i], key_of(word));
        if (before.address(hi) == b) {
          h = hi;
          break;
        }
      }
      if (after.address(h) != p) continue;
      img_.bucket(p)[moved++] = word;
      img_.bucket(b)[s] = k_empty_word;
      img_.masks[b] |= 1u << s;
    }
    img_.masks[p] = all_free(S) & ~(moved == 32 ? 0xffffffffu : (1u << moved) - 1u);
    img_.locks[p] = img_.locks[b] & k_away_bit;  // keys whose first candidate was b may now have p
    img_.geo.split = b + 1;
    ++splits_;
  }
}

void hive_model::merge_step(std::uint64_t count, std::vector<word_type>& overflow) {
  const int S = img_.slots;
  for (std::uint64_t w = 0; w < count; ++w) {
    const std::uint64_t b = img_.geo.split - 1, p = b + img_.geo.round;
    for (int s = 0; s < S; ++s) {
      const word_type word = img_.bucket(p)[s];
      if (word == k_empty_word) continue;
      if (!(img_.masks[b] & all_free(S))) {  // b is full: the entry goes in again after the merge
        overflow.push_back(word);
        img_.bucket(p)[s] = k_empty_word;
        continue;
      }
      const int to = lowest(img_.masks[b] & all_free(S));
      img_.bucket(b)[to] = word;
      img_.masks[b] &= ~(1u << to);
      img_.bucket(p)[s] = k_empty_word;
    }
    img_.masks[p] = all_free(S);
    img_.locks[b] |= img_.locks[p] & k_away_bit;  // keys whose first candidate was p now have b
    img_.geo.split = b;
    ++merges_;
  }
}

std::uint64_t hive_model::expand_unlocked(std::uint64_t buckets) {
  const auto stashed = drain_stash();
  std::uint64_t done = 0;
  while (done < buckets) {
    if (img_.geo.split == img_.geo.round) img_.geo = {2 * img_.geo.round, 0};
    if (2 * img_.geo.round * img_.slots > max_capacity())
      break;  // the round's partners would not fit
    const std::uint64_t step = std::min(
        {buckets - done, shape_.resize_batch(img_.geo.round), img_.geo.round - img_.geo.split});
    split_step(step);
    done += step;
  }
  if (img_.geo.split == img_.geo.round) img_.geo = {2 * img_.geo.round, 0};
  // The stash keeps its share of the slots as the table grows (it is empty here: drained above).
  const std::uint64_t want = stash_capacity_for(cfg_.hive, img_.geo.buckets() * img_.slots);
  if (want > img_.stash.size()) img_.stash.assign(want, k_empty_word);
  // Into a larger table: room for them, but should it refuse any, it grows on until all are in.
  for (auto failed = reinsert(stashed); !failed.empty(); failed = reinsert(failed)) {
    const std::uint64_t more = expand_unlocked(shape_.resize_batch(img_.geo.round));
    if (!more)
      throw user_error(std::to_string(failed.size()) +
                       " keys found no room in a hive table at its largest size");
    done += more;
  }
  return done;
}

std::uint64_t hive_model::contract_unlocked(std::uint64_t buckets) {
  // As many merges as keep the keys within k_contract_fill of the smaller table (the GPU table
  // decides the same way); every pair of a step merges, what does not fit goes in again.
  const std::uint64_t allowed =
      mergeable_buckets(count_live(), img_.geo.buckets(), img_.slots, buckets);
  auto moved = drain_stash();
  std::uint64_t done = 0;
  while (done < allowed) {
    if (img_.geo.split == 0) {
      if (img_.geo.round == 1) break;
      img_.geo = {img_.geo.round / 2, img_.geo.round / 2};
    }
    const std::uint64_t step =
        std::min({allowed - done, shape_.resize_batch(img_.geo.round), img_.geo.split});
    merge_step(step, moved);
    done += step;
  }
  // Should the smaller table refuse some (their candidates, the paths and the stash full), it
  // grows back a step at a time until every key is in: none is lost.
  for (auto failed = reinsert(moved); !failed.empty(); failed = reinsert(failed)) {
    const std::uint64_t back = expand_unlocked(shape_.resize_batch(img_.geo.round));
    if (!back)
      throw user_error(std::to_string(failed.size()) +
                       " keys found no room in a hive table at its largest size");
    done -= std::min(done, back);
  }
  merges_refused_ += buckets - done;
  return done;
}

std::uint64_t hive_model::expand(std::uint64_t buckets, stream_view) {
  std::lock_guard lock(mutex_);
  const std::uint64_t n = expand_unlocked(buckets);
  count_live();  // as the GPU table does after a resize asked for
  return n;
}

std::uint64_t hive_model::contract(std::uint64_t buckets, stream_view) {
  std::lock_guard lock(mutex_);
  const std::uint64_t n = contract_unlocked(buckets);
  count_live();
  return n;
}

void hive_model::rehash(std::uint64_t capacity, stream_view s) {
  rehash_by_resizing(*this, shape_.slots, capacity, s);
}

void hive_model::set_instrumentation(bool on) {
  std::lock_guard lock(mutex_);
  cfg_.hive.instrument = on;
}

void hive_model::copy_step_counters(std::uint64_t* out, stream_view) {
  std::lock_guard lock(mutex_);
  std::copy(std::begin(steps_), std::end(steps_), out);
  out[4] = moves_;
}

std::vector<path_record> hive_model::recent_paths(stream_view) {
  std::lock_guard lock(mutex_);
  std::vector<path_record> out;
  const std::uint64_t n = std::min<std::uint64_t>(path_head_, k_path_ring);
  for (std::uint64_t i = path_head_ - n; i < path_head_; ++i)
    out.push_back(paths_[i % k_path_ring]);
  return out;
}

hive_image hive_model::snapshot(stream_view) {
  std::lock_guard lock(mutex_);
  return img_;
}

}  // namespace hs::hive
