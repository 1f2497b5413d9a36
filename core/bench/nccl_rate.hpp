// NCCL's own all-to-all between this machine's GPUs: the bound a sharded table's exchange is read
// against (bench sharded, and bench roofline --gpus N).
#pragma once
#include <cstdint>

namespace hs::bench {

/// @brief Milliseconds (median of `reps` after one warm-up) of one all-to-all in which each of
/// `gpus` GPUs sends bytes_per_gpu / gpus to every GPU, itself included, as grouped
/// ncclSend/ncclRecv. `lanes` > 1 sends the same bytes as that many buffers a GPU, a send each to
/// every peer in the one group, as a sharded table sends keys and values. Throws hs::user_error
/// without NCCL or with fewer GPUs.
double nccl_all_to_all_ms(std::uint32_t gpus, std::uint64_t bytes_per_gpu, int reps,
                          std::uint32_t lanes = 1);

}  // namespace hs::bench
