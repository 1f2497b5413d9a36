// The exchange between GPUs through NCCL: one communicator a GPU, a step is one group of
// ncclSend/ncclRecv calls (NCCL pairs each rank's k-th send to a peer with the peer's k-th receive
// from it). Built when NCCL was found (HS_WITH_NCCL); make_nccl_exchange says why not otherwise.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/shard/rank_join.hpp"
#include "core/shard/shard_exchange.hpp"

namespace hs {

/// @brief NCCL's version as "2.28.9", or why this build has none.
std::string nccl_version();

/// @brief One process driving every listed GPU (ncclCommInitAll): rank r is `ordinals[r]`.
/// Throws hs::user_error in a build without NCCL, naming what several GPUs need.
std::unique_ptr<shard_exchange> make_nccl_exchange(const std::vector<int>& ordinals);

/// @brief This process's rank of a table joined across processes (ncclCommInitRank): rank 0 makes
/// NCCL's unique id and hands it over as `join` says; the others wait for it, at most join.wait_s.
std::unique_ptr<shard_exchange> make_nccl_rank_exchange(const rank_join& join);

}  // namespace hs
