// The GPU linear table: argument checks, dispatch to kernels by hash and probe-group size, the
// guarded-launch bookkeeping that keeps a full table from hanging, the phase order of tombstone
// mode, stats. Its rehash (linear_rehash.cu) and its inspection and host copies
// (linear_table_inspect.cu) are apart, each a subject of its own.
#include "core/linear/linear_table.hpp"

#include <algorithm>
#include <type_traits>

#include "core/common/bit_math.hpp"
#include "core/common/cuda_check.hpp"
#include "core/common/device.hpp"
#include "core/common/error.hpp"
#include "core/linear/linear_inspect.hpp"
#include "core/linear/linear_kernels.cuh"
#include "core/linear/linear_state.hpp"
#include "core/table/device_checks.hpp"

namespace hs::linear {

namespace {

cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }
cudaEvent_t event(void* e) { return static_cast<cudaEvent_t>(e); }

unsigned blocks_for(std::uint64_t n, int group) {
  return static_cast<unsigned>((n * group + kernels::k_block - 1) / kernels::k_block);
}

/// Calls f(integral_constant<int, G>) for the runtime group size.
template <class F>
void dispatch_group(int group, F&& f) {
  switch (group) {
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    default: f(std::integral_constant<int, 1>{}); break;
  }
}

/// Calls f(hash policy, group constant): the one place kernels are instantiated from. Double
/// hashing and 64-bit tables run one thread per operation: their kernels exist for groups of 1
/// only.
template <class W, class F>
void dispatch(hash_kind h, probe_policy p, int group, F&& f) {
  dispatch_probing(h, p, [&](auto hash) {
    if constexpr (probe_of<decltype(hash)>::type::is_double || sizeof(W) == 16)
      f(hash, std::integral_constant<int, 1>{});
    else
      dispatch_group(group, [&](auto gc) { f(hash, gc); });
  });
}

/// The virtual architecture (times 10) of the device code this module runs on the current GPU:
/// every kernel of a module comes from the same image, so one kernel tells.
int kernel_code_version() {
  cudaFuncAttributes attr{};
  HS_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernels::spread_reach));
  return attr.ptxVersion;
}

void* make_event() {
  cudaEvent_t e = nullptr;
  HS_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  return e;
}

}  // namespace

template <class W>
template <class H, int G>
linear_ref<H, G, W> basic_linear_table<W>::ref() const {
  return {slots_.data(), mask_, cfg_.capacity, counters_.data(), reach_.data(), split_claims_};
}

template <class W>
basic_linear_table<W>::basic_linear_table(const table_config& cfg)
    : cfg_(cfg), mask_(static_cast<index>(cfg.capacity - 1)) {
  std::string why;
  const auto gpu = query_gpu(&why);
  if (!gpu) throw user_error("GPU linear table: " + why);
  // 16-byte slots are claimed with one 16-byte CAS where the code that runs has it: code built
  // for sm_90 and up. A newer GPU running the build's compute_75 PTX (sm_90 SASS does not load on
  // it) has the instruction but not the code, so the device's own version does not decide.
  const bool pair_cas_here = sizeof(W) == 16 && kernel_code_version() >= 90;
  if constexpr (sizeof(W) == 16) {
    if (cfg.linear.tuning.pair_cas == auto_on_off::on && !pair_cas_here)
      throw user_error("pair-cas on: the code this build runs on this GPU (" + gpu->name +
                       ") has no 16-byte compare-and-swap (code for sm_90 and up does); use auto "
                       "or off");
  }
  split_claims_ =
      sizeof(W) == 16 && (cfg.linear.tuning.pair_cas == auto_on_off::off || !pair_cas_here);
  slots_ = buffer<W>(memory_space::device, cfg.capacity);
  counters_ = buffer<device_counters>(memory_space::device, 1);
  reach_ = buffer<std::uint32_t>(memory_space::device, reach_regions(cfg.capacity));
  scratch_ = buffer<unsigned long long>(memory_space::device, 4);
  last_insert_ = make_event();
  last_erase_ = make_event();
  counted_event_ = make_event();
  census_done_ = make_event();
  counted_ = buffer<unsigned long long>(memory_space::pinned, 1);
  clear({});
  // The fill runs on the legacy stream; callers' streams may be non-blocking: wait for it here.
  HS_CUDA_CHECK(cudaDeviceSynchronize());
}

