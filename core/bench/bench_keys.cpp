// Benchmark keys from the workload generator (so benchmarks and sessions draw the same streams).
#include "core/bench/bench_keys.hpp"

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

}  // namespace hs::bench
