// Deterministic key streams: every key is a pure function of (seed, distribution, index), computed
// identically by GPU kernels and host code, so both backends see the same keys for the same seed.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/common/bit_math.hpp"
#include "core/common/host_device.hpp"
#include "core/common/types.hpp"

namespace hs::workload {

/// @brief The splitmix64 finalizer: a fast, well-mixing 64-bit bijection.
HS_HD std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

/// @brief Counter-based random numbers: independent streams of independent draws.
HS_HD std::uint64_t random_u64(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return mix64(seed ^ mix64(stream * 0x9e3779b97f4a7c15ull + index));
}
HS_HD std::uint32_t random_u32(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return static_cast<std::uint32_t>(random_u64(seed, stream, index) >> 32);
}

/// @brief A uniform double in [0, 1) with 53 random bits.
HS_HD double random_unit(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return static_cast<double>(random_u64(seed, stream, index) >> 11) * (1.0 / 9007199254740992.0);
}

/// @brief A keyed bijection of [0, domain): a balanced Feistel network on the smallest even
/// number of bits covering the domain, with cycle walking for values outside it. H holds a half:
/// 32 bits serve domains up to 2^32 (the arithmetic 32-bit keys were always drawn with), 64 bits
/// any domain up to 2^64 (64-bit keys).
template <class H>
HS_HD std::uint64_t feistel_permute(std::uint64_t seed, std::uint64_t x, std::uint64_t domain) {
  if (domain <= 1) return 0;
  int bits = floor_log2_64(domain - 1) + 1;
  bits += bits & 1;
  const int half = bits / 2;  // at most 32, so a half and its shift fit 64 bits
  const H half_mask = static_cast<H>((std::uint64_t{1} << half) - 1u);
  std::uint64_t v = x;
  do {
    H l = static_cast<H>(v >> half) & half_mask;
    H r = static_cast<H>(v) & half_mask;
    for (std::uint32_t round = 0; round < 4; ++round) {
      const H f = static_cast<H>(mix64(seed + round * 0x632be59bd9b4e019ull + r)) & half_mask;
      const H t = l ^ f;
      l = r;
      r = t;
    }
    v = (std::uint64_t{l} << half) | r;
  } while (v >= domain);
  return v;
}

/// @brief The bijection of [0, domain) for domains up to 2^32.
HS_HD std::uint32_t permute(std::uint64_t seed, std::uint32_t x, std::uint64_t domain) {
  return static_cast<std::uint32_t>(feistel_permute<std::uint32_t>(seed, x, domain));
}
/// @brief The bijection of [0, domain) for any domain up to 2^64.
HS_HD std::uint64_t permute_wide(std::uint64_t seed, std::uint64_t x, std::uint64_t domain) {
  return domain > (std::uint64_t{1} << 32) ? feistel_permute<std::uint64_t>(seed, x, domain)
                                           : feistel_permute<std::uint32_t>(seed, x, domain);
}

/// @brief Zipf(s) over ranks [0, n) by rejection-inversion (Hörmann and Derflinger): a few
/// logarithms and powers per draw, no tables, so it runs per element on the GPU.
struct zipf_sampler {
  double s = 1.0, n = 1.0;
  double h_x1 = 0, h_n = 0, cut = 0;

  HS_HD static double h_integral(double x, double s) {
    const double lx = log(x);
    const double t = (1.0 - s) * lx;
    // (x^(1-s) - 1) / (1-s), written to stay accurate as s approaches 1.
    return fabs(t) > 1e-8 ? expm1(t) / (1.0 - s) * 1.0 : lx * (1.0 + 0.5 * t);
  }
  HS_HD static double h_integral_inverse(double y, double s) {
    double t = y * (1.0 - s);
    if (t < -1.0) t = -1.0;
    const double l = fabs(t) > 1e-8 ? log1p(t) / (1.0 - s) : y * (1.0 - 0.5 * t);
    return exp(l);
  }
  HS_HD static double h(double x, double s) { return exp(-s * log(x)); }

  HS_HD zipf_sampler(double exponent, std::uint64_t count)
      : s(exponent), n(static_cast<double>(count)) {
    h_x1 = h_integral(1.5, s) - 1.0;
    h_n = h_integral(n + 0.5, s);
    cut = 2.0 - h_integral_inverse(h_integral(2.5, s) - h(2.0, s), s);
  }

