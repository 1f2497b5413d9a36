// A table over several processes, one GPU each (the path that spans hosts): every process makes
// its part with the same config, and every batch, stats, clear and rehash is called by all of
// them together, each with its own keys. See README.md, "One process a GPU".
#pragma once
#include <memory>

#include "core/shard/rank_join.hpp"
#include "core/table/table.hpp"

namespace hs {

/// @brief This process's rank of a table sharded over join.ranks processes (cfg.devices is taken
/// from the join). Throws hs::user_error for simulated devices, a GPU this process does not see,
/// or a build without NCCL; hs::gpu_error when NCCL cannot join the ranks within join.wait_s.
std::unique_ptr<table> make_rank_table(table_config cfg, const rank_join& join);

}  // namespace hs
