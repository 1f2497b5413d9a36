// The GPU table's state (hive_state.hpp): buckets, their meta words and the stash copied at device
// speed for a session's history, or from any memory space when a state is restored.
#include <cuda_runtime.h>

#include "core/common/cuda_check.hpp"
#include "core/hive/hive_launch.hpp"
#include "core/hive/hive_state.hpp"
#include "core/hive/hive_table.hpp"

namespace hs::hive {

table_state hive_table::save_state(stream_view s) {
  std::shared_lock lock(table_mutex_);
  HS_CUDA_CHECK(cudaDeviceSynchronize());  // every batch launched before, on any stream
  table_state st;
  st.config = cfg_;  // the capacity it was made with (its shape); round and split say the rest
  st.config.hive.instrument = instrument_;
  const std::uint64_t buckets = geo_.buckets();
  st.add_part(std::string(k_words_part), memory_space::device, words_.data(), memory_space::device,
              buckets * shape_.slots, s);
  st.add_part(std::string(k_meta_part), memory_space::device, bucket_meta_.data(),
              memory_space::device, buckets, s);
  st.add_part(std::string(k_stash_part), memory_space::device, stash_.data(), memory_space::device,
              stash_.size(), s);
  launch_fold_tallies(ref(), s);
  const auto c = counters_.download(c_count, s);
  const auto meta = meta_.download(2, s);
  st.set_number("round", geo_.round);
  st.set_number("split", geo_.split);
  state_counters sc;
  for (int i = 0; i < 4; ++i) sc.steps[i] = c[c_step1 + i];
  sc.moves = c[c_moves];
  sc.locks = c[c_locks];
  sc.restarts = c[c_restarts];
  for (int d = 0; d <= k_max_eviction_depth; ++d) sc.path_lengths[d] = c[c_path_len0 + d];
  sc.splits = splits_;
  sc.merges = merges_;
  sc.merges_refused = merges_refused_;
  sc.stash_used = std::min<std::uint64_t>(meta[0], shape_.stash_capacity);
  sc.stash_live = meta[1];
  set_state_counters(st, sc);
  std::uint64_t rejected[k_op_kind_count];
  for (int k = 0; k < k_op_kind_count; ++k)
    rejected[k] = c[rejected_counter(static_cast<op_kind>(k))];
  set_common_counters(st, rejected, c[c_pending]);
  return st;
}

void hive_table::restore_state(const table_state& st, stream_view s) {
  check_restorable(st.config, config());
  const geometry geo = read_state_geometry(st, shape_);
  const std::uint64_t stash_words = read_state_stash(st);
  const state_counters sc = read_state_counters(st);
  std::uint64_t rejected[k_op_kind_count], failed_full = 0;
  read_common_counters(st, rejected, failed_full);
  std::vector<unsigned long long> c(c_count, 0);
  for (int i = 0; i < 4; ++i) c[c_step1 + i] = sc.steps[i];
  c[c_moves] = sc.moves;
  c[c_locks] = sc.locks;
  c[c_restarts] = sc.restarts;
  for (int d = 0; d <= k_max_eviction_depth; ++d) c[c_path_len0 + d] = sc.path_lengths[d];
  for (int k = 0; k < k_op_kind_count; ++k)
    c[rejected_counter(static_cast<op_kind>(k))] = rejected[k];
  c[c_pending] = failed_full;
  const unsigned long long meta[3] = {sc.stash_used, sc.stash_live, 0};
  std::unique_lock lock(table_mutex_);
  HS_CUDA_CHECK(cudaDeviceSynchronize());
  const std::uint64_t buckets = geo.buckets();
  // The state's stash size wins (hive_state.hpp); its memory is had before anything changes.
  const bool resize_stash = stash_words != stash_.size();
  buffer<word_type> stash =
      resize_stash ? buffer<word_type>(memory_space::device, stash_words) : buffer<word_type>();
  if (buckets > allocated_) {  // room first: a table that cannot have it stays as it was
    buffer<word_type> words(memory_space::device, buckets * shape_.slots);
    buffer<meta_word> bucket_meta(memory_space::device, buckets);
    words_ = std::move(words);
    bucket_meta_ = std::move(bucket_meta);
    allocated_ = buckets;
  }
  if (resize_stash) {
    stash_ = std::move(stash);
    shape_.stash_capacity = static_cast<std::uint32_t>(stash_words);
  }
  geo_ = geo;
  st.copy_part(k_words_part, words_.data(), memory_space::device, buckets * shape_.slots, s);
  st.copy_part(k_meta_part, bucket_meta_.data(), memory_space::device, buckets, s);
  st.copy_part(k_stash_part, stash_.data(), memory_space::device, stash_.size(), s);
  // Buckets past the state's stay allocated, empty, as a contraction leaves them.
  if (allocated_ > buckets) launch_reset_buckets(ref(), buckets, allocated_, s);
  counters_.upload(c, s);
  fill_bytes(tallies_.data(), memory_space::device, 0, tallies_.size() * sizeof(unsigned long long),
             s);
  copy_bytes(meta_.data(), memory_space::device, meta, memory_space::host, sizeof meta, s);
  splits_ = sc.splits;
  merges_ = sc.merges;
  merges_refused_ = sc.merges_refused;
  synchronize(s);  // `meta` and `c` live on this stack frame
  const auto live = census(s);
  live_bound_ = live[0] + live[1];
  erases_since_ = 0;
}

}  // namespace hs::hive
