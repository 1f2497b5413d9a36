#include "core/hive/hive_table.hpp"

#include "core/hive/hive_image_inspect.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <mutex>

#include "core/common/cuda_check.hpp"
#include "core/common/device.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/device_checks.hpp"

namespace hs::hive {

namespace {
constexpr int k_meta =
    6;  // [0] stash tail, [1] stash live, [2] path head, [3..5] census/retrieve scratch
std::uint64_t bytes_for(std::uint64_t buckets, int slots) {
  return buckets * (slots * sizeof(word_type) + 8);
}
}  // namespace

hive_table::hive_table(const table_config& cfg) : cfg_(cfg), shape_(resolve_shape(cfg)) {
  std::string why;
  if (!query_gpu(&why)) throw user_error("GPU hive table: " + why);
  if (cfg_.capacity == 0) cfg_.capacity = default_capacity(cfg_.backend);
  instrument_ = cfg.hive.instrument;
  geo_ = {shape_.buckets, 0};
  const std::uint64_t free_b = device_memory_now().free_bytes;
  const std::uint64_t bytes =
      bytes_for(shape_.buckets, shape_.slots) + std::uint64_t{shape_.stash_capacity} * 8;
  if (bytes > free_b)
    throw user_error("a hive table of " + format_count(cfg_.capacity) + " slots needs " +
                     format_bytes(bytes) + " but the GPU has " + format_bytes(free_b) +
                     " free; choose a smaller capacity");
  allocate(shape_.buckets);
  stash_ = buffer<word_type>(memory_space::device, shape_.stash_capacity);
  meta_ = buffer<unsigned long long>(memory_space::device, k_meta);
  counters_ = buffer<unsigned long long>(memory_space::device, c_count);
  tallies_ = buffer<unsigned long long>(memory_space::device, k_tally_shards * k_tally_stride);
  paths_ = buffer<path_record>(memory_space::device, k_path_ring);
  // A path writes only the steps it took: zeroed here, the ring copied out is defined throughout.
  fill_bytes(paths_.data(), memory_space::device, 0, k_path_ring * sizeof(path_record), {});
  overflowed_ = buffer<unsigned long long>(memory_space::device, 1);
  clear({});
  // The fills ran on the legacy stream; callers' streams may be non-blocking: wait for them here.
  HS_CUDA_CHECK(cudaDeviceSynchronize());
}

hive_table::~hive_table() { cudaDeviceSynchronize(); }

void hive_table::allocate(std::uint64_t buckets) {
  words_ = buffer<word_type>(memory_space::device, buckets * shape_.slots);
  bucket_meta_ = buffer<meta_word>(memory_space::device, buckets);
  allocated_ = buckets;
}

table_config hive_table::config() const {
  std::shared_lock lock(table_mutex_);
  table_config c = cfg_;
  c.capacity = geo_.buckets() * shape_.slots;
  c.hive.instrument = instrument_;
  return c;
}

hive_ref hive_table::ref() {
  hive_ref r;
  r.words = words_.data();
  r.bucket_meta = bucket_meta_.data();
  r.slots = shape_.slots;
  r.tile = shape_.tile;
  r.geo = geo_;
  r.hashes = shape_.hashes;
  r.depth = cfg_.hive.eviction_depth;
  r.stash = stash_.data();
  r.stash_capacity = shape_.stash_capacity;
  r.stash_tail = meta_.data();
  r.stash_live = meta_.data() + 1;
  r.path_head = meta_.data() + 2;
  r.counters = counters_.data();
  r.tallies = tallies_.data();
  r.paths = paths_.data();
  r.instrument = instrument_;
  r.seed = seed_.fetch_add(0x9e3779b9u);
  return r;
}

void hive_table::launch(const batch_io& io, stream_view s) {
  if (io.op != batch_op::find) {
    order_.write(s, [&] { launch_batch(ref(), io, s); });
    return;
  }
  order_.read(s, [&](bool quiet) {
    batch_io read = io;
    read.quiet = quiet;
    launch_batch(ref(), read, s);
  });
}

void hive_table::insert_batch(std::span<const key_type> keys, std::span<const value_type> values,
                              std::span<op_status> status, stream_view s) {
  detail::check_device_insert(keys, values, status);

  grow_for(keys.size(), s);
  std::uint64_t first = 0;  // keys the bulk rounds took; the rest go key by key
  if (status.empty()) {
    std::unique_lock alone(table_mutex_);
    const std::uint64_t bulk_n = bulk_share(keys.size());
    if (bulk_n && use_bulk(bulk_n, false)) {
      // The bulk rounds write buckets with plain stores: batches queued on other streams finish
      // first, and none starts before they are done (bulk_insert synchronizes s before its last
      // kernels, which are the per-key ones, safe beside anything).
      HS_CUDA_CHECK(cudaDeviceSynchronize());
      live_bound_ += bulk_n;
      // Its last kernels are per-key inserts on s: a write that quiet reads must not overlap.
      order_.write(s, [&] {
        bulk_rest_ += bulk_insert(ref(), keys.data(), values.data(), bulk_n, bulk_, s);
      });
      bulk_rest_ += keys.size() - bulk_n;  // the part past k_bulk_load, below
      ++bulk_batches_;
      first = bulk_n;
    }
  }
  if (first == keys.size()) return;
  std::shared_lock lock(table_mutex_);
  // A status asked for takes no bulk rounds (use_bulk): then first is 0 and status whole.
  live_bound_ += keys.size() - first;
  launch({batch_operands::insert(keys.subspan(first), values.subspan(first), status),
          batch_op::insert},
         s);
}

std::uint64_t hive_table::bulk_share(std::uint64_t n) const {
  // Automatic: the rounds take the batch up to load k_bulk_load, the per-key kernels the rest.
  // Measured on the H200 (bench hive --bulk on|off, one batch from empty): the rounds win to 0.9
  // and lose past it, where the keys cost more in the rounds than key by key (figures in
  // core/hive/README.md). On: the whole batch, as asked.
  if (cfg_.hive.bulk != auto_on_off::automatic) return n;
  const auto room = static_cast<std::uint64_t>(k_bulk_load * double(geo_.buckets() * shape_.slots));
  return live_bound_ >= room ? 0 : std::min(n, room - live_bound_);
}

bool hive_table::use_bulk(std::uint64_t n, bool statuses) {
  // Batches of an eighth of the table or more, in tables of 2^24 slots or more: there the
  // rounds' passes over the batch cost less than writing each bucket once saves; a table the L2
  // holds (2^22) fills faster key by key. The figures: core/hive/README.md, `bench hive --bulk`.
  const std::uint64_t slots = geo_.buckets() * shape_.slots;
  if (statuses || cfg_.hive.bulk == auto_on_off::off || !bulk_possible(ref(), n)) return false;
  if (cfg_.hive.bulk == auto_on_off::automatic &&
      (n * 8 < slots || slots < (std::uint64_t{1} << 24)))
    return false;
  return bulk_.reserve(ref(), n);  // no room for scratch: the per-key path, only slower
}

void hive_table::find_batch(std::span<const key_type> keys, std::span<value_type> values_out,
                            std::span<op_status> status, stream_view s) {
  detail::check_device_find(keys, values_out, status);

  std::shared_lock lock(table_mutex_);
  launch({batch_operands::find(keys, values_out, status), batch_op::find}, s);
}

void hive_table::erase_batch(std::span<const key_type> keys, std::span<op_status> status,
                             stream_view s) {
  detail::check_device_erase(keys, status);

  {
    std::shared_lock lock(table_mutex_);
    launch({batch_operands::erase(keys, status), batch_op::erase}, s);
  }
  shrink_after(keys.size(), s);
}

void hive_table::apply_batch(const op_batch& ops, std::span<value_type> results,
                             std::span<op_status> status, stream_view s) {
  detail::check_device_apply(ops, results, status);

  // The host cannot tell inserts from erases without reading the kinds: bound both by n.
  grow_for(ops.keys.size(), s);
  {
    std::shared_lock lock(table_mutex_);
    live_bound_ += ops.keys.size();
    launch({batch_operands::apply(ops, results, status), batch_op::mixed}, s);
  }
  shrink_after(ops.keys.size(), s);
}

std::uint64_t hive_table::live_now(stream_view s) {
  const auto c = census(s);
  const std::uint64_t live = c[0] + c[1];
  live_bound_ = live;
  erases_since_ = 0;
  return live;
}

void hive_table::grow_for(std::uint64_t inserts, stream_view s) {
  if (!cfg_.hive.auto_resize) return;
  const double grow = cfg_.hive.grow_above;
  {
    std::shared_lock lock(table_mutex_);
    if (double(live_bound_ + inserts) <= grow * double(geo_.buckets() * shape_.slots)) return;
  }
  std::unique_lock lock(table_mutex_);
  HS_CUDA_CHECK(cudaDeviceSynchronize());  // batches queued on other streams finish first
  std::uint64_t live = live_now(s);
  while (double(live + inserts) > grow * double(geo_.buckets() * shape_.slots))
    if (!expand_locked(shape_.resize_batch(geo_.round), s)) break;
  live_bound_ = live;
}

void hive_table::shrink_after(std::uint64_t erases, stream_view s) {
  if (!cfg_.hive.auto_resize || cfg_.hive.shrink_below <= 0) return;
  erases_since_ += erases;
  {
    std::shared_lock lock(table_mutex_);
    // Only look (a census synchronizes) once erases could have taken the load below the threshold.
    const double cap = double(geo_.buckets() * shape_.slots);
    if (geo_.buckets() <= shape_.buckets || double(erases_since_) < cap / 16) return;
  }
  std::unique_lock lock(table_mutex_);
  HS_CUDA_CHECK(cudaDeviceSynchronize());  // batches queued on other streams finish first
  const std::uint64_t live = live_now(s);
  while (double(live) < cfg_.hive.shrink_below * double(geo_.buckets() * shape_.slots) &&
         geo_.buckets() > shape_.buckets)
    if (!contract_locked(std::min(shape_.resize_batch(geo_.round), geo_.buckets() - shape_.buckets),
                         s))
      break;
}

void hive_table::clear(stream_view s) {
  std::unique_lock lock(table_mutex_);
  HS_CUDA_CHECK(cudaDeviceSynchronize());  // batches queued on other streams finish first
  launch_reset_buckets(ref(), 0, allocated_, s);
  fill_bytes(stash_.data(), memory_space::device, 0xff, stash_.size() * sizeof(word_type), s);
  fill_bytes(meta_.data(), memory_space::device, 0, k_meta * sizeof(unsigned long long), s);
  fill_bytes(counters_.data(), memory_space::device, 0, c_count * sizeof(unsigned long long), s);
  fill_bytes(tallies_.data(), memory_space::device, 0, tallies_.size() * sizeof(unsigned long long),
             s);
  live_bound_ = 0;
  erases_since_ = 0;
}

table_stats hive_table::stats(stream_view s) {
  std::shared_lock lock(table_mutex_);
  const auto census = this->census(s);
  const auto meta = meta_.download(k_meta, s);
  launch_fold_tallies(ref(), s);
  const auto c = counters_.download(c_count, s);
  table_stats st;
  st.capacity = geo_.buckets() * shape_.slots;
  st.live = census[0] + census[1];
  st.occupied = st.live;
  st.bytes =
      allocated_ * (shape_.slots * sizeof(word_type) + 8) + stash_.size() * sizeof(word_type);
  for (int k = 0; k < k_op_kind_count; ++k)
    st.rejected[k] = c[rejected_counter(static_cast<op_kind>(k))];
  st.failed_full = c[c_pending];
  hive_counters& h = st.hive;
  h.slots_per_bucket = static_cast<std::uint32_t>(shape_.slots);
  h.buckets = geo_.buckets();
  h.round = geo_.round;
  h.split = geo_.split;
  h.stash_capacity = shape_.stash_capacity;
  h.stash_used = std::min<std::uint64_t>(meta[0], shape_.stash_capacity);
  h.stash_live = census[1];
  h.instrumented = instrument_;
  for (int i = 0; i < 4; ++i) h.steps[i] = c[c_step1 + i];
  h.moves = c[c_moves];
  h.locks = c[c_locks];
  h.restarts = c[c_restarts];
  for (int i = 0; i <= k_max_eviction_depth; ++i) h.path_lengths[i] = c[c_path_len0 + i];
  h.splits = splits_;
  h.merges = merges_;
  h.merges_refused = merges_refused_;
  h.bulk_batches = bulk_batches_;
  h.bulk_rest = bulk_rest_;
  return st;
}

std::array<std::uint64_t, 2> hive_table::census(stream_view s) {
  std::lock_guard lock(scratch_mutex_);
  fill_bytes(meta_.data() + 3, memory_space::device, 0, 2 * sizeof(unsigned long long), s);
  launch_census(ref(), meta_.data() + 3, s);
  std::array<unsigned long long, 2> out{};
  copy_bytes(out.data(), memory_space::host, meta_.data() + 3, memory_space::device, sizeof(out),
             s);
  synchronize(s);
  return {out[0], out[1]};
}

std::uint64_t hive_table::retrieve_pairs(std::span<key_type> keys, std::span<value_type> values,
                                         stream_view s) {
  detail::check_bulk("retrieve_all", keys.size(), values.size(), 0);
  require_device("retrieve_all", keys);
  require_device("retrieve_all", values);
  std::shared_lock lock(table_mutex_);
  std::lock_guard scratch(scratch_mutex_);
  launch_retrieve(ref(), keys.data(), values.data(), keys.size(), meta_.data() + 3, s);
  unsigned long long n = 0;
  copy_bytes(&n, memory_space::host, meta_.data() + 3, memory_space::device, sizeof(n), s);
  synchronize(s);
  return n;
}

hive_table::old_arrays hive_table::reserve_round(std::uint64_t from, std::uint64_t to,
                                                 stream_view s) {
  const std::uint64_t need = 2 * geo_.round;
  if (allocated_ >= need) return {};
  const std::uint64_t free_b = device_memory_now().free_bytes;
  if (bytes_for(need, shape_.slots) > free_b)
    throw user_error("the hive table cannot grow to " + format_count(need * shape_.slots) +
                     " slots: it needs " + format_bytes(bytes_for(need, shape_.slots)) +
                     " and the GPU has " + format_bytes(free_b) + " free");
  buffer<word_type> words(memory_space::device, need * shape_.slots);
  buffer<meta_word> bucket_meta(memory_space::device, need);
  const std::uint64_t used = geo_.buckets();
  const auto copy = [&](std::uint64_t lo, std::uint64_t hi) {
    if (hi <= lo) return;
    copy_bytes(words.data() + lo * shape_.slots, memory_space::device,
               words_.data() + lo * shape_.slots, memory_space::device,
               (hi - lo) * shape_.slots * sizeof(word_type), s);
    copy_bytes(bucket_meta.data() + lo, memory_space::device, bucket_meta_.data() + lo,
               memory_space::device, (hi - lo) * sizeof(meta_word), s);
  };
  copy(0, std::min(from, used));
  copy(std::max(to, from), used);
  old_arrays old{std::move(words_), std::move(bucket_meta_)};
  words_ = std::move(words);
  bucket_meta_ = std::move(bucket_meta);
  allocated_ = need;
  return old;
}

std::vector<word_type> hive_table::drain_stash(stream_view s) {
  const auto meta = meta_.download(k_meta, s);
  const std::uint64_t used = std::min<std::uint64_t>(meta[0], shape_.stash_capacity);
  std::vector<word_type> live;
  if (used) {
    for (word_type w : stash_.download(used, s))
      if (w != k_empty_word) live.push_back(w);
    fill_bytes(stash_.data(), memory_space::device, 0xff, used * sizeof(word_type), s);
  }
  fill_bytes(meta_.data(), memory_space::device, 0, 2 * sizeof(unsigned long long), s);
  if (meta[1]) launch_clear_hints(ref(), s);
  return live;
}

std::vector<word_type> hive_table::reinsert(const std::vector<word_type>& words, stream_view s) {
  if (words.empty()) return {};
  std::vector<key_type> k(words.size());
  std::vector<value_type> v(words.size());
  for (std::size_t i = 0; i < words.size(); ++i) k[i] = key_of(words[i]), v[i] = value_of(words[i]);
  buffer<key_type> dk(memory_space::device, k.size());
  buffer<value_type> dv(memory_space::device, v.size());
  dk.upload(k, s);
  dv.upload(v, s);
  buffer<op_status> status(memory_space::device, k.size());
  const batch_io io{batch_operands::insert(dk.cspan(), dv.cspan(), status.span()),
                    batch_op::insert};
  // Keys moved inside the table are not the user's inserts: neither their steps nor a refusal
  // count (the refusals' counter is put back).
  unsigned long long refused_before = 0;
  copy_bytes(&refused_before, memory_space::host, counters_.data() + c_pending,
             memory_space::device, sizeof(refused_before), s);
  synchronize(s);  // a copy into pageable memory need not have landed when the call returns
  hive_ref r = ref();
  r.instrument = false;
  launch_batch(r, io, s);
  copy_bytes(counters_.data() + c_pending, memory_space::device, &refused_before,
             memory_space::host, sizeof(refused_before), s);
  const auto st = status.download(k.size(), s);
  std::vector<word_type> failed;
  for (std::size_t i = 0; i < st.size(); ++i)
    if (st[i] == op_status::failed_full) failed.push_back(words[i]);
  return failed;
}

std::uint64_t hive_table::expand_locked(std::uint64_t buckets, stream_view s) {
  const auto stashed = drain_stash(s);
  std::uint64_t done = 0;
  old_arrays
      old;  // a new round's old arrays, read by this round's splits (freed when replaced or done)
  while (done < buckets) {
    if (geo_.split == geo_.round) geo_ = {2 * geo_.round, 0}, old = {};
    if (2 * geo_.round * shape_.slots > max_capacity()) break;
    try {
      const std::uint64_t to = geo_.split + std::min(buckets - done, geo_.round - geo_.split);
      if (auto replaced = reserve_round(geo_.split, to, s); replaced.words.data())
        old = std::move(replaced);
    } catch (...) {  // no memory for the next round: keep what was split, and the stashed keys
      reinsert(stashed, s);
      throw;
    }
    const std::uint64_t step =
        std::min({buckets - done, shape_.resize_batch(geo_.round), geo_.round - geo_.split});
    launch_split(ref(), step, old.words.data() ? old.words.data() : words_.data(),
                 old.meta.data() ? old.meta.data() : bucket_meta_.data(), s);
    geo_.split += step;
    splits_ += step;
    done += step;
  }
  old = {};  // the splits that read it are queued (the free waits for them): its memory counts as
             // free again
  if (geo_.split == geo_.round) geo_ = {2 * geo_.round, 0};
  // The stash keeps its share of the slots as the table grows (it is empty here: drained above).
  const std::uint64_t want = stash_capacity_for(cfg_.hive, geo_.buckets() * shape_.slots);
  if (want > shape_.stash_capacity) {
    stash_ = buffer<word_type>(memory_space::device, want);
    fill_bytes(stash_.data(), memory_space::device, 0xff, want * sizeof(word_type), s);
    shape_.stash_capacity = static_cast<std::uint32_t>(want);
  }
  // Into a larger table: room for them, but should it refuse any, it grows on until all are in.
  for (auto failed = reinsert(stashed, s); !failed.empty(); failed = reinsert(failed, s)) {
    const std::uint64_t more = expand_locked(shape_.resize_batch(geo_.round), s);
    if (!more)
      throw gpu_error(std::to_string(failed.size()) +
                      " keys found no room in a hive table at its largest size");
    done += more;
  }
  synchronize(s);
  return done;
}

std::uint64_t hive_table::contract_locked(std::uint64_t buckets, stream_view s) {
  // As many merges as keep the keys within k_contract_fill of the smaller table (the model
  // decides the same way); every pair of a step merges, what does not fit goes in again.
  const std::uint64_t allowed =
      mergeable_buckets(live_now(s), geo_.buckets(), shape_.slots, buckets);
  // Entries that do not fit their merged bucket collect in `overflow_` over up to k_merge_steps
  // steps before the host reads them (a read synchronizes: once a step, it took a third of a
  // contraction). Its memory is taken before any merge, so that a refusal changes nothing.
  constexpr std::uint64_t k_merge_steps = 4;
  const std::uint64_t room =
      std::min(allowed, k_merge_steps * shape_.resize_batch(geo_.round)) * shape_.slots;
  if (overflow_.size() < room) overflow_ = buffer<word_type>(memory_space::device, room);
  auto moved = drain_stash(s);
  std::uint64_t done = 0,
                pending = 0;  // pending: slots of pairs merged since the overflow was read
  const auto read_overflow = [&] {
    const auto n = overflowed_.download(1, s)[0];
    if (n) {
      const auto words = overflow_.download(n, s);
      moved.insert(moved.end(), words.begin(), words.end());
    }
    fill_bytes(overflowed_.data(), memory_space::device, 0, sizeof(unsigned long long), s);
    pending = 0;
  };
  fill_bytes(overflowed_.data(), memory_space::device, 0, sizeof(unsigned long long), s);
  while (done < allowed) {
    if (geo_.split == 0) {
      if (geo_.round == 1) break;
      geo_ = {geo_.round / 2, geo_.round / 2};
    }
    const std::uint64_t step =
        std::min({allowed - done, shape_.resize_batch(geo_.round), geo_.split});
    if (pending + step * shape_.slots > overflow_.size()) read_overflow();
    launch_merge(ref(), step, overflow_.data(), overflowed_.data(), s);
    pending += step * shape_.slots;
    geo_.split -= step;
    merges_ += step;
    done += step;
  }
  read_overflow();
  // Should the smaller table refuse some (their candidates, the paths and the stash full), it
  // grows back a step at a time until every key is in: none is lost.
  for (auto failed = reinsert(moved, s); !failed.empty(); failed = reinsert(failed, s)) {
    const std::uint64_t back = expand_locked(shape_.resize_batch(geo_.round), s);
    if (!back)
      throw gpu_error(std::to_string(failed.size()) +
                      " keys found no room in a hive table at its largest size");
    done -= std::min(done, back);
  }
  merges_refused_ += buckets - done;
  synchronize(s);
  return done;
}

std::uint64_t hive_table::expand(std::uint64_t buckets, stream_view s) {
  std::unique_lock lock(table_mutex_);
  HS_CUDA_CHECK(cudaDeviceSynchronize());  // batches queued on other streams finish first
  // No census after: a split moves entries but keeps their number, so the live bound still holds.
  return expand_locked(buckets, s);
}

std::uint64_t hive_table::contract(std::uint64_t buckets, stream_view s) {
  std::unique_lock lock(table_mutex_);
  HS_CUDA_CHECK(cudaDeviceSynchronize());  // batches queued on other streams finish first
  return contract_locked(buckets, s);      // merges keep the number of entries, as splits do
}

void hive_table::rehash(std::uint64_t capacity, stream_view s) {
  rehash_by_resizing(*this, shape_.slots, capacity, s);
}

void hive_table::set_instrumentation(bool on) { instrument_ = on; }

void hive_table::copy_step_counters(std::uint64_t* out, stream_view s) {
  static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
  launch_fold_tallies(ref(), s);  // stream-ordered after the batch, like the copy
  copy_bytes(out, memory_space::pinned, counters_.data() + c_step1, memory_space::device,
             5 * sizeof(std::uint64_t), s);
}

std::vector<path_record> hive_table::recent_paths(stream_view s) {
  std::shared_lock lock(table_mutex_);
  const auto head = meta_.download(k_meta, s)[2];
  // Only the records written: the ring fills from its start and wraps only once full.
  const std::uint64_t n = std::min<std::uint64_t>(head, k_path_ring);
  const auto ring = paths_.download(n, s);
  std::vector<path_record> out;
  for (std::uint64_t i = head - n; i < head; ++i) out.push_back(ring[i % k_path_ring]);
  return out;
}

hive_image hive_table::snapshot(stream_view s) {
  std::shared_lock lock(table_mutex_);
  hive_image img;
  img.slots = shape_.slots;
  img.hashes = shape_.hashes;
  img.geo = geo_;
  const std::uint64_t b = geo_.buckets();
  img.words = words_.download(b * shape_.slots, s);
  for (const meta_word m : bucket_meta_.download(b, s)) {
    img.masks.push_back(mask_of(m));
    img.locks.push_back(lock_of(m));
  }
  img.stash = stash_.download(stash_.size(), s);
  img.stash_used = std::min<std::uint64_t>(meta_.download(1, s)[0], shape_.stash_capacity);
  return img;
}

}  // namespace hs::hive
