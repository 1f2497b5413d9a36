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
/// A 32-bit key or value with 32 more bits above it, a mix of it (murmur3's finalizer of it plus
/// a constant, below 2^31 so that the result is never a sentinel).
std::uint64_t widen(std::uint32_t x) {
  return std::uint64_t{murmur3_hash{}(x + 0x9e3779b9u) & 0x7fffffffu} << 32 | x;
}
std::vector<std::uint64_t> widened(const buffer<std::uint32_t>& narrow) {
  const std::vector<std::uint32_t> host = narrow.download();
  std::vector<std::uint64_t> out(host.size());
  for (std::size_t i = 0; i < host.size(); ++i) out[i] = widen(host[i]);
  return out;
}
buffer<std::uint64_t> in_space(memory_space space, const std::vector<std::uint64_t>& v) {
  buffer<std::uint64_t> b(space, v.size());
  b.upload(std::span<const std::uint64_t>(v));
  return b;
}
}  // namespace

wide_key_set unique_wide_keys(memory_space space, std::uint64_t n, std::uint64_t seed) {
  const key_set narrow = unique_keys(memory_space::host, n, seed);
  return {in_space(space, widened(narrow.keys)), in_space(space, widened(narrow.values))};
}

buffer<wide_key> miss_wide_keys(memory_space space, std::uint64_t n, std::uint64_t seed) {
  return in_space(space, widened(miss_keys(memory_space::host, n, seed)));
}

}  // namespace hs::bench
