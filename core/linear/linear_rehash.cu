// The GPU linear table's rehash (basic_linear_table<W>::rehash and its steps): the plan, the
// rebuild by clusters, growth and shrinking windows or reinsertion, and the check that every live
// key arrived. Apart from linear_table.cu (batches, bookkeeping, stats), which it shares only the
// census (count) with.
#include "core/linear/linear_table.hpp"

#include <algorithm>

#include "core/common/cuda_check.hpp"
#include "core/common/device.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/linear/linear_kernels.cuh"
#include "core/linear/linear_state.hpp"

namespace hs::linear {

namespace {

cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }

/// Growth by F (2 or 4) through windows of 1024 slots (linear_rebuild.hpp), then the clusters the
/// windows deferred, into `out` (not filled: the windows write every slot).
template <class Hash, int F>
void grow_by_windows(slot_word* old, std::uint64_t old_capacity, const std::uint32_t* starts,
                     slot_word* out, std::uint32_t* deferred, unsigned* max_displacement,
                     unsigned long long* live, stream_view s) {
  constexpr int bytes = kernels::grow_shared_bytes<F>();
  HS_CUDA_CHECK(cudaFuncSetAttribute(kernels::grow_windows<Hash, F>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  const std::uint64_t windows = old_capacity / k_window_slots;
  // As many blocks as fit on the GPU at once, each looping over windows (its loads for the next
  // window overlap the work on this one).
  int device = 0, sms = 0, per_sm = 0;
  HS_CUDA_CHECK(cudaGetDevice(&device));
  HS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  HS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, kernels::grow_windows<Hash, F>, 32 * kernels::k_grow_warps, bytes));
  const std::uint64_t blocks =
      std::min<std::uint64_t>((windows + kernels::k_grow_warps - 1) / kernels::k_grow_warps,
                              std::uint64_t(std::max(per_sm, 1)) * sms);
  kernels::grow_windows<Hash, F>
      <<<static_cast<unsigned>(blocks), 32 * kernels::k_grow_warps, bytes, cuda(s)>>>(
          old, old_capacity, starts, out, deferred, max_displacement, live);
  kernels::grow_deferred<Hash>
      <<<static_cast<unsigned>((windows + kernels::k_block - 1) / kernels::k_block),
         kernels::k_block, 0, cuda(s)>>>(old, old_capacity, deferred, out, old_capacity * F,
                                         max_displacement, live);
}

/// Shrinking by F (2 or 4) through windows of 1024 new slots (linear_rebuild.hpp) into `out` (not
/// filled: the windows write every slot), then the keys that had to wait, by the ordinary insert.
/// Returns false, with `out` to be discarded, when more keys waited than `later` has room for.
template <class Hash, int F>
bool shrink_by_windows(const slot_word* old, std::uint64_t capacity, slot_word* out,
                       buffer<slot_word>& later, unsigned long long* count,
                       device_counters* counters, unsigned long long* live, stream_view s) {
  HS_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned long long), cuda(s)));
  int device = 0, sms = 0, per_sm = 0;
  HS_CUDA_CHECK(cudaGetDevice(&device));
  HS_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  HS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, kernels::shrink_windows<Hash, F>, 32 * kernels::k_shrink_warps, 0));
  const std::uint64_t windows = capacity / k_window_slots;
  const std::uint64_t blocks =
      std::min<std::uint64_t>((windows + kernels::k_shrink_warps - 1) / kernels::k_shrink_warps,
                              std::uint64_t(std::max(per_sm, 1)) * sms);
  kernels::shrink_windows<Hash, F>
      <<<static_cast<unsigned>(blocks), 32 * kernels::k_shrink_warps, 0, cuda(s)>>>(
          old, out, capacity, later.data(), later.size(), count, &counters->max_displacement, live);
  unsigned long long waited = 0;
  HS_CUDA_CHECK(cudaMemcpyAsync(&waited, count, sizeof(waited), cudaMemcpyDeviceToHost, cuda(s)));
  synchronize(s);
  if (waited > later.size()) return false;
  if (waited) {
    const linear_ref<Hash, 1> t{out, static_cast<std::uint32_t>(capacity - 1), capacity, counters};
    const auto grid = static_cast<unsigned>(std::min<std::uint64_t>(
        (waited + kernels::k_block - 1) / kernels::k_block, std::uint64_t(sms) * 16));
    kernels::insert_later<Hash>
        <<<grid, kernels::k_block, 0, cuda(s)>>>(later.data(), waited, t, live);
  }
  return true;
}

}  // namespace

/// How rehash rebuilds, decided from the probing, the two sizes and the census before it.
template <class W>
struct basic_linear_table<W>::rehash_plan {
  std::uint64_t capacity = 0;       // the new one
  index mask = 0;                   // the new one's
  table_stats before;               // the census before: the live keys to move
  std::uint32_t* starts = nullptr;  // where clusters start, marked by that census when possible
  std::uint64_t start_words = 0;
  bool by_clusters = false;  // linear probing with an empty slot somewhere, not shrinking
  bool in_place = false;     // by clusters, the same size
  std::uint64_t factor = 0;  // growth
  bool by_windows = false;   // by clusters, growing by 2 or 4 a window of 1024 slots at a time
  std::uint64_t shrink = 0;
  bool shrink_windows = false;  // linear probing shrinking by 2 or 4, windows of 1024 new slots
};

