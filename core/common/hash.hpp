// Hash functions as small policy types, shared by kernels, CPU models and checkers.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/common/hd.hpp"

namespace hs {

/// @brief Murmur3's 32-bit finalizer (fmix32): the hash of seeds 000/001.
struct murmur3_hash {
  HS_HD std::uint32_t operator()(std::uint32_t k) const {
    k ^= k >> 16;
    k *= 0x85ebca6bu;
    k ^= k >> 13;
    k *= 0xc2b2ae35u;
    k ^= k >> 16;
    return k;
  }
};

/// @brief Knuth's multiplicative hash with the golden-ratio constant. The table uses the low bits,
/// which depend only on the key's low bits: a teaching example of a weak hash for power-of-two
/// tables.
struct knuth_hash {
  HS_HD std::uint32_t operator()(std::uint32_t k) const { return k * 2654435761u; }
};

/// @brief The key itself: sequential keys fill the table without collisions, clustered keys pile
/// up.
struct identity_hash {
  HS_HD std::uint32_t operator()(std::uint32_t k) const { return k; }
};

/// @brief The universal hash of SlabHash, h(k) = (a k + b) mod p with p = 2^32 - 5 (a prime) and
/// fixed random a, b; a table reduces it further (mod B buckets, or its low bits). The modulus is
/// taken without a division: 2^32 = 5 (mod p), so x = hi 2^32 + lo folds to 5 hi + lo.
struct universal_hash {
  static constexpr std::uint64_t p = 4294967291ull;
  static constexpr std::uint64_t a = 2246822519ull, b = 3266489917ull;
  HS_HD std::uint32_t operator()(std::uint32_t k) const {
    std::uint64_t x = a * k + b;              // < 2^64: a, b < 2^32
    x = (x >> 32) * 5 + (x & 0xffffffffull);  // < 5 * 2^32 + 2^32
    x = (x >> 32) * 5 + (x & 0xffffffffull);  // < 2^32 + 25
    if (x >= p) x -= p;
    return static_cast<std::uint32_t>(x);
  }
};

/// @brief Runtime choice of hash policy (tables dispatch once to templated kernels).
enum class hash_kind : std::uint8_t { murmur3 = 0, knuth = 1, identity = 2, universal = 3 };

std::string_view to_string(hash_kind h);
std::optional<hash_kind> parse_hash_kind(std::string_view name);
std::span<const hash_kind> all_hash_kinds();

/// @brief Calls f(policy) with the policy type for h; kernels are instantiated once per policy.
template <class F>
decltype(auto) dispatch_hash(hash_kind h, F&& f) {
  switch (h) {
    case hash_kind::knuth: return f(knuth_hash{});
    case hash_kind::identity: return f(identity_hash{});
    case hash_kind::universal: return f(universal_hash{});
    case hash_kind::murmur3: break;
  }
  return f(murmur3_hash{});
}

}  // namespace hs
