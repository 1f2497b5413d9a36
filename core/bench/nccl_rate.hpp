// NCCL's own all-to-all between this machine's GPUs: the bound a sharded table's exchange is read
// against (bench sharded, and bench roofline --gpus N).
#pragma once
#include <cstdint>

namespace hs::bench {

/// @brief Milliseconds (median of `reps` after one warm-up) of one all-to-all in which each of
/// `gpus` GPUs sends bytes_per_gpu / gpus to every GPU, itself included, as grouped
/// ncclSend/ncclRecv. Throws hs::user_error without NCCL or with fewer GPUs.
double nccl_all_to_all_ms(std::uint32_t gpus, std::uint64_t bytes_per_gpu, int reps);

}  // namespace hs::bench
