// The CPU model's state (slab_state.hpp), laid out as the GPU table's.
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/slab/slab_model.hpp"
#include "core/slab/slab_state.hpp"

namespace hs::slab {

state_shape read_state_shape(const table_state& st, const pool_shape& pool) {
  state_shape sh;
  sh.buckets = st.number("buckets");
  sh.super_blocks = st.number("super_blocks");
  if (sh.buckets == 0 || sh.buckets > (std::uint64_t{1} << 32))
    throw user_error("a slab table's state of " + format_count(sh.buckets) + " buckets");
  if (sh.super_blocks == 0 || sh.super_blocks > pool.max_super_blocks)
    throw user_error(strprintf("a slab table's state with %s super blocks; this pool holds 1 to %u",
                               format_count(sh.super_blocks).c_str(), pool.max_super_blocks));
  if (const std::uint64_t b = st.number("blocks_per_super"); b != pool.blocks_per_super)
    throw user_error(strprintf(
        "the state's pool has %s memory blocks a super block and this table's %u: it comes from "
        "a slab table made at another size (SlabAlloc's blocks follow the buckets it was made "
        "with); open it as a table of its own, made at the size it was made at",
        format_count(b).c_str(), pool.blocks_per_super));
  sh.slab_words = pool.slabs_per_super() * k_slab_words;
  sh.bitmap_words = std::uint64_t{pool.blocks_per_super} * k_bitmap_words;
  st.sized_part(k_base_part, sh.buckets * k_slab_bytes);
  st.sized_part(k_slabs_part, sh.super_blocks * sh.slab_words * 4);
  st.sized_part(k_bitmaps_part, sh.super_blocks * sh.bitmap_words * 4);
  return sh;
}

table_state slab_model::save_state(stream_view s) {
  std::lock_guard lock(mutex_);
  table_state st;
  st.config = cfg_;
  const auto join = [](const std::vector<std::vector<std::uint32_t>>& per_super) {
    std::vector<std::uint32_t> all;
    for (const auto& words : per_super) all.insert(all.end(), words.begin(), words.end());
    return all;
  };
  const std::vector<std::uint32_t> slabs = join(img_.slabs), bitmaps = join(img_.bitmaps);
  st.add_part(std::string(k_base_part), memory_space::host, img_.base.data(), memory_space::host,
              img_.base.size(), s);
  st.add_part(std::string(k_slabs_part), memory_space::host, slabs.data(), memory_space::host,
              slabs.size(), s);
  st.add_part(std::string(k_bitmaps_part), memory_space::host, bitmaps.data(), memory_space::host,
              bitmaps.size(), s);
  st.set_number("buckets", img_.buckets);
  st.set_number("super_blocks", img_.slabs.size());
  st.set_number("blocks_per_super", shape_.blocks_per_super);
  st.set_number("resident_changes", 0);  // the model's operations run on no memory blocks
  st.set_number("alloc_failures", alloc_failures_);
  rejected_.save(st, failed_full_);
  return st;
}

void slab_model::restore_state(const table_state& st, stream_view s) {
  check_restorable(st.config, config());
  const state_shape sh = read_state_shape(st, shape_);
  slab_image img;
  img.mode = cfg_.slab.mode;
  img.hash = cfg_.hash;
  img.buckets = static_cast<std::uint32_t>(sh.buckets);
  img.blocks_per_super = shape_.blocks_per_super;
  img.base = st.host_part<std::uint32_t>(k_base_part, sh.buckets * k_slab_words, s);
  const auto slabs = st.host_part<std::uint32_t>(k_slabs_part, sh.super_blocks * sh.slab_words, s);
  const auto bitmaps =
      st.host_part<std::uint32_t>(k_bitmaps_part, sh.super_blocks * sh.bitmap_words, s);
  for (std::uint64_t i = 0; i < sh.super_blocks; ++i) {
    img.slabs.emplace_back(slabs.begin() + i * sh.slab_words,
                           slabs.begin() + (i + 1) * sh.slab_words);
    img.bitmaps.emplace_back(bitmaps.begin() + i * sh.bitmap_words,
                             bitmaps.begin() + (i + 1) * sh.bitmap_words);
  }
  std::uint64_t rejected[k_op_kind_count], failed_full = 0;
  read_common_counters(st, rejected, failed_full);
  const std::uint64_t alloc_failures = st.number("alloc_failures");
  std::lock_guard lock(mutex_);
  img_ = std::move(img);
  cfg_.slab.buckets = sh.buckets;
  cfg_.capacity = sh.buckets * k_slab_pairs;
  next_fit_ = 0;
  rejected_.copy_from(rejected);
  failed_full_ = failed_full;
  alloc_failures_ = alloc_failures;
}

}  // namespace hs::slab