  /// Draw number `index` of the stream, as a rank in [0, n).
  HS_HD std::uint64_t sample(std::uint64_t seed, std::uint64_t index) const {
    for (std::uint64_t attempt = 0;; ++attempt) {
      const double u = h_n + random_unit(seed, 7 + attempt, index) * (h_x1 - h_n);
      const double x = h_integral_inverse(u, s);
      double k = floor(x + 0.5);
      if (k < 1.0) k = 1.0;
      if (k > n) k = n;
      if (k - x <= cut || u >= h_integral(k + 0.5, s) - h(k, s) || attempt == 64)
        return static_cast<std::uint64_t>(k) - 1;
    }
  }
};

/// @brief Key distributions of a workload's insert stream.
enum class distribution : std::uint8_t {
  uniform_unique,  ///< distinct random keys (a keyed permutation of the key space)
  uniform_dup,     ///< random keys drawn with repetition from a universe of `universe` keys
  sequential,      ///< start, start + 1, ...
  clustered,       ///< runs of `cluster` consecutive keys at random places of the key space
  zipf,            ///< keys of a universe drawn with Zipf(`zipf_s`) popularity
  file,            ///< the keys of a key file, in its order (key_file.hpp), repeating past its end
};

/// @brief The parameters of a key stream (what the seed and distribution need at each index).
struct stream_params {
  distribution dist = distribution::uniform_unique;
  std::uint64_t seed = 1;
  std::uint64_t universe = 1u << 20;  ///< uniform_dup and zipf: number of distinct keys
  std::uint32_t cluster = 64;         ///< clustered: run length (a power of two)
  std::uint64_t start = 0;            ///< sequential: first key (below the key width's domain)
  /// 64: the keys are drawn as 64-bit IDs whatever the table's width, and a 32-bit table takes
  /// each folded to 32 bits (fold_id); 0: keys of the table's width.
  unsigned id_bits = 0;
  double zipf_s = 0.99;
  const key_type* file_keys = nullptr;       ///< file: its keys, in the memory generation runs in
  const wide_key* wide_file_keys = nullptr;  ///< file read for 64-bit keys: its keys (else null)
  std::uint64_t file_count = 0;              ///< file: how many (distinct)
};

/// @brief Where the keys of a width are drawn: from [0, domain), never a sentinel. Insert streams
/// use the lower half of the index space and miss streams the upper half, so a miss key is never
/// an inserted key. 64-bit keys spread over the whole 64-bit range.
template <class K>
struct key_space {
  static constexpr std::uint64_t domain = key_limits<K>::domain;
  static constexpr std::uint64_t half = std::uint64_t{1} << (sizeof(K) * 8 - 1);
};
inline constexpr std::uint64_t k_half = key_space<key_type>::half;

/// @brief A random draw as wide as the keys (32-bit draws keep the 32-bit streams as they were).
template <class K>
HS_HD std::uint64_t random_key_draw(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  if constexpr (sizeof(K) == 4)
    return random_u32(seed, stream, index);
  else
    return random_u64(seed, stream, index);
}

/// @brief (a + b) mod domain for a < domain, without overflowing 64 bits.
HS_HD std::uint64_t add_in_domain(std::uint64_t a, std::uint64_t b, std::uint64_t domain) {
  b %= domain;
  return a >= domain - b ? a - (domain - b) : a + b;
}

/// @brief Whether the distribution's keys, and its miss keys, are the keyed permutation of the
/// key space applied to an index (stream_index, miss_index).
HS_HD bool permuted(distribution d) {
  return d == distribution::uniform_unique || d == distribution::uniform_dup ||
         d == distribution::zipf;
}

/// @brief The index whose permutation is key number j of the insert stream (permuted only).
HS_HD std::uint64_t stream_index(const stream_params& p, std::uint64_t j,
                                 const zipf_sampler* zipf) {
  switch (p.dist) {
    case distribution::uniform_dup:
      return random_u32(p.seed, 1, j) % static_cast<std::uint32_t>(p.universe);
    case distribution::zipf: return zipf->sample(p.seed, j);
    default: return j;  // uniform_unique
  }
}

/// @brief The index whose permutation is miss key number r (permuted only). For 32-bit keys the
/// divisors are below 2^32, so 32-bit remainders give what 64-bit ones would, at a fraction of
/// their cost on a GPU.
template <class K>
HS_HD std::uint64_t miss_index(const stream_params& p, std::uint64_t r) {
  constexpr std::uint64_t domain = key_space<K>::domain;
  const std::uint64_t first =
      p.dist == distribution::uniform_unique ? key_space<K>::half : p.universe;
  if constexpr (sizeof(K) == 4)
    return first + random_u32(p.seed, 2, r) % static_cast<std::uint32_t>(domain - first);
  else
    return first + random_u64(p.seed, 2, r) % (domain - first);
}

/// @brief The permuted key of an index.
template <class K>
HS_HD K permuted_key(const stream_params& p, std::uint64_t index) {
  if constexpr (sizeof(K) == 4)
    return permute(p.seed, static_cast<std::uint32_t>(index), key_space<K>::domain);
  else
    return feistel_permute<std::uint64_t>(p.seed, index, key_space<K>::domain);
}

/// @brief Key i of a key file: a 64-bit table takes a file read for either width (32-bit keys are
/// 64-bit keys too); a 32-bit table only one read for 32 bits (validate refuses the other).
template <class K>
HS_HD K file_key(const stream_params& p, std::uint64_t i) {
  if constexpr (sizeof(K) == 8)
    if (p.wide_file_keys) return p.wide_file_keys[i];
  return p.file_keys[i];
}

/// @brief Key number j (j below the width's half) of the insert stream.
template <class K>
HS_HD K stream_key(const stream_params& p, std::uint64_t j, const zipf_sampler* zipf) {
  constexpr std::uint64_t domain = key_space<K>::domain;
  if (permuted(p.dist)) return permuted_key<K>(p, stream_index(p, j, zipf));
  switch (p.dist) {
    case distribution::sequential: return static_cast<K>(add_in_domain(p.start, j, domain));
    case distribution::file: return file_key<K>(p, j % p.file_count);
    case distribution::clustered: {
      const std::uint64_t runs = (domain / p.cluster) / 2;  // lower half of the runs
      const std::uint64_t run = permute_wide(p.seed, (j / p.cluster) % runs, runs);
      return static_cast<K>(run * p.cluster + j % p.cluster);
    }
    default: return 0;  // permuted: above
  }
}

/// @brief Miss key number r of a key file's workload, when `inserted` of its keys were taken: a key
/// of the file not taken yet (never in the table: the file's keys are distinct); once every key
/// was taken, a random key, which is in the file with odds of its keys over the key domain.
template <class K>
HS_HD K file_miss_key(const stream_params& p, std::uint64_t inserted, std::uint64_t r) {
  constexpr std::uint64_t domain = key_space<K>::domain, half = key_space<K>::half;
  const std::uint32_t x = random_u32(p.seed, 2, r);
  if (inserted < p.file_count)
    return file_key<K>(p, inserted + x % static_cast<std::uint32_t>(p.file_count - inserted));
  return permuted_key<K>(p, half + random_key_draw<K>(p.seed, 2, r) % (domain - half));
}

/// @brief Miss key number r: a key no index of the insert stream produces.
template <class K>
HS_HD K miss_key(const stream_params& p, std::uint64_t r) {
  constexpr std::uint64_t domain = key_space<K>::domain, half = key_space<K>::half;
  if (permuted(p.dist)) return permuted_key<K>(p, miss_index<K>(p, r));
  const std::uint64_t x = random_key_draw<K>(p.seed, 2, r);
  switch (p.dist) {
    case distribution::sequential:
      return static_cast<K>(add_in_domain(p.start, half + x % (domain - half), domain));
    case distribution::clustered: {
      const std::uint64_t all_runs = domain / p.cluster, runs = all_runs / 2;
      const std::uint64_t run = runs + x % (all_runs - runs);
      return static_cast<K>(run * p.cluster + random_u32(p.seed, 3, r) % p.cluster);
    }
    default: return 0;  // permuted: above
  }
}

/// @brief A 64-bit ID folded to a 32-bit key, as a table of 32-bit keys would be given it: its
/// halves xored, the two reserved keys wrapped to 0 and 1. Distinct IDs may fold to one key.
HS_HD key_type fold_id(wide_key id) {
  return static_cast<key_type>(static_cast<std::uint32_t>(id ^ (id >> 32)) % k_key_domain);
}

/// @brief The value stored with stream key j: never the reserved empty value, rarely zero.
template <class V>
HS_HD V stream_value(const stream_params& p, std::uint64_t j) {
  return static_cast<V>(random_key_draw<V>(p.seed, 4, j) & (key_limits<V>::empty >> 1));
}

}  // namespace hs::workload
