// Allocation and copies in host or device memory. Device paths exist only in CUDA builds.
#include "core/common/memory.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "core/common/error.hpp"
#include "core/common/format.hpp"
#if HS_WITH_CUDA
#include "core/common/cuda_check.hpp"
#endif

namespace hs {

#if !HS_WITH_CUDA
namespace {
[[noreturn]] void no_device_memory() {
  throw gpu_error("device memory requested, but this build has no CUDA support");
}
}  // namespace
#endif

void* allocate_bytes(memory_space space, std::size_t bytes) {
  if (bytes == 0) return nullptr;
  if (space == memory_space::host) {
    void* p = std::malloc(bytes);
    if (!p) throw user_error("out of host memory allocating " + format_bytes(bytes));
    return p;
  }
#if HS_WITH_CUDA
  std::size_t free_b = 0, total_b = 0;
  HS_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (bytes > free_b)
    throw user_error("cannot allocate " + format_bytes(bytes) + " on the GPU: only " +
                     format_bytes(free_b) + " of " + format_bytes(total_b) +
                     " are free; choose a smaller capacity");
  void* p = nullptr;
  cudaError_t err = cudaMalloc(&p, bytes);
  if (err != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error state of a failed allocation
    throw user_error("cudaMalloc of " + format_bytes(bytes) + " failed (" +
                     cudaGetErrorString(err) + "); " + format_bytes(free_b) + " were reported free");
  }
  return p;
#else
  no_device_memory();
#endif
}

void release_bytes(memory_space space, void* p) noexcept {
  if (!p) return;
  if (space == memory_space::host) {
    std::free(p);
    return;
  }
#if HS_WITH_CUDA
  cudaFree(p);
#endif
}

void copy_bytes(void* dst, memory_space dst_space, const void* src, memory_space src_space,
                std::size_t bytes, stream_view stream) {
  if (bytes == 0) return;
  if (dst_space == memory_space::host && src_space == memory_space::host) {
    std::memmove(dst, src, bytes);
    return;
  }
#if HS_WITH_CUDA
  HS_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault,
                                static_cast<cudaStream_t>(stream.handle)));
#else
  (void)stream;
  no_device_memory();
#endif
}

void fill_bytes(void* dst, memory_space space, int byte, std::size_t bytes, stream_view stream) {
  if (bytes == 0) return;
  if (space == memory_space::host) {
    std::memset(dst, byte, bytes);
    return;
  }
#if HS_WITH_CUDA
  HS_CUDA_CHECK(cudaMemsetAsync(dst, byte, bytes, static_cast<cudaStream_t>(stream.handle)));
#else
  (void)stream;
  no_device_memory();
#endif
}

}  // namespace hs
