// Status histogram on the GPU: per-block counts in shared memory, one atomic per status per block.
#include "core/common/cuda_check.hpp"
#include "core/common/status_counts.hpp"

namespace hs::detail {

namespace {
__global__ void count_kernel(const op_status* status, std::uint64_t n, unsigned long long* counts) {
  __shared__ unsigned local[k_op_status_count];
  if (threadIdx.x < k_op_status_count) local[threadIdx.x] = 0;
  __syncthreads();
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const unsigned s = static_cast<unsigned>(status[i]);
    atomicAdd(&local[s < k_op_status_count ? s : 0], 1u);
  }
  __syncthreads();
  if (threadIdx.x < k_op_status_count && local[threadIdx.x])
    atomicAdd(&counts[threadIdx.x], static_cast<unsigned long long>(local[threadIdx.x]));
}
}  // namespace

void count_statuses_on_device(const op_status* status, std::uint64_t n, std::uint64_t* counts,
                              stream_view s) {
  if (n == 0) return;
  const unsigned block = 256;
  const auto grid = static_cast<unsigned>(std::min<std::uint64_t>((n + block - 1) / block, 1024));
  count_kernel<<<grid, block, 0, static_cast<cudaStream_t>(s.handle)>>>(
      status, n, reinterpret_cast<unsigned long long*>(counts));
  HS_CUDA_CHECK_LAUNCH();
}

}  // namespace hs::detail
