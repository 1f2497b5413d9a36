// A host copy of a slab table: base slabs, SlabAlloc's super blocks and their bitmaps, exactly as
// stored. The CPU model keeps its state in one; the GPU table downloads one for tests; the
// invariant checker and the CPU backend's inspection read one.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/hash.hpp"
#include "core/slab/slab_layout.hpp"
#include "core/table/inspection.hpp"
#include "core/table/table.hpp"

namespace hs::slab {

struct slab_image {
  slab_mode mode = slab_mode::unique;
  hash_kind hash = hash_kind::universal;
  std::uint32_t buckets = 0;
  std::uint32_t blocks_per_super = 0;
  std::vector<std::uint32_t> base;                ///< buckets * 32 words
  std::vector<std::vector<std::uint32_t>> slabs;  ///< per super block: blocks * 1024 * 32 words
  std::vector<std::vector<std::uint32_t>>
      bitmaps;  ///< per super block: blocks * 32 words, bit set = allocated

  std::uint32_t bucket_of(key_type k) const;
  std::uint32_t* base_slab(std::uint32_t bucket) {
    return base.data() + std::size_t{bucket} * k_slab_words;
  }
  const std::uint32_t* base_slab(std::uint32_t bucket) const {
    return base.data() + std::size_t{bucket} * k_slab_words;
  }
  /// @brief The slab at a SlabAlloc address, or null when the address names no slab of the pool.
  std::uint32_t* pool_slab(std::uint32_t address);
  const std::uint32_t* pool_slab(std::uint32_t address) const;
  bool allocated(std::uint32_t address) const;
  std::uint64_t pool_capacity() const {
    return std::uint64_t{blocks_per_super} * k_slabs_per_block * slabs.size();
  }
  /// @brief Appends an empty super block (all slabs free).
  void add_super_block();
};

/// @brief Calls f(words, address, position) for the slabs of a bucket's list in order (address
/// slab_record::k_base_address for the base slab) until f returns false, the list ends, a next
/// pointer names no slab, or more slabs than the pool holds were visited (a cycle). Returns how the
/// walk ended.
enum class walk_end : std::uint8_t { list_end, stopped, bad_pointer, cycle };
template <class F>
walk_end walk_chain(const slab_image& img, std::uint32_t bucket, F&& f) {
  const std::uint32_t* words = img.base_slab(bucket);
  std::uint32_t address = slab_record::k_base_address;
  const std::uint64_t limit = img.pool_capacity() + 1;
  for (std::uint64_t pos = 0;; ++pos) {
    if (pos > limit) return walk_end::cycle;
    if (!f(words, address, pos)) return walk_end::stopped;
    address = words[k_next_word];
    if (address == k_null_address) return walk_end::list_end;
    words = img.pool_slab(address);
    if (!words) return walk_end::bad_pointer;
  }
}

/// @brief Counts over every bucket list (what stats reports).
struct image_census {
  std::uint64_t live = 0, deleted = 0;  ///< deleted: tombstones (unique mode)
  std::uint64_t chained = 0;            ///< slabs reachable beyond the base slabs
  std::uint64_t longest = 0;            ///< slabs in the longest list, base included
  std::uint64_t allocated = 0;          ///< bits set in SlabAlloc's bitmaps
};
image_census census(const slab_image& img);

/// @brief Fills what the request asks for from an image (the CPU backend's inspection).
void inspect_image(const slab_image& img, const inspect_request& req, inspect_result& out);

/// @brief Stats from a census (capacity is 15 pairs per base slab).
table_stats stats_from_census(const image_census& c, std::uint64_t buckets,
                              std::uint64_t pool_slabs, std::uint64_t super_blocks,
                              std::uint64_t bytes);

}  // namespace hs::slab
