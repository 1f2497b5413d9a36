// Benchmark keys from the workload generator (so benchmarks and sessions draw the same streams).
#include "core/bench/bench_keys.hpp"

#include <vector>

#include "core/common/hash.hpp"
#include "core/workload/workload.hpp"

namespace hs::bench {

namespace {
workload::workload_spec spec_for(std::uint64_t seed) {
  workload::workload_spec spec;
  spec.keys.dist = workload::distribution::uniform_unique;
  spec.keys.seed = seed;
  return spec;
}
}  // namespace

key_set unique_keys(memory_space space, std::uint64_t n, std::uint64_t seed) {
  auto spec = spec_for(seed);
  workload::cursor c;
  const workload::batch_plan plan = c.next(spec, n, workload::op_mix{1, 0, 0, 0});
  key_set out{buffer<key_type>(space, n), buffer<value_type>(space, n)};
  buffer<op_kind> kinds(space, n);
  workload::generate(spec, plan, space, {kinds.span(), out.keys.span(), out.values.span()}, {});
  synchronize({});
  return out;
}

buffer<key_type> miss_keys(memory_space space, std::uint64_t n, std::uint64_t seed) {
  auto spec = spec_for(seed);
  workload::cursor c;
  const workload::batch_plan plan = c.next(spec, n, workload::op_mix{0, 0, 1, 0});
  buffer<key_type> keys(space, n);
  buffer<value_type> values(space, n);
  buffer<op_kind> kinds(space, n);
  workload::generate(spec, plan, space, {kinds.span(), keys.span(), values.span()}, {});
  synchronize({});
  return keys;
}

namespace {
/// Murmur3's 64-bit finalizer: a bijection of the 64-bit words, so distinct indices give distinct
/// keys.
std::uint64_t fmix64(std::uint64_t k) { return murmur3_hash{}(k); }
/// Where a seed's keys start among the indices: seeds 2^48 apart, misses 2^40 past the keys.
std::uint64_t first_index(std::uint64_t seed) { return 1 + (seed << 48); }
constexpr std::uint64_t k_miss_offset = std::uint64_t{1} << 40;

buffer<std::uint64_t> in_space(memory_space space, const std::vector<std::uint64_t>& v) {
  buffer<std::uint64_t> b(space, v.size());
  b.upload(std::span<const std::uint64_t>(v));
  return b;
}
}  // namespace

wide_key_set unique_wide_keys(memory_space space, std::uint64_t n, std::uint64_t seed) {
  std::vector<std::uint64_t> keys(n), values(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    keys[i] = fmix64(first_index(seed) + i);
    values[i] = fmix64(keys[i]) >> 1;  // below 2^63: never the empty value
  }
  return {in_space(space, keys), in_space(space, values)};
}

buffer<wide_key> miss_wide_keys(memory_space space, std::uint64_t n, std::uint64_t seed) {
  std::vector<std::uint64_t> keys(n);
  for (std::uint64_t i = 0; i < n; ++i) keys[i] = fmix64(first_index(seed) + k_miss_offset + i);
  return in_space(space, keys);
}

}  // namespace hs::bench
