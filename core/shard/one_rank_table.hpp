// The sharded path over one NCCL rank: a sharded table of one GPU, which make_table never makes
// (one device is the plain table). It runs every step of a batch (partition, the counts read on
// the host, NCCL groups, the table call, the return and the gather) with no peer: what the batch
// path itself costs (`bench sharded --gpus 1 --only batches`), and the GPU path's test on a
// machine of one GPU.
#pragma once
#include <memory>

#include "core/shard/nccl_exchange.hpp"
#include "core/shard/sharded_table.hpp"

namespace hs {

/// @brief cfg (devices 1, the GPU backend) as a sharded table on GPU `device`. Throws
/// hs::user_error in a build without NCCL, naming what it needs.
template <class K, class V>
std::unique_ptr<sharded_table<K, V>> make_one_rank_table(const table_config& cfg, int device = 0) {
  shard_parts parts;
  parts.make = [](std::uint32_t, const table_config& one) { return make_table(one); };
  parts.exchange = [device](std::uint32_t) { return make_nccl_exchange({device}); };
  return std::make_unique<sharded_table<K, V>>(cfg, std::move(parts));
}

}  // namespace hs