template <class W>
basic_linear_table<W>::~basic_linear_table() {
  if (last_insert_) cudaEventDestroy(event(last_insert_));
  if (last_erase_) cudaEventDestroy(event(last_erase_));
  if (counted_event_) cudaEventDestroy(event(counted_event_));
  if (census_done_) cudaEventDestroy(event(census_done_));
}

template <class W>
int basic_linear_table<W>::current_group() {
  std::lock_guard lock(bound_mutex_);
  return group_for(bound_);
}

template <class W>
int basic_linear_table<W>::group_for(std::uint64_t) const {
  // Measured on the H200 (bench linear --group 1|4|8): one thread per operation is fastest for
  // inserts, hits and erases at every load; groups only help long misses past load 0.9.
  // Tombstone mode runs one thread per operation (its inserts read a sector per L2 round trip).
  if (tombstones()) return 1;
  return cfg_.linear.tuning.group ? cfg_.linear.tuning.group : 1;
}

template <class W>
std::uint64_t basic_linear_table<W>::cas_first_ops(std::uint64_t n) const {
  if (cfg_.linear.tuning.cas_first == auto_on_off::on) return n;
  if (cfg_.linear.tuning.cas_first == auto_on_off::off) return 0;
  // Measured on the H200 (bench seed-linear with --cas-first on/off, 4M keys per kernel): a blind
  // CAS on the home slot wins below load 0.07 (15.2 vs 14.5 G/s at 0), reading first wins from
  // 0.09 on (14.5 vs 14.1). Inserts run roughly in batch order, so the first (limit - bound)
  // operations of a batch still see a table under the limit.
  const std::uint64_t limit = cfg_.capacity / 25 * 2;  // load 0.08
  return bound_ >= limit ? 0 : std::min(n, limit - bound_);
}

template <class W>
bool basic_linear_table<W>::use_partition(std::uint64_t n, bool statuses) {
  if (statuses || cfg_.linear.tuning.partition == auto_on_off::off || n >= (std::uint64_t{1} << 32))
    return false;
  // Automatic: only batches large against the table (an eighth of its slots or more), in tables
  // larger than the L2. Measured on the H200 (bench linear --partition on/off, 2^27 slots): bulk
  // insert to load 0.5 at 18.0 instead of 14.5 G/s, to 0.9 at 11.5 instead of 10.3; on 4M-key
  // batches the reorder's fixed cost outweighs the gain.
  if (cfg_.linear.tuning.partition == auto_on_off::automatic &&
      (n * 8 < cfg_.capacity || cfg_.capacity < (std::uint64_t{1} << 24)))
    return false;
  return partition_.reserve(
      n, detail::regions_for(cfg_.capacity));  // no room for scratch: insert directly, only slower
}

template <class W>
void basic_linear_table<W>::launch_insert(const key* keys, const value* values, op_status* status,
                                          std::uint64_t n, int group, bool guarded,
                                          std::uint64_t first, stream_view s) {
  const bool reuse = tombstones();
  dispatch<W>(cfg_.hash, cfg_.linear.probe, group, [&](auto hash, auto gc) {
    using H = decltype(hash);
    constexpr int G = decltype(gc)::value;
    const auto t = ref<H, G>();
    if (guarded)
      kernels::insert<H, G, true, W><<<blocks_for(n, G), kernels::k_block, 0, cuda(s)>>>(
          t, keys, values, status, n, first, reuse);
    else
      kernels::insert<H, G, false, W><<<blocks_for(n, G), kernels::k_block, 0, cuda(s)>>>(
          t, keys, values, status, n, first, reuse);
  });
  HS_CUDA_CHECK_LAUNCH();
}

