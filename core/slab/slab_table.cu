// The GPU slab hash: argument checks, SlabAlloc's pool (super blocks added as the slabs in use
// near its size, or when allocations fail), dispatch to the kernels, stats and inspection.
#include "core/slab/slab_table.hpp"

#include <cuda_runtime.h>

#include <algorithm>

#include "core/common/cuda_check.hpp"
#include "core/common/device.hpp"
#include "core/common/device_histogram.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/device_checks.hpp"

namespace hs::slab {

namespace {
/// A device buffer of at least n elements, kept between samples: freeing device memory would
/// synchronize the whole device, and sampling must not wait for the work stream.
template <class T>
buffer<T>& reserve(buffer<T>& b, std::size_t n) {
  if (b.size() < n) b = buffer<T>(memory_space::device, n);
  return b;
}
// Above this share of the pool (counting every insert since the last count as a new slab) the
// table counts allocated slabs exactly, with a wait, before the next insert batch.
constexpr double k_check_share = 0.8;
// After counting, the pool grows until the slabs in use plus an eighth of the batch fit in this
// share...
constexpr double k_grow_share = 0.75;
// ...and until this many batches (a session keeps three in flight, and counts lag behind them)
// fit below the check share, so that a table whose slabs stop growing stops waiting.
constexpr std::uint64_t k_batches_ahead = 4;
}  // namespace

slab_table::slab_table(const table_config& cfg) : cfg_(cfg) {
  std::string why;
  if (!query_gpu(&why)) throw user_error("GPU slab table: " + why);
  const std::uint64_t buckets = resolve_buckets(cfg);
  shape_ = resolve_pool(cfg.slab, buckets);
  tile_ = cfg.slab.tile ? cfg.slab.tile : k_default_tile;
  const std::uint64_t bytes = buckets * k_slab_bytes +
                              shape_.initial_super_blocks * shape_.slabs_per_super() * k_slab_bytes;
  const std::uint64_t free_b = device_memory_now().free_bytes;
  if (bytes > free_b)
    throw user_error("a slab table of " + format_count(buckets) + " buckets and a pool of " +
                     format_count(shape_.initial_super_blocks * shape_.slabs_per_super()) +
                     " slabs needs " + format_bytes(bytes) + " but the GPU has " +
                     format_bytes(free_b) + " free; choose fewer buckets");
  slab_ptrs_ = buffer<std::uint32_t*>(memory_space::device, k_max_super_blocks);
  bitmap_ptrs_ = buffer<std::uint32_t*>(memory_space::device, k_max_super_blocks);
  counters_ = buffer<unsigned long long>(memory_space::device, k_pool_counters);
  scratch_ = buffer<unsigned long long>(memory_space::device, 8);
  pool_count_ = buffer<unsigned long long>(memory_space::device, 2);
  counted_ = buffer<unsigned long long>(memory_space::pinned, 2);
  count_stream_ = owned_stream(true);
  counted_event_ = stream_event(true);
  histograms_ = buffer<unsigned char>(memory_space::device, 2 * sizeof(device_histogram));
  fill_bytes(counters_.data(), memory_space::device, 0,
             k_pool_counters * sizeof(unsigned long long), {});
  reset_base(buckets, {});
  {
    std::lock_guard lock(pool_mutex_);
    for (std::uint32_t i = 0; i < shape_.initial_super_blocks; ++i)
      if (!add_super_block({}))
        throw user_error("not enough GPU memory for SlabAlloc's initial pool");
  }
  // The fills ran on the legacy stream; callers' streams may be non-blocking: wait for them here.
  HS_CUDA_CHECK(cudaDeviceSynchronize());
}

slab_table::~slab_table() { cudaDeviceSynchronize(); }

void slab_table::reset_base(std::uint64_t buckets, stream_view s) {
  base_ = buffer<std::uint32_t>(memory_space::device, buckets * k_slab_words);
  fill_bytes(base_.data(), memory_space::device, 0xff, buckets * k_slab_bytes, s);
  buckets_ = static_cast<std::uint32_t>(buckets);
  cfg_.slab.buckets = buckets;
  cfg_.capacity = buckets * k_slab_pairs;
}

table_config slab_table::config() const {
  std::shared_lock lock(table_mutex_);
  return cfg_;
}

bool slab_table::add_super_block(stream_view s) {
  if (supers_.size() >= shape_.max_super_blocks) return false;
  const std::uint64_t slabs = shape_.slabs_per_super();
  auto sb = std::make_unique<super_block>();
  try {
    sb->slabs = buffer<std::uint32_t>(memory_space::device, slabs * k_slab_words);
    sb->bitmaps = buffer<std::uint32_t>(memory_space::device,
                                        std::uint64_t{shape_.blocks_per_super} * k_bitmap_words);
  } catch (const std::exception&) {
    return false;  // out of GPU memory: the pool stays as it is; allocations that find none fail
  }
  fill_bytes(sb->bitmaps.data(), memory_space::device, 0, sb->bitmaps.size() * 4, s);
  // Slabs start as empty words, not whatever the memory held: a saved state (and a table file)
  // copies the whole pool, and initcheck found never-allocated slabs copied uninitialized.
  fill_bytes(sb->slabs.data(), memory_space::device, 0xff, sb->slabs.size() * 4, s);
  const std::size_t i = supers_.size();
  std::uint32_t* ptrs[2] = {sb->slabs.data(), sb->bitmaps.data()};
  copy_bytes(slab_ptrs_.data() + i, memory_space::device, &ptrs[0], memory_space::host,
             sizeof(void*), s);
  copy_bytes(bitmap_ptrs_.data() + i, memory_space::device, &ptrs[1], memory_space::host,
             sizeof(void*), s);
  synchronize(s);  // the pointers above live on this stack frame
  supers_.push_back(std::move(sb));
  super_count_ = static_cast<std::uint32_t>(supers_.size());
  return true;
}

slab_ref slab_table::ref() {
  slab_ref t;
  t.hash = cfg_.hash;
  t.tile = tile_;
  t.base = base_.data();
  t.buckets = buckets_;
  t.mode = cfg_.slab.mode;
  t.pool.slabs = slab_ptrs_.data();
  t.pool.bitmaps = bitmap_ptrs_.data();
  t.pool.super_blocks = super_count_.load();
  t.pool.blocks_per_super = shape_.blocks_per_super;
  t.pool.counters = counters_.data();
  t.pool.seed = seed_.fetch_add(1);
  return t;
}

std::uint64_t slab_table::allocated_slabs(stream_view s) {
  // Its own counter, under the pool's lock: the inspection's scratch is held by a sampling thread
  // for a whole sample, and inserts (reserve_for) must not wait for that.
  fill_bytes(pool_count_.data(), memory_space::device, 0, sizeof(unsigned long long), s);
  launch_count_allocated(ref(), pool_count_.data(), s);
  unsigned long long n = 0;
  copy_bytes(&n, memory_space::host, pool_count_.data(), memory_space::device, sizeof(n), s);
  synchronize(s);
  return n;
}

std::uint64_t slab_table::live_pairs(stream_view s) {
  std::lock_guard lock(scratch_mutex_);
  fill_bytes(scratch_.data(), memory_space::device, 0, 4 * sizeof(unsigned long long), s);
  launch_census(ref(), scratch_.data(), s);
  unsigned long long n = 0;
  copy_bytes(&n, memory_space::host, scratch_.data(), memory_space::device, sizeof(n), s);
  synchronize(s);
  return n;
}

void slab_table::reserve_for(std::uint64_t n, stream_view s) {
  std::lock_guard lock(pool_mutex_);
  const auto pool = [&] { return double(supers_.size() * shape_.slabs_per_super()); };
  adopt_count();
  allocated_upper_ += n;
  issued_ += n;
  if (!grow_pending_ && double(allocated_upper_) <= k_check_share * pool()) return;
  wait_for_inserts(s);  // the exact count covers inserts in flight on every stream
  const std::uint64_t used = allocated_slabs(s);
  unsigned long long failures = 0;
  copy_bytes(&failures, memory_space::host, counters_.data() + 1, memory_space::device,
             sizeof(failures), s);
  synchronize(s);
  allocated_upper_ = used + n;
  // An earlier batch ran out: grow by half at least.
  const bool failed = grow_pending_ || failures > last_failures_;
  grow_pending_ = false;
  last_failures_ = std::max<std::uint64_t>(last_failures_, failures);
  const double want =
      std::max({double(used + n / 8 + k_slabs_per_block) / k_grow_share,
                double(used + k_batches_ahead * n) / k_check_share, failed ? 1.5 * pool() : 0.0});
  while (pool() < want && add_super_block(s)) {
  }
}

// Why the bound stays an upper bound: the count waits for every insert launched before it on any
// stream (wait_for_inserts), so it sees at least their allocations; every insert launched since
// is counted in issued_ - counted_issued_ as a slab it may take; and slabs are only freed (flush,
// clear, a rehash's reset) apart from that, which makes any count, however old, too high, never
// too low. The bound only ever takes the smaller value.
void slab_table::adopt_count() {
  if (!counted_pending_ || !counted_event_.ready()) return;  // a fault surfaces here as anywhere
  counted_pending_ = false;
  allocated_upper_ =
      std::min<std::uint64_t>(allocated_upper_, counted_.data()[0] + (issued_ - counted_issued_));
  if (counted_.data()[1] > last_failures_) grow_pending_ = true;
}

// After an insert batch is launched: when a next batch of its size would need the exact count,
// a count starts on the table's own stream, behind every insert launched so far, so neither the
// caller's stream nor its next launch waits for it.
void slab_table::inserts_launched(stream_view s, std::uint64_t n) {
  std::lock_guard lock(pool_mutex_);
  note_insert_event(s);
  const double pool = double(supers_.size() * shape_.slabs_per_super());
  if (counted_pending_ || double(allocated_upper_ + n) <= k_check_share * pool) return;
  const stream_view c = count_stream_.view();
  wait_for_inserts(c);
  unsigned long long* slot = pool_count_.data() + 1;
  fill_bytes(slot, memory_space::device, 0, sizeof(*slot), c);
  launch_count_allocated(ref(), slot, c);
  copy_bytes(counted_.data(), memory_space::pinned, slot, memory_space::device, sizeof(*slot), c);
  copy_bytes(counted_.data() + 1, memory_space::pinned, counters_.data() + 1, memory_space::device,
             sizeof(*slot), c);
  counted_event_.record(c);
  counted_issued_ = issued_;
  counted_pending_ = true;
}

void slab_table::note_insert_event(stream_view s) {
  for (auto& [stream, e] : insert_events_)
    if (stream == s.handle) {
      e.record(s);
      return;
    }
  insert_events_.emplace_back(s.handle, stream_event(true));
  insert_events_.back().second.record(s);
}

void slab_table::wait_for_inserts(stream_view s) {
  for (const auto& [stream, e] : insert_events_)
    if (stream != s.handle) e.make_wait(s);
}

void slab_table::launch(const batch_io& io, stream_view s) { launch_batch(ref(), io, s); }

void slab_table::insert_batch(std::span<const key_type> keys, std::span<const value_type> values,
                              std::span<op_status> status, stream_view s) {
  detail::check_device_insert(keys, values, status);

  std::shared_lock lock(table_mutex_);
  reserve_for(keys.size(), s);
  launch({batch_operands::insert(keys, values, status), batch_op::insert}, s);
  inserts_launched(s, keys.size());
}

void slab_table::find_batch(std::span<const key_type> keys, std::span<value_type> values_out,
                            std::span<op_status> status, stream_view s) {
  detail::check_device_find(keys, values_out, status);

  std::shared_lock lock(table_mutex_);
  launch({batch_operands::find(keys, values_out, status), batch_op::search}, s);
}

void slab_table::erase_batch(std::span<const key_type> keys, std::span<op_status> status,
                             stream_view s) {
  detail::check_device_erase(keys, status);

  std::shared_lock lock(table_mutex_);
  launch({batch_operands::erase(keys, status), batch_op::erase}, s);
}

void slab_table::apply_batch(const op_batch& ops, std::span<value_type> results,
                             std::span<op_status> status, stream_view s) {
  detail::check_device_apply(ops, results, status);

  std::shared_lock lock(table_mutex_);
  reserve_for(ops.keys.size(), s);  // every element may be an insert
  launch({batch_operands::apply(ops, results, status), batch_op::mixed}, s);
  inserts_launched(s, ops.keys.size());
}

void slab_table::erase_all(std::span<const key_type> keys, std::span<std::uint32_t> removed,
                           stream_view s) {
  detail::check_bulk("erase_all", keys.size(), removed.empty() ? keys.size() : removed.size(), 0);
  require_device("erase_all", keys);
  require_device("erase_all", removed);
  std::shared_lock lock(table_mutex_);
  launch({batch_operands::keys_only(keys), batch_op::erase_all, ptr_or_null(removed)}, s);
}

void slab_table::count(std::span<const key_type> keys, std::span<std::uint32_t> counts,
                       stream_view s) {
  detail::check_bulk("count", keys.size(), counts.size(), 0);
  require_device("count", keys);
  require_device("count", counts);
  std::shared_lock lock(table_mutex_);
  launch({batch_operands::keys_only(keys), batch_op::count, counts.data()}, s);
}

void slab_table::search_all(std::span<const key_type> keys, std::span<const std::uint64_t> offsets,
                            std::span<value_type> values_out, stream_view s) {
  detail::check_bulk("search_all", keys.size() + 1, offsets.size(), 0);
  require_device("search_all", keys);
  require_device("search_all", offsets);
  require_device("search_all", values_out);
  std::shared_lock lock(table_mutex_);
  launch({batch_operands::keys_only(keys), batch_op::search_all, nullptr, offsets.data(),
          values_out.data()},
         s);
}

void slab_table::flush(stream_view s) {
  std::unique_lock lock(table_mutex_);  // FLUSH runs alone on the table
  launch_flush(ref(), s);
  synchronize(s);
  std::lock_guard pool_lock(pool_mutex_);
  allocated_upper_ = allocated_slabs(s);
}

void slab_table::clear(stream_view s) {
  std::unique_lock lock(table_mutex_);
  fill_bytes(base_.data(), memory_space::device, 0xff, std::uint64_t{buckets_} * k_slab_bytes, s);
  std::lock_guard pool_lock(pool_mutex_);
  for (auto& sb : supers_)
    fill_bytes(sb->bitmaps.data(), memory_space::device, 0, sb->bitmaps.size() * 4, s);
  fill_bytes(counters_.data() + 1, memory_space::device, 0,
             (k_pool_counters - 1) * sizeof(unsigned long long), s);
  allocated_upper_ = 0;
  last_failures_ = 0;
  synchronize(s);
}

table_stats slab_table::stats(stream_view s) {
  std::shared_lock lock(table_mutex_);
  std::lock_guard scratch_lock(scratch_mutex_);
  const slab_ref t = ref();
  fill_bytes(scratch_.data(), memory_space::device, 0, 8 * sizeof(unsigned long long), s);
  launch_census(t, scratch_.data(), s);
  launch_count_allocated(t, scratch_.data() + 4, s);
  unsigned long long c[8], k[k_pool_counters];
  copy_bytes(c, memory_space::host, scratch_.data(), memory_space::device, sizeof(c), s);
  copy_bytes(k, memory_space::host, counters_.data(), memory_space::device, sizeof(k), s);
  synchronize(s);
  image_census ic;
  ic.live = c[0];
  ic.deleted = c[1];
  ic.chained = c[2];
  ic.longest = c[3];
  ic.allocated = c[4];
  const std::uint64_t pool_slabs = std::uint64_t{t.pool.super_blocks} * shape_.slabs_per_super();
  const std::uint64_t bitmap_bytes =
      std::uint64_t{t.pool.super_blocks} * shape_.blocks_per_super * k_bitmap_words * 4;
  const std::uint64_t bytes = (std::uint64_t{buckets_} + pool_slabs) * k_slab_bytes + bitmap_bytes;
  table_stats st = stats_from_census(ic, buckets_, pool_slabs, t.pool.super_blocks, bytes);
  st.slab.resident_changes = k[0];
  st.slab.alloc_failures = k[1];
  for (int i = 0; i < k_op_kind_count; ++i)
    st.rejected[i] = k[rejected_counter(static_cast<op_kind>(i))];
  st.failed_full = k[3];
  return st;
}

void slab_table::inspect(const inspect_request& req, inspect_result& out, stream_view s) {
  std::shared_lock lock(table_mutex_);
  std::lock_guard scratch_lock(scratch_mutex_);
  const slab_ref t = ref();
  if (req.occupancy) launch_occupancy(t, *req.occupancy, s);
  if (req.probe_histogram || req.slab.chain_lengths) {
    auto* h = reinterpret_cast<device_histogram*>(histograms_.data());
    launch_chain_histograms(t, req.slab.chain_lengths ? h : nullptr,
                            req.probe_histogram ? h + 1 : nullptr, s);
    device_histogram host[2];
    for (int i : {0, 1})  // only the histograms this request had counted (initcheck)
      if (i == 0 ? req.slab.chain_lengths : req.probe_histogram)
        copy_bytes(&host[i], memory_space::host, h + i, memory_space::device, sizeof(host[i]), s);
    synchronize(s);
    if (req.slab.chain_lengths) out.slab.chains = to_probe_histogram(host[0]);
    if (req.probe_histogram) out.histogram = to_probe_histogram(host[1]);
  }
  if (req.strip && req.strip->width) {
    auto& sm = reserve(strip_, 2 * std::size_t{req.strip->width});
    launch_strip(t, *req.strip, sm.data(), s);
    const std::vector<float> h = sm.download(2 * std::size_t{req.strip->width}, s);
    out.strip.resize(req.strip->width);
    for (std::size_t p = 0; p < out.strip.size(); ++p) out.strip[p] = {h[2 * p], h[2 * p + 1]};
  }
  out.slots.clear();
  if (req.dump_first && req.dump_count) dump_slots(*req.dump_first, req.dump_count, out, s);
  out.slab.chain = {};
  if (req.slab.chain_bucket && *req.slab.chain_bucket < buckets_) copy_chain(t, req, out, s);
  out.slab.allocator = {};
  if (req.slab.allocator) {
    const std::uint64_t blocks = std::uint64_t{t.pool.super_blocks} * shape_.blocks_per_super;
    auto& fill = reserve(block_fill_, blocks);
    launch_block_fill(t, fill.data(), s);
    out.slab.allocator.blocks_per_super = shape_.blocks_per_super;
    out.slab.allocator.super_blocks = t.pool.super_blocks;
    out.slab.allocator.block_fill = fill.download(blocks, s);
  }
}

void slab_table::dump_slots(std::uint64_t dump_first, std::uint32_t dump_count, inspect_result& out,
                            stream_view s) {
  const std::uint64_t slots = std::uint64_t{buckets_} * k_slab_pairs;
  const std::uint64_t first = std::min(dump_first, slots),
                      last = std::min(slots, first + dump_count);
  if (first >= last) return;
  const std::uint64_t b0 = first / k_slab_pairs, b1 = (last - 1) / k_slab_pairs + 1;
  std::vector<std::uint32_t> words((b1 - b0) * k_slab_words);
  copy_bytes(words.data(), memory_space::host, base_.data() + b0 * k_slab_words,
             memory_space::device, words.size() * 4, s);
  synchronize(s);
  for (std::uint64_t slot = first; slot < last; ++slot) {
    const std::uint32_t* w = words.data() + (slot / k_slab_pairs - b0) * k_slab_words;
    slot_record r;
    r.slot = slot;
    r.key = w[2 * (slot % k_slab_pairs)];
    r.value = w[2 * (slot % k_slab_pairs) + 1];
    r.home = slot / k_slab_pairs;
    r.state = is_live_key(r.key)     ? slot_state::live
              : r.key == k_tombstone ? slot_state::tombstone
                                     : slot_state::empty;
    out.slots.push_back(r);
  }
}

void slab_table::copy_chain(const slab_ref& t, const inspect_request& req, inspect_result& out,
                            stream_view s) {
  const std::uint32_t limit = std::max<std::uint32_t>(req.slab.chain_limit, 1);
  auto& words = reserve(chain_words_, std::size_t{limit} * k_slab_words);
  auto& addresses = reserve(chain_addresses_, limit);
  launch_copy_chain(t, static_cast<std::uint32_t>(*req.slab.chain_bucket), limit, words.data(),
                    addresses.data(), scratch_.data() + 6, s);
  unsigned long long total = 0;
  copy_bytes(&total, memory_space::host, scratch_.data() + 6, memory_space::device, sizeof(total),
             s);
  synchronize(s);
  // Only the slabs the kernel wrote: the rest of the kept buffer holds nothing of this list
  // (initcheck reported its unwritten words copied).
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(total, limit));
  const std::vector<std::uint32_t> w = words.download(n * k_slab_words, s);
  const std::vector<std::uint32_t> a = addresses.download(n, s);
  out.slab.chain.bucket = *req.slab.chain_bucket;
  out.slab.chain.total = total;
  for (std::size_t i = 0; i < n; ++i) {
    slab_record r;
    r.address = a[i];
    std::copy_n(w.data() + i * k_slab_words, k_slab_words, r.words);
    out.slab.chain.slabs.push_back(r);
  }
}

