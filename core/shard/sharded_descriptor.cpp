#include "core/shard/sharded_descriptor.hpp"

#include <map>
#include <mutex>
#include <string>

#include "core/shard/rank_scope.hpp"
#include "core/shard/sharded_view.hpp"

namespace hs {

namespace {

/// Runs f(shard, device) on every shard, with its GPU current.
template <class F>
void each_shard(table& t, F f) {
  sharded_view& v = *as_sharded(t);
  const bool gpu = t.config().backend == backend::gpu;
  for (std::uint32_t d = 0; d < v.devices(); ++d) {
    const detail::rank_scope on(gpu, d);
    f(v.shard(d), d);
  }
}

std::string check_every_shard(table& t, stream_view) {
  const family_descriptor& fam = describe(t.config().family);
  std::string first;
  each_shard(t, [&](table& shard, std::uint32_t d) {
    if (!first.empty()) return;
    const std::string why = fam.check_invariants(shard, {});
    if (!why.empty()) first = "device " + std::to_string(d) + ": " + why;
  });
  return first;
}

void flush_every_shard(table& t, stream_view) {
  const family_descriptor& fam = describe(t.config().family);
  each_shard(t, [&](table& shard, std::uint32_t) {
    fam.flush(shard, {});
    synchronize({});
  });
}

family_descriptor sharded_of(const family_descriptor& fam) {
  family_descriptor d = fam;
  d.check_invariants = fam.check_invariants ? check_every_shard : nullptr;
  d.flush = fam.flush ? flush_every_shard : nullptr;
  d.batch_counters = 0;
  d.copy_batch_counters = nullptr;
  d.trace_before = nullptr;
  return d;
}

}  // namespace

const family_descriptor& describe_table(const table_config& cfg) {
  if (cfg.devices <= 1) return describe(cfg.family);
  // Made once a family and never destroyed, as the registry's own list.
  static auto* made = new std::map<family, family_descriptor>;
  static auto* lock = new std::mutex;
  std::lock_guard hold(*lock);
  auto it = made->find(cfg.family);
  if (it == made->end()) it = made->emplace(cfg.family, sharded_of(describe(cfg.family))).first;
  return it->second;
}

}  // namespace hs
