// The slab layout of SlabHash, shared by kernels, the CPU model, the invariant checker and the
// views: a slab is 32 words of 32 bits (128 bytes); words 0..29 hold 15 key-value pairs (keys in
// even words, values in odd words), word 30 is auxiliary, word 31 the next slab's address. Base
// slabs (one per bucket) sit in one array; chained slabs come from SlabAlloc and are named by a
// 32-bit address: 10 bits slab, 14 bits memory block, 8 bits super block.
#pragma once
#include <cstdint>

#include "core/common/host_device.hpp"
#include "core/common/types.hpp"
#include "core/table/table.hpp"

namespace hs::slab {

inline constexpr int k_slab_words = 32;
inline constexpr int k_slab_pairs = 15;
inline constexpr int k_aux_word = 30;
inline constexpr int k_next_word = 31;
inline constexpr std::uint64_t k_slab_bytes = k_slab_words * 4;

/// @brief The next pointer of a list's last slab (the paper's empty address pointer).
inline constexpr std::uint32_t k_null_address = 0xffffffffu;

inline constexpr int k_unit_bits = 10, k_block_bits = 14, k_super_bits = 8;
inline constexpr std::uint32_t k_slabs_per_block = 1u << k_unit_bits;        // 1024 memory units
inline constexpr std::uint32_t k_bitmap_words = k_slabs_per_block / 32;      // 32 words per block
inline constexpr std::uint32_t k_max_blocks_per_super = 1u << k_block_bits;  // 16384
/// Super block 255 is never created, so no address equals k_null_address.
inline constexpr std::uint32_t k_max_super_blocks = (1u << k_super_bits) - 1;

HS_HD std::uint32_t make_address(std::uint32_t super, std::uint32_t block, std::uint32_t unit) {
  return (super << (k_unit_bits + k_block_bits)) | (block << k_unit_bits) | unit;
}
HS_HD std::uint32_t super_of(std::uint32_t address) {
  return address >> (k_unit_bits + k_block_bits);
}
/// @brief Slab index inside its super block (block * 1024 + unit).
HS_HD std::uint32_t index_in_super(std::uint32_t address) {
  return address & ((1u << (k_unit_bits + k_block_bits)) - 1);
}

/// @brief A key word's meaning. Deleted pairs are tombstones (unique mode) or empty (multi mode).
HS_HD bool is_live_key(std::uint32_t k) { return k < k_tombstone; }

/// @brief What DELETE writes into the key word: a tombstone keeps REPLACE from inserting a key in
/// front of a later copy (unique mode); with duplicates allowed the pair simply becomes empty.
HS_HD std::uint32_t deleted_key(slab_mode m) {
  return m == slab_mode::unique ? k_tombstone : k_empty;
}

/// @brief A pair as one 64-bit word (key in the low half: the key word comes first in memory).
HS_HD std::uint64_t pack_pair(std::uint32_t key, std::uint32_t value) {
  return std::uint64_t{key} | (std::uint64_t{value} << 32);
}
inline constexpr std::uint64_t k_empty_pair = 0xffffffffffffffffull;

/// @brief The bucket of a key: the hash reduced modulo the bucket count (SlabHash: h(k) mod B).
template <class Hash>
HS_HD std::uint32_t bucket_of(Hash h, key_type k, std::uint32_t buckets) {
  return h(k) % buckets;
}

}  // namespace hs::slab