std::uint64_t slab_table::retrieve_pairs(std::span<key_type> keys, std::span<value_type> values,
                                         stream_view s) {
  detail::check_bulk("retrieve_all", keys.size(), values.size(), 0);
  require_device("retrieve_all", keys);
  require_device("retrieve_all", values);
  std::shared_lock lock(table_mutex_);
  std::lock_guard scratch_lock(scratch_mutex_);
  launch_retrieve_all(ref(), ptr_or_null(keys), ptr_or_null(values), keys.size(),
                      scratch_.data() + 7, s);
  unsigned long long n = 0;
  copy_bytes(&n, memory_space::host, scratch_.data() + 7, memory_space::device, sizeof(n), s);
  synchronize(s);
  return n;
}

void slab_table::rehash(std::uint64_t capacity, stream_view s) {
  std::unique_lock lock(table_mutex_);  // nothing else runs on the table until it is rebuilt
  synchronize(s);
  table_config next = cfg_;
  next.slab.buckets = 0;
  next.capacity = capacity ? capacity : cfg_.capacity;
  const std::uint64_t buckets = resolve_buckets(next);
  const std::uint64_t live = live_pairs(s);
  {
    // The new lists need at most one partly filled slab per bucket beyond their packed pairs: the
    // pool must hold that before anything is changed, so the rebuild cannot run out midway.
    std::lock_guard pool_lock(pool_mutex_);
    const std::uint64_t need = live / k_slab_pairs + buckets + k_slabs_per_block;
    while (supers_.size() * shape_.slabs_per_super() < need)
      if (!add_super_block(s))
        throw user_error("rehash: SlabAlloc cannot grow to the " + format_count(need) + " slabs " +
                         format_count(buckets) + " buckets may need; the table is unchanged");
  }
  buffer<key_type> keys(memory_space::device, live);
  buffer<value_type> values(memory_space::device, live);
  {
    std::lock_guard scratch_lock(scratch_mutex_);
    launch_retrieve_all(ref(), keys.data(), values.data(), live, scratch_.data() + 7, s);
  }
  reset_base(buckets, s);
  {
    std::lock_guard pool_lock(pool_mutex_);
    for (auto& sb : supers_)
      fill_bytes(sb->bitmaps.data(), memory_space::device, 0, sb->bitmaps.size() * 4, s);
    allocated_upper_ = live;
  }
  launch({batch_operands::insert(keys.cspan(), values.cspan(), {}), batch_op::insert}, s);
  const std::uint64_t after = live_pairs(s);
  if (after != live)
    throw gpu_error("rehash lost entries: " + format_count(live) + " before, " +
                    format_count(after) + " after");
}

