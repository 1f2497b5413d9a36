// What an inspection of a slab table gives beyond the common parts: a bucket's slab list, the
// list lengths, SlabAlloc's blocks; and what a sample asks for to get them.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/common/probe_histogram.hpp"
#include "core/common/types.hpp"

namespace hs {

/// @brief One slab as stored: its 32 words (15 key-value pairs, the auxiliary word, the next
/// pointer) and its 32-bit SlabAlloc address (k_base_address for a bucket's base slab).
struct slab_record {
  static constexpr std::uint32_t k_base_address = 0xfffffffeu;
  std::uint32_t address = k_base_address;
  std::uint32_t words[32] = {};
};

/// @brief A bucket's slab list, base slab first; `total` counts all its slabs (more than the
/// records when the chain was cut at the request's limit).
struct slab_chain {
  std::uint64_t bucket = 0;
  std::vector<slab_record> slabs;
  std::uint64_t total = 0;
};

/// @brief SlabAlloc's state: allocated slabs per memory block (0..1024), blocks in super-block
/// order.
struct allocator_image {
  std::uint32_t blocks_per_super = 0, super_blocks = 0;
  std::vector<std::uint16_t> block_fill;
};

struct slab_inspect_request {
  bool chain_lengths = false;                 ///< histogram of slabs per bucket
  std::optional<std::uint64_t> chain_bucket;  ///< the slab list of one bucket
  std::uint32_t chain_limit = 64;             ///< most slabs of that list to copy
  bool allocator = false;                     ///< SlabAlloc's memory blocks
};

/// @brief Whether two samples read the slab's part alike: the same picked list. (The histogram
/// and SlabAlloc's blocks are read whole, whichever slots are shown.)
inline bool same_reading(const slab_inspect_request& a, const slab_inspect_request& b) {
  return a.chain_bucket == b.chain_bucket;
}

struct slab_inspect_result {
  hs::probe_histogram chains;  ///< slabs per bucket
  slab_chain chain;
  allocator_image allocator;
};

}  // namespace hs
