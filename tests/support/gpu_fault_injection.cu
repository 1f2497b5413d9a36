// The out-of-bounds read behind inject_gpu_fault().
#include "tests/support/gpu_fault_injection.hpp"

#include <cuda_runtime.h>

#include "core/common/cuda_check.hpp"
#include "core/common/gpu_fault.hpp"

#include <cstdint>
#include <stdexcept>

namespace hs::test {
namespace {

// 2^40 words (4 TiB) past a small buffer: no device has memory mapped there.
__global__ void read_out_of_bounds(const unsigned* in, unsigned* out) {
  out[0] = static_cast<volatile const unsigned*>(in)[std::uint64_t{1} << 40];
}

}  // namespace

const char* inject_gpu_fault(fault_notice notice) {
  unsigned* buf = nullptr;
  if (cudaMalloc(&buf, 2 * sizeof(unsigned)) != cudaSuccess)
    throw std::runtime_error("inject_gpu_fault: no device memory for the faulting kernel");
  read_out_of_bounds<<<1, 1>>>(buf, buf + 1);
  const cudaError_t err = cudaDeviceSynchronize();
  if (err == cudaSuccess) throw std::runtime_error("inject_gpu_fault: the read did not fault");
  if (notice == fault_notice::checked) {
    try {
      HS_CUDA_CHECK(err);
    } catch (const gpu_fault&) {  // noted, as HashScope's own call would have
    }
  }
  return cudaGetErrorName(err);
}

}  // namespace hs::test