void slab_table::allocate_slabs(std::span<std::uint32_t> out, stream_view s) {
  require_device("allocate_slabs", out);
  std::shared_lock lock(table_mutex_);
  launch_allocate(ref(), out.data(), out.size(), s);
  {
    std::lock_guard pool_lock(pool_mutex_);
    allocated_upper_ += out.size();
    issued_ += out.size();
  }
  inserts_launched(s, out.size());
}

void slab_table::free_slabs(std::span<const std::uint32_t> addresses, stream_view s) {
  require_device("free_slabs", addresses);
  std::shared_lock lock(table_mutex_);
  launch_deallocate(ref(), addresses.data(), addresses.size(), s);
}

slab_image slab_table::snapshot(stream_view s) {
  std::shared_lock lock(table_mutex_);
  std::lock_guard pool_lock(pool_mutex_);
  slab_image img;
  img.mode = cfg_.slab.mode;
  img.hash = cfg_.hash;
  img.buckets = buckets_;
  img.blocks_per_super = shape_.blocks_per_super;
  img.base = base_.download(base_.size(), s);
  for (const auto& sb : supers_) {
    img.slabs.push_back(sb->slabs.download(sb->slabs.size(), s));
    img.bitmaps.push_back(sb->bitmaps.download(sb->bitmaps.size(), s));
  }
  return img;
}

}  // namespace hs::slab
