// The slab family's options and the counters it reports beyond the common ones.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hs {

/// @brief Whether a slab table keeps keys unique (INSERT means REPLACE; DELETE leaves a tombstone)
/// or allows duplicates (INSERT adds another pair; DELETE empties the pair for reuse). SlabHash.
enum class slab_mode : std::uint8_t { unique, multi };
std::string_view to_string(slab_mode m);
std::optional<slab_mode> parse_slab_mode(std::string_view s);

/// @brief Shape and execution choices of a slab table (SlabHash).
struct slab_options {
  slab_mode mode = slab_mode::unique;
  std::uint64_t buckets = 0;  ///< base slabs; 0: the capacity / 15, rounded up
  int tile = 0;  ///< threads sharing one slab: 32 (the paper's warp), 16 or 8; 0: automatic
  std::uint64_t pool_slabs =
      0;  ///< slabs SlabAlloc holds at creation; 0: about a quarter of the buckets
  std::uint64_t pool_limit = 0;  ///< most slabs the pool may grow to; 0: what memory allows
};

/// @brief What a slab table reports beyond the common counters (zero for the other families).
struct slab_counters {
  std::uint64_t buckets = 0;        ///< base slabs
  std::uint64_t chained_slabs = 0;  ///< slabs linked into the bucket lists (beyond the base slabs)
  /// @brief Slabs SlabAlloc's bitmaps mark allocated. Equal to chained_slabs between batches;
  /// more would be slabs leaked (allocated, in no list), which the invariant checker reports.
  std::uint64_t allocated_slabs = 0;
  std::uint64_t pool_slabs = 0;  ///< slabs SlabAlloc holds (allocated or free)
  std::uint64_t super_blocks = 0;
  std::uint64_t resident_changes =
      0;                             ///< times a tile moved to another memory block, since creation
  std::uint64_t alloc_failures = 0;  ///< allocations that found no free slab, since clear
  std::uint64_t longest_chain = 0;   ///< slabs in the longest bucket list (base included)
  /// @brief Stored bytes over all slab memory in use (base and chained slabs, pointers and empty
  /// lanes included): the paper's memory utilization.
  double utilization = 0;
  /// @brief Adds another shard's counters (core/shard): sums, the longest chain of either, and
  /// the utilization weighted by each shard's slabs in use.
  void add_shard(const slab_counters& o) {
    const double mine = double(buckets + chained_slabs),
                 theirs = double(o.buckets + o.chained_slabs);
    utilization =
        mine + theirs > 0 ? (utilization * mine + o.utilization * theirs) / (mine + theirs) : 0;
    buckets += o.buckets;
    chained_slabs += o.chained_slabs;
    allocated_slabs += o.allocated_slabs;
    pool_slabs += o.pool_slabs;
    super_blocks += o.super_blocks;
    resident_changes += o.resident_changes;
    alloc_failures += o.alloc_failures;
    longest_chain = longest_chain > o.longest_chain ? longest_chain : o.longest_chain;
  }
};

}  // namespace hs
