#include "core/slab/slab_sizing.hpp"

#include <cmath>

#include "core/common/error.hpp"
#include "core/slab/slab_layout.hpp"

namespace hs::slab {

std::uint64_t buckets_for_beta(std::uint64_t n, double beta) {
  if (!(beta > 0)) throw user_error("the average slab count beta must be positive");
  const double b = std::ceil(static_cast<double>(n) / (k_slab_pairs * beta));
  return b < 1 ? 1 : static_cast<std::uint64_t>(b);
}

double expected_slabs_per_bucket(double beta) {
  // Sum over the Poisson distribution of a bucket's key count x: max(1, ceil(x / 15)) slabs.
  const double lambda = beta * k_slab_pairs;
  const auto last = static_cast<std::uint64_t>(lambda + 12 * std::sqrt(lambda + 1) + 60);
  double expected = 0, log_p = -lambda;  // log P(x = 0)
  for (std::uint64_t x = 0; x <= last; ++x) {
    if (x > 0) log_p += std::log(lambda) - std::log(static_cast<double>(x));
    const std::uint64_t slabs = x == 0 ? 1 : (x + k_slab_pairs - 1) / k_slab_pairs;
    expected += std::exp(log_p) * static_cast<double>(slabs);
  }
  return expected;
}

double utilization_for_beta(double beta) {
  return 8.0 * k_slab_pairs * beta / (k_slab_bytes * expected_slabs_per_bucket(beta));
}

double beta_for_utilization(double u) {
  constexpr double ceiling = 8.0 * k_slab_pairs / k_slab_bytes;  // 0.9375
  if (!(u > 0) || u >= ceiling * 0.995)
    throw user_error(
        "memory utilization must be above 0 and below 0.93 (a slab stores 120 of its 128 bytes)");
  // Utilization is not monotone in beta: it peaks near 0.66 at beta 0.9, dips while most buckets
  // get a second, nearly empty slab, then rises again (the paper's cliff). Take the smallest beta.
  double hi = 0.01;
  while (utilization_for_beta(hi) < u) hi += 0.01;
  double lo = hi - 0.01;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (utilization_for_beta(mid) < u ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace hs::slab

#include <algorithm>

#include "core/common/format.hpp"

namespace hs::slab {

std::uint64_t resolve_buckets(const table_config& cfg) {
  std::uint64_t b = cfg.slab.buckets;
  if (b == 0) {
    const std::uint64_t cap = cfg.capacity ? cfg.capacity : default_capacity(cfg.backend);
    b = (cap + k_slab_pairs - 1) / k_slab_pairs;
  }
  if (b == 0) throw user_error("a slab table needs at least one bucket");
  if (b > 0xffffffffull)
    throw user_error("a slab table holds at most 2^32 - 1 buckets, not " + format_count(b));
  if (!valid_tile(cfg.slab.tile))
    throw user_error(std::string("slab tile must be ") + k_tile_choices);
  return b;
}

pool_shape resolve_pool(const slab_options& o, std::uint64_t buckets) {
  const std::uint64_t initial =
      o.pool_slabs ? o.pool_slabs : std::max<std::uint64_t>(buckets / 4, 4096);
  pool_shape p;
  const std::uint64_t blocks = (initial + k_slabs_per_block - 1) / k_slabs_per_block;
  p.blocks_per_super = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>((blocks + 3) / 4, 1, k_max_blocks_per_super));
  p.initial_super_blocks =
      static_cast<std::uint32_t>((initial + p.slabs_per_super() - 1) / p.slabs_per_super());
  p.max_super_blocks = k_max_super_blocks;
  if (o.pool_limit) {
    if (o.pool_limit < initial)
      throw user_error("slab pool limit " + format_count(o.pool_limit) +
                       " is below the initial pool of " + format_count(initial) + " slabs");
    p.max_super_blocks = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(k_max_super_blocks, o.pool_limit / p.slabs_per_super()));
    p.max_super_blocks = std::max(p.max_super_blocks, p.initial_super_blocks);
  }
  if (p.initial_super_blocks > k_max_super_blocks)
    throw user_error("a slab pool of " + format_count(initial) +
                     " slabs exceeds SlabAlloc's 255 super blocks");
  return p;
}

}  // namespace hs::slab