template <class W>
bool basic_linear_table<W>::prepare_inserts(std::uint64_t n, stream_view s) {
  adopt_counted_bound();
  const std::uint64_t before = bound_;
  bound_ += n;
  issued_ += n;
  if (before + n <= cfg_.capacity) {
    counting_ = false;  // this batch's claims go uncounted: the device counter falls behind
    return false;
  }
  // The batch may fill the table: guarded probes need the device's count of taken slots to tell
  // when no free slot is left (and then refuse once past the key's reach).
  //
  // Why the count is exact for every guarded kernel, on however many streams (issue 19; issue 28
  // made guarded batches concurrent): the first guarded batch after an unguarded one (or a
  // clear, rehash or tombstone erase) waits for last_insert_, which covers every insert launched
  // before it on any stream (inserts_launched chains the event), then resets the counter and
  // counts the taken slots: exact, with no insert running. Every later batch is guarded too, as
  // long as counting_ holds, and counts each slot it claims, after its CAS; it waits only for that
  // count (census_done_), so it never claims a slot the count might see as well. So the counter
  // never exceeds the taken slots: a probe reports failed_full only when it has reached the
  // capacity, and then no slot is free. Value mode never frees a slot but by clear or rehash; in
  // tombstone mode an erase frees slots, so it ends counting_. An unguarded batch (the bound says
  // it fits) ends counting_ as well, since its claims are not counted; the counter is then low,
  // which delays a refusal but never makes a wrong one. gpu_streams_test.cpp fills a table from
  // 0.9 to past full from 8 streams at once.
  if (counting_) {
    HS_CUDA_CHECK(cudaStreamWaitEvent(cuda(s), event(census_done_), 0));
    return true;
  }
  unsigned long long* occupied = &counters_.data()->occupied;
  HS_CUDA_CHECK(cudaStreamWaitEvent(cuda(s), event(last_insert_), 0));
  HS_CUDA_CHECK(cudaMemsetAsync(occupied, 0, sizeof(*occupied), cuda(s)));
  detail::launch_count_occupied(slots_.data(), cfg_.capacity, tombstones(), occupied, s);
  HS_CUDA_CHECK(cudaEventRecord(event(census_done_), cuda(s)));
  counting_ = true;
  // The count comes back to the host without a wait, to tighten the bound for later batches.
  // Without that, a table that churns (replacing keys, erasing by value and inserting them again)
  // keeps a bound above its capacity and counts every claim from then on.
  // One count travels at a time: a newer one would replace it before it lands (batches are
  // launched ahead of the GPU), and then none would ever be adopted.
  if (!counted_pending_) {
    copy_bytes(counted_.data(), memory_space::pinned, occupied, memory_space::device,
               sizeof(*occupied), s);
    HS_CUDA_CHECK(cudaEventRecord(event(counted_event_), cuda(s)));
    counted_issued_ = issued_ - n;
    counted_pending_ = true;
  }
  return true;
}

template <class W>
void basic_linear_table<W>::adopt_counted_bound() {
  if (!counted_pending_) return;
  const cudaError_t done = cudaEventQuery(event(counted_event_));
  if (done == cudaErrorNotReady) return;
  HS_CUDA_CHECK(done);  // a fault surfaces here as anywhere
  counted_pending_ = false;
  // Slots the count saw taken, plus every insert launched since: still an upper bound (only
  // inserts take slots), and never loosened by an older count (clear and rehash lower the bound).
  bound_ = std::min<std::uint64_t>(bound_, *counted_.data() + (issued_ - counted_issued_));
}

// Each phase keeps one event; before it is recorded again, the stream waits for its previous
// recording, so the event always covers every launch of its phase, from whatever stream.
template <class W>
void basic_linear_table<W>::inserts_launched(stream_view s) {
  HS_CUDA_CHECK(cudaStreamWaitEvent(cuda(s), event(last_insert_), 0));
  HS_CUDA_CHECK(cudaEventRecord(event(last_insert_), cuda(s)));
}

template <class W>
void basic_linear_table<W>::erases_launched(stream_view s) {
  if (tombstones()) counting_ = false;  // tombstones are free slots: the count is stale
  HS_CUDA_CHECK(cudaStreamWaitEvent(cuda(s), event(last_erase_), 0));
  HS_CUDA_CHECK(cudaEventRecord(event(last_erase_), cuda(s)));
}

