// Makes the tables over several devices that make_table hands over (devices > 1): GPU shards
// exchanging through NCCL, or simulated devices (CPU models and the host stand-in).
#include <memory>
#include <string>

#include "core/common/device.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/shard/host_exchange.hpp"
#include "core/shard/nccl_exchange.hpp"
#include "core/shard/rank_table.hpp"
#include "core/shard/sharded_table.hpp"
#include "core/table/family_registry.hpp"

namespace hs {

void detail::check_split(const table_config& cfg) {
  if (cfg.devices == 0 || cfg.devices > k_max_devices)
    throw user_error("a table is sharded over 1 to " + std::to_string(k_max_devices) +
                     " devices, not " + std::to_string(cfg.devices));
  const family_descriptor& d = describe(cfg.family);
  const std::uint64_t per = cfg.capacity / cfg.devices;
  if (cfg.capacity % cfg.devices != 0 || per == 0 || (d.pow2_capacity && (per & (per - 1)) != 0))
    throw user_error(format_count(cfg.capacity) + " " + std::string(d.capacity_unit) +
                     " do not split into " + std::to_string(cfg.devices) + " equal shards" +
                     (d.pow2_capacity ? " of a power of two: use 2, 4, 8, ... devices" : ""));
  table_config one = cfg;  // what each shard will be: the family's own checks
  one.devices = 1;
  one.capacity = per;
  if (d.check_config)
    if (const std::string why = d.check_config(one); !why.empty())
      throw user_error("a shard of " + std::to_string(cfg.devices) + ": " + why);
}

namespace {

void check_gpus(std::uint32_t wanted) {
  std::string why;
  const int have = gpu_count();
  if (have < static_cast<int>(wanted)) {
    const auto gpu = query_gpu(&why);
    throw user_error("asked for " + std::to_string(wanted) + " GPUs; this machine has " +
                     std::to_string(have) +
                     (gpu ? " (" + gpu->name + ")" : std::string(" (") + why + ")") +
                     (have > 0 ? "; use --gpus " + std::to_string(have) + " or fewer" : "") +
                     ", or --backend cpu for simulated devices");
  }
}

shard_parts parts_for(const table_config& cfg) {
  shard_parts p;
  p.make = [](std::uint32_t, const table_config& one) { return make_table(one); };
  if (cfg.backend == backend::cpu) {
    p.exchange = [](std::uint32_t ranks) -> std::unique_ptr<shard_exchange> {
      return std::make_unique<host_exchange>(ranks);
    };
  } else {
    p.exchange = [](std::uint32_t ranks) {
      check_gpus(ranks);
      std::vector<int> ordinals;
      for (std::uint32_t r = 0; r < ranks; ++r) ordinals.push_back(static_cast<int>(r));
      return make_nccl_exchange(ordinals);
    };
  }
  return p;
}

/// The sharded table of cfg's key width (values as wide as the keys).
std::unique_ptr<table> sharded_of_width(const table_config& cfg, shard_parts parts) {
  return with_key_width(cfg.width, [&](auto key) -> std::unique_ptr<table> {
    using K = decltype(key);
    return std::make_unique<sharded_table<K, K>>(cfg, std::move(parts));
  });
}

std::unique_ptr<table> make_sharded(const table_config& cfg) {
  detail::check_split(cfg);
  if (cfg.backend == backend::gpu) check_gpus(cfg.devices);
  return sharded_of_width(cfg, parts_for(cfg));
}

// Registered as the program starts; core/CMakeLists.txt links this library whole.
const bool k_registered = detail::register_sharded_factory(make_sharded);

}  // namespace

std::unique_ptr<table> make_rank_table(table_config cfg, const rank_join& join) {
  if (cfg.backend != backend::gpu)
    throw user_error(
        "a table joined across processes runs on GPUs through NCCL; simulated "
        "devices run in one process (--backend cpu --gpus N)");
  cfg.devices = join.ranks;
  detail::check_split(cfg);
  if (join.device < 0 || join.device >= gpu_count())
    throw user_error("rank " + std::to_string(join.rank) + " is to drive GPU " +
                     std::to_string(join.device) + ", but its process sees " +
                     std::to_string(gpu_count()) + " (HS_DEVICE, or the local rank, picks it)");
  shard_parts p;
  p.make = [](std::uint32_t, const table_config& one) { return make_table(one); };
  p.exchange = [join](std::uint32_t ranks) {
    if (ranks != join.ranks)
      throw user_error("a table joined across " + std::to_string(join.ranks) +
                       " processes cannot change to " + std::to_string(ranks) + " ranks");
    return make_nccl_rank_exchange(join);
  };
  return sharded_of_width(cfg, std::move(p));
}

}  // namespace hs