/// The plan, with the census that counts the keys (and marks where clusters start in the same
/// read) and the kept scratch it needs; throws, the table unchanged, when an allocation fails or
/// the live keys do not fit.
template <class W>
typename basic_linear_table<W>::rehash_plan basic_linear_table<W>::plan_rehash(
    std::uint64_t capacity, stream_view s) {
  constexpr bool narrow = sizeof(W) == 8;  // the windows' staging is written for 8-byte slots
  rehash_plan p;
  p.capacity = capacity;
  p.mask = static_cast<index>(capacity - 1);
  const bool clusters_possible =
      cfg_.linear.probe == probe_policy::linear && capacity >= cfg_.capacity;
  p.start_words = (cfg_.capacity + 31) / 32;
  if (clusters_possible && cluster_starts_.size() != p.start_words)
    cluster_starts_ =
        buffer<std::uint32_t>(memory_space::device, p.start_words);  // throws, table unchanged
  p.starts = cluster_starts_.data();
  p.before = count(s, clusters_possible ? p.starts : nullptr);
  if (p.before.live > capacity)
    throw user_error("rehash: " + format_count(p.before.live) + " live keys do not fit in " +
                     format_count(capacity) + " slots");
  p.by_clusters = clusters_possible && p.before.occupied < cfg_.capacity;
  p.in_place = p.by_clusters && capacity == cfg_.capacity;
  // Growing by 2 or 4 goes a window of 1024 slots at a time and writes every new slot itself.
  p.factor = capacity / cfg_.capacity;
  const std::uint64_t windows = cfg_.capacity / k_window_slots;
  p.by_windows = narrow && p.by_clusters && (p.factor == 2 || p.factor == 4) && windows > 0;
  if (p.by_windows && deferred_.size() != windows)
    deferred_ = buffer<std::uint32_t>(memory_space::device, windows);
  // Shrinking linear probing by 2 or 4 goes a window of 1024 new slots at a time too; the keys a
  // window cannot place wait in a buffer of an eighth of the live keys (at least 4096; kept).
  p.shrink = cfg_.capacity / capacity;
  p.shrink_windows = narrow && cfg_.linear.probe == probe_policy::linear &&
                     (p.shrink == 2 || p.shrink == 4) && capacity >= k_window_slots;
  const std::uint64_t room = std::max<std::uint64_t>(p.before.live / 8, 4096);
  if (p.shrink_windows && waiting_.size() < room) waiting_ = buffer<W>(memory_space::device, room);
  return p;
}

/// Launches the rebuild the plan chose from the current slots into `out` (the slots themselves
/// in place, else `fresh`); returns whether the kernels counted the keys they placed.
template <class W>
bool basic_linear_table<W>::launch_rebuild(const rehash_plan& p, W* out, buffer<W>& fresh,
                                           stream_view s) {
  const std::uint64_t capacity = p.capacity;
  std::uint32_t* starts = p.starts;
  bool counted = p.by_clusters;  // the cluster and window kernels count what they place
  dispatch_probing(cfg_.hash, cfg_.linear.probe, [&](auto hash) {
    using H = decltype(hash);
    if (p.by_clusters) {
      if constexpr (!probe_of<H>::type::is_double) {
        if constexpr (sizeof(W) == 8) {
          if (p.by_windows) {
            const auto grow = p.factor == 2 ? grow_by_windows<H, 2> : grow_by_windows<H, 4>;
            grow(slots_.data(), cfg_.capacity, starts, out, deferred_.data(),
                 &counters_.data()->max_displacement, scratch_.data(), s);
            return;
          }
        }
        const auto words = p.start_words;
        kernels::rebuild_clusters<H, W>
            <<<static_cast<unsigned>((words + kernels::k_block - 1) / kernels::k_block),
               kernels::k_block, 0, cuda(s)>>>(slots_.data(), cfg_.capacity, starts, out, capacity,
                                               &counters_.data()->max_displacement,
                                               scratch_.data());
      }
      return;
    }
    if constexpr (!probe_of<H>::type::is_double && sizeof(W) == 8) {
      if (p.shrink_windows) {
        const auto fold = p.shrink == 2 ? shrink_by_windows<H, 2> : shrink_by_windows<H, 4>;
        counted = fold(slots_.data(), capacity, fresh.data(), waiting_, scratch_.data() + 1,
                       counters_.data(), scratch_.data(), s);
        if (counted) return;
        // More keys waited than there was room for: this table is rebuilt key by key instead.
        HS_CUDA_CHECK(
            cudaMemsetAsync(&counters_.data()->max_displacement, 0, sizeof(unsigned), cuda(s)));
        fill_bytes(fresh.data(), memory_space::device, 0xff, capacity * sizeof(W), s);
      }
    }
    const linear_ref<H, 1, W> t{fresh.data(),     p.mask,  capacity,
                                counters_.data(), nullptr, split_claims_};
    // A grid-stride loop: 16 blocks a multiprocessor keep every one busy.
    static const std::uint64_t most_blocks = [] {
      const auto g = query_gpu();
      return std::uint64_t(g ? g->sm_count : 132) * 16;
    }();
    const auto grid = static_cast<unsigned>(std::min<std::uint64_t>(
        (cfg_.capacity + kernels::k_block - 1) / kernels::k_block, most_blocks));
    kernels::rehash<H, W><<<grid, kernels::k_block, 0, cuda(s)>>>(slots_.data(), cfg_.capacity, t);
  });
  return counted;
}