template <class W>
void basic_linear_table<W>::order_phase(bool inserting, stream_view s) {
  // The Reusing Deleted Slots article's contract: inserts and erases never overlap in tombstone
  // mode. Whatever stream a caller uses, a launch of one phase waits for the latest launch of the
  // other; lookups are free.
  if (tombstones())
    HS_CUDA_CHECK(cudaStreamWaitEvent(cuda(s), event(inserting ? last_erase_ : last_insert_), 0));
}

template <class W>
void basic_linear_table<W>::insert_batch(std::span<const key> keys, std::span<const value> values,
                                         std::span<op_status> status, stream_view s) {
  hs::detail::check_device_insert(keys, values, status);
  if (keys.empty()) return;
  const std::uint64_t n = keys.size();
  std::shared_lock slots_lock(slots_mutex_);
  std::lock_guard lock(bound_mutex_);
  order_phase(true, s);
  const int group = group_for(bound_);
  const bool partition = use_partition(n, !status.empty());
  // Grouped by region, batch order no longer follows the table's load: no blind CAS then.
  const std::uint64_t first = partition ? 0 : cas_first_ops(n);
  const bool guarded = prepare_inserts(n, s);
  if (partition) {
    detail::partition_by_region(cfg_.hash, keys.data(), values.data(), n, mask_,
                                detail::region_shift_for(cfg_.capacity), partition_, s);
    launch_insert(partition_.keys.data(), partition_.values.data(), nullptr, n, group, guarded,
                  first, s);
  } else {
    launch_insert(keys.data(), values.data(), ptr_or_null(status), n, group, guarded, first, s);
  }
  inserts_launched(s);
}

template <class W>
void basic_linear_table<W>::find_batch(std::span<const key> keys, std::span<value> values_out,
                                       std::span<op_status> status, stream_view s) {
  hs::detail::check_device_find(keys, values_out, status);
  if (keys.empty()) return;
  const std::uint64_t n = keys.size();
  std::shared_lock slots_lock(slots_mutex_);
  dispatch<W>(cfg_.hash, cfg_.linear.probe, current_group(), [&](auto hash, auto gc) {
    using H = decltype(hash);
    constexpr int G = decltype(gc)::value;
    kernels::find<H, G, W><<<blocks_for(n, G), kernels::k_block, 0, cuda(s)>>>(
        ref<H, G>(), keys.data(), values_out.data(), ptr_or_null(status), n);
  });
  HS_CUDA_CHECK_LAUNCH();
}

template <class W>
void basic_linear_table<W>::erase_batch(std::span<const key> keys, std::span<op_status> status,
                                        stream_view s) {
  hs::detail::check_device_erase(keys, status);
  if (keys.empty()) return;
  const std::uint64_t n = keys.size();
  std::shared_lock slots_lock(slots_mutex_);
  std::lock_guard lock(bound_mutex_);
  order_phase(false, s);
  const bool tomb = tombstones();
  dispatch<W>(cfg_.hash, cfg_.linear.probe, group_for(bound_), [&](auto hash, auto gc) {
    using H = decltype(hash);
    constexpr int G = decltype(gc)::value;
    kernels::erase<H, G, W><<<blocks_for(n, G), kernels::k_block, 0, cuda(s)>>>(
        ref<H, G>(), keys.data(), ptr_or_null(status), n, tomb);
  });
  HS_CUDA_CHECK_LAUNCH();
  erases_launched(s);
}

