// Hash functions as small policy types, shared by kernels, CPU models and checkers.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/common/host_device.hpp"

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
  /// Murmur3's 64-bit finalizer (fmix64), for 64-bit keys.
  HS_HD std::uint64_t operator()(std::uint64_t k) const {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
  }
};

/// @brief Knuth's multiplicative hash with the golden-ratio constant. The table uses the low bits,
/// which depend only on the key's low bits: a teaching example of a weak hash for power-of-two
/// tables.
struct knuth_hash {
  HS_HD std::uint32_t operator()(std::uint32_t k) const { return k * 2654435761u; }
  /// The same with 2^64 / phi, for 64-bit keys (its low bits again see only the key's low bits).
  HS_HD std::uint64_t operator()(std::uint64_t k) const { return k * 0x9e3779b97f4a7c15ull; }
};

/// @brief The key itself: sequential keys fill the table without collisions, clustered keys pile
/// up.
struct identity_hash {
  HS_HD std::uint32_t operator()(std::uint32_t k) const { return k; }
  HS_HD std::uint64_t operator()(std::uint64_t k) const { return k; }
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
  /// For 64-bit keys the same family modulo the Mersenne prime 2^61 - 1, whose modulus folds
  /// with shifts (2^61 = 1 mod p): the 125-bit product a k splits at bit 61 into two parts that
  /// add up.
  static constexpr std::uint64_t p61 = (std::uint64_t{1} << 61) - 1;
  static constexpr std::uint64_t a61 = 0x1b873593cc9e2d51ull & p61, b61 = 0x0e6546b64f1bbcdcull;
  HS_HD std::uint64_t operator()(std::uint64_t k) const {
    std::uint64_t lo, hi;
    mul_wide(a61, k % p61, lo, hi);  // a61, k < 2^61: the product is below 2^122
    std::uint64_t x = (lo & p61) + ((lo >> 61) | (hi << 3)) + b61;  // < 3 p
    x = (x & p61) + (x >> 61);
    return x >= p61 ? x - p61 : x;
  }

 private:
  HS_HD static void mul_wide(std::uint64_t a, std::uint64_t b, std::uint64_t& lo,
                             std::uint64_t& hi) {
#ifdef __CUDA_ARCH__
    lo = a * b;
    hi = __umul64hi(a, b);
#else
    const unsigned __int128 x = static_cast<unsigned __int128>(a) * b;
    lo = static_cast<std::uint64_t>(x);
    hi = static_cast<std::uint64_t>(x >> 64);
#endif
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