/// The live keys the rebuild moved: what the kernels placed, or else a census of the new slots
/// (which throws if they refused any key).
template <class W>
std::uint64_t basic_linear_table<W>::keys_rehashed(const table_stats& before, bool counted,
                                                   unsigned long long placed, stream_view s) {
  if (counted) return placed;
  const table_stats after = count(s);
  if (after.failed_full != before.failed_full)
    throw gpu_error("rehash: the new slots refused " +
                    format_count(after.failed_full - before.failed_full) + " keys");
  return after.live;
}

template <class W>
void basic_linear_table<W>::rehash(std::uint64_t capacity, stream_view s) {
  check_capacity("rehash", capacity, slot_traits<W>::width);
  std::unique_lock slots_lock(slots_mutex_);  // no new launch or inspection from any thread
  std::lock_guard scratch_lock(scratch_mutex_);
  HS_CUDA_CHECK(cudaDeviceSynchronize());  // and what is queued, on any stream, has finished
  // Linear probing with an empty slot somewhere rebuilds cluster by cluster (linear_rebuild.hpp):
  // in place for the same size (scratch: a bit per slot, kept, since allocating and freeing cost
  // more than the pass), into the new slots when growing (by 2 or 4 a window of 1024 slots at a
  // time, with a word per window for the cluster it defers); the census that counts the keys marks
  // where clusters start in the same read. Shrinking by 2 or 4 folds windows of 1024 new slots
  // (plan_rehash, launch_rebuild). Double hashing, other factors, or a table with no empty slot
  // insert every live key into new slots.
  const rehash_plan p = plan_rehash(capacity, s);
  buffer<W> fresh;
  // The new layout's reach words: set from its longest probe once every key is placed (below).
  buffer<std::uint32_t> fresh_reach;
  if (reach_regions(capacity) != reach_.size())
    fresh_reach =
        buffer<std::uint32_t>(memory_space::device, reach_regions(capacity));  // or throws
  buffer<std::uint32_t>& reach = fresh_reach.size() ? fresh_reach : reach_;
  if (!p.in_place) {
    fresh =
        buffer<W>(memory_space::device, capacity);  // throws, table unchanged, if it does not fit
    if (!p.by_windows && !p.shrink_windows)
      fill_bytes(fresh.data(), memory_space::device, 0xff, capacity * sizeof(W), s);
  }
  // The new layout's probe bound starts from zero; rejections and failures since clear carry over.
  HS_CUDA_CHECK(cudaMemsetAsync(&counters_.data()->max_displacement, 0, sizeof(unsigned), cuda(s)));
  HS_CUDA_CHECK(cudaMemsetAsync(scratch_.data(), 0, sizeof(unsigned long long),
                                cuda(s)));  // live keys placed
  W* out = p.in_place ? slots_.data() : fresh.data();
  const bool counted = launch_rebuild(p, out, fresh, s);
  HS_CUDA_CHECK_LAUNCH();
  // Rebuilt keys recorded only the longest probe: every region's reach becomes that bound (valid,
  // if looser than a region's own; exact again from the next clear).
  kernels::spread_reach<<<static_cast<unsigned>((reach.size() + kernels::k_block - 1) /
                                                kernels::k_block),
                          kernels::k_block, 0, cuda(s)>>>(reach.data(), reach.size(),
                                                          &counters_.data()->max_displacement);
  HS_CUDA_CHECK_LAUNCH();
  unsigned long long placed = 0;
  if (counted)
    HS_CUDA_CHECK(
        cudaMemcpyAsync(&placed, scratch_.data(), sizeof(placed), cudaMemcpyDeviceToHost, cuda(s)));
  synchronize(s);
  if (!p.in_place) slots_ = std::move(fresh);
  if (fresh_reach.size()) reach_ = std::move(fresh_reach);
  cfg_.capacity = capacity;
  mask_ = p.mask;
  const std::uint64_t moved = keys_rehashed(p.before, counted, placed, s);
  if (moved != p.before.live)
    throw gpu_error("rehash moved " + format_count(moved) + " of " + format_count(p.before.live) +
                    " live keys");
  std::lock_guard lock(bound_mutex_);
  bound_ = moved;
  counting_ = false;
}

template void basic_linear_table<slot_word>::rehash(std::uint64_t, stream_view);
template void basic_linear_table<wide_slot>::rehash(std::uint64_t, stream_view);

}  // namespace hs::linear
