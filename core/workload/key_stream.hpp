// Deterministic key streams: every key is a pure function of (seed, distribution, index), computed
// identically by GPU kernels and host code, so both backends see the same keys for the same seed.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/common/bit_math.hpp"
#include "core/common/hd.hpp"
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
HS_HD std::uint32_t random_u32(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return static_cast<std::uint32_t>(mix64(seed ^ mix64(stream * 0x9e3779b97f4a7c15ull + index)) >>
                                    32);
}

/// @brief A uniform double in [0, 1) with 53 random bits.
HS_HD double random_unit(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  const std::uint64_t r = mix64(seed ^ mix64(stream * 0x9e3779b97f4a7c15ull + index));
  return static_cast<double>(r >> 11) * (1.0 / 9007199254740992.0);
}

/// @brief A keyed bijection of [0, domain) (domain <= 2^32): a balanced Feistel network on the
/// smallest even number of bits covering the domain, with cycle walking for values outside it.
HS_HD std::uint32_t permute(std::uint64_t seed, std::uint32_t x, std::uint64_t domain) {
  if (domain <= 1) return 0;
  int bits = floor_log2_64(domain - 1) + 1;
  bits += bits & 1;
  const int half = bits / 2;
  const std::uint32_t half_mask = (1u << half) - 1u;
  std::uint64_t v = x;
  do {
    std::uint32_t l = static_cast<std::uint32_t>(v >> half) & half_mask;
    std::uint32_t r = static_cast<std::uint32_t>(v) & half_mask;
    for (std::uint32_t round = 0; round < 4; ++round) {
      const std::uint32_t f =
          static_cast<std::uint32_t>(mix64(seed + round * 0x632be59bd9b4e019ull + r)) & half_mask;
      const std::uint32_t t = l ^ f;
      l = r;
      r = t;
    }
    v = (std::uint64_t{l} << half) | r;
  } while (v >= domain);
  return static_cast<std::uint32_t>(v);
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
  std::uint32_t start = 0;            ///< sequential: first key
  double zipf_s = 0.99;
  const key_type* file_keys = nullptr;  ///< file: its keys, in the memory generation runs in
  std::uint64_t file_count = 0;         ///< file: how many (distinct)
};

/// Keys are drawn from [0, k_key_domain): never a sentinel. Insert streams use the lower half of
/// the index space and miss streams the upper half, so a miss key is never an inserted key.
inline constexpr std::uint64_t k_half = 1ull << 31;

/// @brief Whether the distribution's keys, and its miss keys, are the keyed permutation of the
/// key space applied to an index (stream_index, miss_index).
HS_HD bool permuted(distribution d) {
  return d == distribution::uniform_unique || d == distribution::uniform_dup ||
         d == distribution::zipf;
}

/// @brief The index whose permutation is key number j of the insert stream (permuted only).
HS_HD std::uint32_t stream_index(const stream_params& p, std::uint64_t j,
                                 const zipf_sampler* zipf) {
  switch (p.dist) {
    case distribution::uniform_dup:
      return random_u32(p.seed, 1, j) % static_cast<std::uint32_t>(p.universe);
    case distribution::zipf: return static_cast<std::uint32_t>(zipf->sample(p.seed, j));
    default: return static_cast<std::uint32_t>(j);  // uniform_unique
  }
}

/// @brief The index whose permutation is miss key number r (permuted only). The divisors are below
/// 2^32, so 32-bit remainders give what 64-bit ones would, at a fraction of their cost on a GPU.
HS_HD std::uint32_t miss_index(const stream_params& p, std::uint64_t r) {
  const std::uint32_t x = random_u32(p.seed, 2, r);
  const std::uint64_t first = p.dist == distribution::uniform_unique ? k_half : p.universe;
  return static_cast<std::uint32_t>(first + x % static_cast<std::uint32_t>(k_key_domain - first));
}

/// @brief Key number j (j < 2^31) of the insert stream.
HS_HD key_type stream_key(const stream_params& p, std::uint64_t j, const zipf_sampler* zipf) {
  if (permuted(p.dist)) return permute(p.seed, stream_index(p, j, zipf), k_key_domain);
  switch (p.dist) {
    case distribution::sequential: return static_cast<key_type>((p.start + j) % k_key_domain);
    case distribution::file: return p.file_keys[j % p.file_count];
    case distribution::clustered: {
      const std::uint64_t runs = (k_key_domain / p.cluster) / 2;  // lower half of the runs
      const std::uint32_t run =
          permute(p.seed, static_cast<std::uint32_t>((j / p.cluster) % runs), runs);
      return static_cast<key_type>(std::uint64_t{run} * p.cluster + j % p.cluster);
    }
    default: return 0;  // permuted: above
  }
}

/// @brief Miss key number r of a key file's workload, when `inserted` of its keys were taken: a key
/// of the file not taken yet (never in the table: the file's keys are distinct); once every key
/// was taken, a random key, which is in the file with odds of its keys over 2^32.
HS_HD key_type file_miss_key(const stream_params& p, std::uint64_t inserted, std::uint64_t r) {
  const std::uint32_t x = random_u32(p.seed, 2, r);
  if (inserted < p.file_count)
    return p.file_keys[inserted + x % static_cast<std::uint32_t>(p.file_count - inserted)];
  return permute(p.seed, static_cast<std::uint32_t>(k_half + x % (k_key_domain - k_half)),
                 k_key_domain);
}

/// @brief Miss key number r: a key no index of the insert stream produces.
HS_HD key_type miss_key(const stream_params& p, std::uint64_t r) {
  if (permuted(p.dist)) return permute(p.seed, miss_index(p, r), k_key_domain);
  const std::uint32_t x = random_u32(p.seed, 2, r);
  switch (p.dist) {
    case distribution::sequential:
      return static_cast<key_type>((p.start + k_half + x % (k_key_domain - k_half)) % k_key_domain);
    case distribution::clustered: {
      const std::uint64_t all_runs = k_key_domain / p.cluster, runs = all_runs / 2;
      const std::uint64_t run = runs + x % (all_runs - runs);
      return static_cast<key_type>(run * p.cluster + random_u32(p.seed, 3, r) % p.cluster);
    }
    default: return 0;  // permuted: above
  }
}

/// @brief The value stored with stream key j: never the reserved empty value, rarely zero.
HS_HD value_type stream_value(const stream_params& p, std::uint64_t j) {
  return random_u32(p.seed, 4, j) & 0x7fffffffu;
}

}  // namespace hs::workload
