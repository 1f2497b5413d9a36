// The hive family's hash functions (the Hive paper, III-C and V-B): each key gets two or three of
// them, one per candidate bucket. BitHash1/2 are this project's own shift/xor/add mixers in the
// paper's style; Murmur3's finalizer; a CityHash-style 32-bit mix (multiply, rotate, xor-fold);
// CRC-32C, a bit at a time on the device (a table in constant memory serialized a warp's lookups)
// and through the byte table on the host (the CPU model).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/hash.hpp"
#include "core/common/host_device.hpp"

namespace hs::hive {

enum class hash_fn : std::uint8_t { bithash1, bithash2, murmur3, city, crc32 };
inline constexpr int k_hash_fn_count = 5;
std::string_view to_string(hash_fn f);
std::optional<hash_fn> parse_hash_fn(std::string_view s);

/// @brief The CRC-32C (Castagnoli, reflected 0x82F63B78) byte table, computed at compile time.
constexpr std::array<std::uint32_t, 256> make_crc32c_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int b = 0; b < 8; ++b) c = (c & 1u) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
    t[i] = c;
  }
  return t;
}
inline constexpr std::array<std::uint32_t, 256> k_crc32c_host = make_crc32c_table();

/// @brief Shift/xor/add avalanche with one odd multiply, in two variants with different shifts
/// and constants (the paper's BitHash1/BitHash2 are not published; these are ours, same style).
HS_HD std::uint32_t bithash1(std::uint32_t k) {
  k = (k + 0x7ed55d16u) + (k << 12);
  k = (k ^ 0xc761c23cu) ^ (k >> 19);
  k = (k + 0x165667b1u) + (k << 5);
  k = (k * 0x2c1b3c6du) ^ (k >> 9);
  return k ^ (k >> 16);
}
HS_HD std::uint32_t bithash2(std::uint32_t k) {
  k = (k ^ 61u) ^ (k >> 16);
  k = k + (k << 3);
  k = k ^ (k >> 4);
  k = k * 0x27d4eb2du;
  k = k ^ (k >> 15);
  return (k + (k << 7)) ^ (k >> 13);
}
/// @brief CityHash-style mix of a 4-byte input: multiply, rotate, multiply, fold into a seed,
/// rotate, then the fmix-like finish (our constants where CityHash's are not needed).
HS_HD std::uint32_t cityhash32(std::uint32_t k) {
  const auto rot = [](std::uint32_t v, int s) { return (v >> s) | (v << (32 - s)); };
  std::uint32_t a = k * 0xcc9e2d51u;
  a = rot(a, 17) * 0x1b873593u;
  std::uint32_t h = 0x9747b28cu ^ a;
  h = rot(h, 19) * 5u + 0xe6546b64u;
  h ^= 4u;  // the input length, as CityHash folds it in
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}
/// @brief CRC-32C of the key's 4 bytes (little-endian), a bit at a time: no table. On the GPU a
/// table in constant memory serializes a warp's divergent reads (ncu on the H200: the bulk
/// inserts' partition passes at 96-98% of SM throughput, 0.9 ms each against murmur3's 0.08).
HS_HD std::uint32_t crc32c_bitwise(std::uint32_t k) {
  std::uint32_t c = 0xffffffffu ^ k;  // a reflected CRC takes a whole little-endian word at once
#pragma unroll
  for (int i = 0; i < 32; ++i) c = (c >> 1) ^ (0x82f63b78u & (0u - (c & 1u)));
  return ~c;
}
/// @brief The same CRC-32C a byte at a time through the table (the host's way; the reference).
inline std::uint32_t crc32c_by_table(std::uint32_t k) {
  std::uint32_t c = 0xffffffffu;
  for (int b = 0; b < 4; ++b) c = k_crc32c_host[(c ^ (k >> (8 * b))) & 0xffu] ^ (c >> 8);
  return ~c;
}
HS_HD std::uint32_t crc32c(std::uint32_t k) {
#if defined(__CUDA_ARCH__)
  return crc32c_bitwise(k);
#else
  return crc32c_by_table(k);
#endif
}

/// @brief Keeps a hash function's work in the branch that selects it. Without it the compiler
/// treated the five functions as free to compute ahead (pure, and the same for every switch on
/// the same key) and ran all of them for each key, the bitwise CRC's 32 steps included: ncu on
/// the resize's split kernel counted about 400 instructions a slot. An empty volatile asm on the
/// key cannot be moved out of its branch, so neither can what depends on it.
HS_HD std::uint32_t pinned(std::uint32_t k) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+r"(k));
#endif
  return k;
}

HS_HD std::uint32_t hash_with(hash_fn f, std::uint32_t k) {
  switch (f) {
    case hash_fn::bithash1: return bithash1(pinned(k));
    case hash_fn::bithash2: return bithash2(pinned(k));
    case hash_fn::murmur3: return murmur3_hash{}(pinned(k));
    case hash_fn::city: return cityhash32(pinned(k));
    case hash_fn::crc32: return crc32c(pinned(k));
  }
  return bithash1(k);
}

/// @brief Which functions give a key's candidate buckets: two or three.
struct hash_policy {
  std::array<hash_fn, 3> fns{hash_fn::bithash1, hash_fn::bithash2, hash_fn::city};
  int count = 2;
};
/// @brief The policy's i-th function, read at a fixed place. A kernel that indexes a policy among
/// its arguments at run time copies the arguments to local memory, in every thread: ncu on the
/// hive's split kernel (H200) saw 8.2M local-store sectors from 2^21 threads, L2 78% busy and
/// 113 MB written to DRAM where the buckets needed 16.
HS_HD hash_fn fn_at(const hash_policy& p, int i) {
  return i == 0 ? p.fns[0] : i == 1 ? p.fns[1] : p.fns[2];
}
std::string to_string(const hash_policy& p);
/// @brief "bithash1+bithash2" or "murmur3+city+crc32"; nullopt when malformed.
std::optional<hash_policy> parse_hash_policy(std::string_view s);

}  // namespace hs::hive
