// The GPU table's state (slab_state.hpp): base slabs and the pool copied at device speed for a
// session's history, or from any memory space when a state is restored.
#include <cuda_runtime.h>

#include "core/common/cuda_check.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/slab/slab_state.hpp"
#include "core/slab/slab_table.hpp"

namespace hs::slab {

table_state slab_table::save_state(stream_view s) {
  std::shared_lock lock(table_mutex_);
  std::lock_guard pool_lock(pool_mutex_);
  HS_CUDA_CHECK(cudaDeviceSynchronize());  // every batch launched before, on any stream
  table_state st;
  st.config = cfg_;
  st.add_part(std::string(k_base_part), memory_space::device, base_.data(), memory_space::device,
              base_.size(), s);
  const std::uint64_t n = supers_.size();
  const std::uint64_t slab_words = shape_.slabs_per_super() * k_slab_words;
  const std::uint64_t bitmap_words = std::uint64_t{shape_.blocks_per_super} * k_bitmap_words;
  state_part slabs{std::string(k_slabs_part),
                   buffer<std::byte>(memory_space::device, n * slab_words * 4)};
  state_part bitmaps{std::string(k_bitmaps_part),
                     buffer<std::byte>(memory_space::device, n * bitmap_words * 4)};
  for (std::uint64_t i = 0; i < n; ++i) {
    copy_bytes(slabs.bytes.data() + i * slab_words * 4, memory_space::device,
               supers_[i]->slabs.data(), memory_space::device, slab_words * 4, s);
    copy_bytes(bitmaps.bytes.data() + i * bitmap_words * 4, memory_space::device,
               supers_[i]->bitmaps.data(), memory_space::device, bitmap_words * 4, s);
  }
  st.parts.push_back(std::move(slabs));
  st.parts.push_back(std::move(bitmaps));
  const std::vector<unsigned long long> k = counters_.download(k_pool_counters, s);
  st.set_number("buckets", buckets_);
  st.set_number("super_blocks", n);
  st.set_number("blocks_per_super", shape_.blocks_per_super);
  st.set_number("resident_changes", k[0]);
  st.set_number("alloc_failures", k[1]);
  const std::uint64_t rejected[k_op_kind_count] = {k[rejected_counter(op_kind::insert)],
                                                   k[rejected_counter(op_kind::find)],
                                                   k[rejected_counter(op_kind::erase)]};
  set_common_counters(st, rejected, k[3]);
  return st;
}

void slab_table::restore_state(const table_state& st, stream_view s) {
  check_restorable(st.config, config());
  const state_shape sh = read_state_shape(st, shape_);
  std::uint64_t rejected[k_op_kind_count], failed_full = 0;
  read_common_counters(st, rejected, failed_full);
  unsigned long long k[k_pool_counters] = {};
  k[0] = st.number("resident_changes");
  k[1] = st.number("alloc_failures");
  k[3] = failed_full;
  for (const op_kind kind : {op_kind::insert, op_kind::find, op_kind::erase})
    k[rejected_counter(kind)] = rejected[int(kind)];
  std::unique_lock lock(table_mutex_);
  std::lock_guard pool_lock(pool_mutex_);
  HS_CUDA_CHECK(cudaDeviceSynchronize());
  // Memory first (the base slabs of another bucket count, super blocks the state has more of):
  // a table that cannot have it keeps its lists as they were.
  buffer<std::uint32_t> base;
  if (sh.buckets != buckets_) base = buffer<std::uint32_t>(memory_space::device, sh.buckets * 32);
  while (supers_.size() < sh.super_blocks)
    if (!add_super_block(s))
      throw user_error("not enough GPU memory for the " + format_count(sh.super_blocks) +
                       " super blocks of the state's pool; the table is unchanged");
  supers_.resize(sh.super_blocks);  // super blocks beyond the state's are given back
  super_count_ = static_cast<std::uint32_t>(sh.super_blocks);
  if (base.size()) {
    base_ = std::move(base);
    buckets_ = static_cast<std::uint32_t>(sh.buckets);
    cfg_.slab.buckets = sh.buckets;
    cfg_.capacity = sh.buckets * k_slab_pairs;
  }
  st.copy_part(k_base_part, base_.data(), memory_space::device, sh.buckets * k_slab_words, s);
  const state_part& slabs = st.part(k_slabs_part);
  const state_part& bitmaps = st.part(k_bitmaps_part);
  for (std::uint64_t i = 0; i < sh.super_blocks; ++i) {
    copy_bytes(supers_[i]->slabs.data(), memory_space::device,
               slabs.bytes.data() + i * sh.slab_words * 4, slabs.bytes.space(), sh.slab_words * 4,
               s);
    copy_bytes(supers_[i]->bitmaps.data(), memory_space::device,
               bitmaps.bytes.data() + i * sh.bitmap_words * 4, bitmaps.bytes.space(),
               sh.bitmap_words * 4, s);
  }
  copy_bytes(counters_.data(), memory_space::device, k, memory_space::host, sizeof k, s);
  synchronize(s);  // `k` lives on this stack frame
  allocated_upper_ = allocated_slabs(s);
  last_failures_ = k[1];
  grow_pending_ = false;
  counted_pending_ = false;  // a count in flight counted the table before
}

}  // namespace hs::slab