template <class W>
void basic_linear_table<W>::apply_batch(const batch& ops, std::span<value> results,
                                        std::span<op_status> status, stream_view s) {
  const std::size_t n = ops.kinds.size();
  hs::detail::check_device_apply(ops, results, status);
  if (n == 0) return;
  std::shared_lock slots_lock(slots_mutex_);
  std::lock_guard lock(bound_mutex_);
  const int group = group_for(bound_);
  const std::uint64_t first = cas_first_ops(n);
  const bool tomb = tombstones();
  auto launch = [&](kernels::apply_phase phase, bool guarded) {
    dispatch<W>(cfg_.hash, cfg_.linear.probe, group, [&](auto hash, auto gc) {
      using H = decltype(hash);
      constexpr int G = decltype(gc)::value;
      const auto t = ref<H, G>();
      auto* res = ptr_or_null(results);
      auto* st = ptr_or_null(status);
      if (guarded)
        kernels::apply<H, G, true, W><<<blocks_for(n, G), kernels::k_block, 0, cuda(s)>>>(
            t, ops.kinds.data(), ops.keys.data(), ops.values.data(), res, st, n, first, phase,
            tomb);
      else
        kernels::apply<H, G, false, W><<<blocks_for(n, G), kernels::k_block, 0, cuda(s)>>>(
            t, ops.kinds.data(), ops.keys.data(), ops.values.data(), res, st, n, first, phase,
            tomb);
    });
    HS_CUDA_CHECK_LAUNCH();
  };
  if (!tomb) {
    const bool guarded = prepare_inserts(n, s);  // every element might be an insert
    launch(kernels::apply_phase::all, guarded);
    inserts_launched(s);
    return;
  }
  // Tombstone mode: the batch's inserts (with its lookups) as one phase, then its erases.
  order_phase(true, s);
  launch(kernels::apply_phase::inserts_and_finds, prepare_inserts(n, s));
  inserts_launched(s);
  launch(kernels::apply_phase::erases, false);
  erases_launched(s);
}

template <class W>
void basic_linear_table<W>::clear(stream_view s) {
  std::shared_lock slots_lock(slots_mutex_);
  fill_bytes(slots_.data(), memory_space::device, 0xff, cfg_.capacity * sizeof(W), s);
  fill_bytes(counters_.data(), memory_space::device, 0, sizeof(device_counters), s);
  fill_bytes(reach_.data(), memory_space::device, 0, reach_.size() * sizeof(std::uint32_t), s);
  std::lock_guard lock(bound_mutex_);
  bound_ = 0;
  counting_ = false;
}

template <class W>
table_stats basic_linear_table<W>::stats(stream_view s) {
  std::shared_lock slots_lock(slots_mutex_);
  std::lock_guard lock(scratch_mutex_);
  std::uint64_t issued_before;
  {
    // The census must see every insert counted in the bound: wait for the latest launch.
    std::lock_guard bound_lock(bound_mutex_);
    issued_before = issued_;
    HS_CUDA_CHECK(cudaStreamWaitEvent(cuda(s), event(last_insert_), 0));
  }
  const table_stats st = count(s);
  {
    // Exact taken slots (tombstones are free in tombstone mode), plus what was launched since.
    std::lock_guard bound_lock(bound_mutex_);
    bound_ = st.occupied - (tombstones() ? st.tombstones : 0) + (issued_ - issued_before);
  }
  return st;
}

template <class W>
table_stats basic_linear_table<W>::count(stream_view s, std::uint32_t* cluster_starts) {
  HS_CUDA_CHECK(cudaMemsetAsync(scratch_.data(), 0, 3 * sizeof(unsigned long long), cuda(s)));
  detail::launch_census(slots_.data(), cfg_.capacity, scratch_.data(), s, cluster_starts);
  unsigned long long census[3];
  device_counters c{};
  HS_CUDA_CHECK(
      cudaMemcpyAsync(census, scratch_.data(), sizeof(census), cudaMemcpyDeviceToHost, cuda(s)));
  HS_CUDA_CHECK(cudaMemcpyAsync(&c, counters_.data(), sizeof(c), cudaMemcpyDeviceToHost, cuda(s)));
  synchronize(s);
  table_stats st;
  st.capacity = cfg_.capacity;
  st.bytes = cfg_.capacity * sizeof(W) + reach_.size() * sizeof(std::uint32_t);
  st.live = census[0];
  st.erased = census[1];
  st.tombstones = census[2];
  st.occupied = st.live + st.erased + st.tombstones;
  st.max_displacement = c.max_displacement;
  for (int i = 0; i < k_op_kind_count; ++i) st.rejected[i] = c.rejected[i];
  st.failed_full = c.failed_full;
  return st;
}

template class basic_linear_table<slot_word>;
template class basic_linear_table<wide_slot>;

}  // namespace hs::linear
