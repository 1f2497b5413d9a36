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
  if (space == memory_space::host
#if !HS_WITH_CUDA
      || space == memory_space::pinned  // nothing to pin for without CUDA
#endif
  ) {
    void* p = std::malloc(bytes);
    if (!p) throw user_error("out of host memory allocating " + format_bytes(bytes));
    return p;
  }
#if HS_WITH_CUDA
  if (space == memory_space::pinned) {
    void* p = nullptr;
    HS_CUDA_CHECK(cudaMallocHost(&p, bytes));
    return p;
  }
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
#if HS_WITH_CUDA
  if (space == memory_space::device) cudaFree(p);
  else if (space == memory_space::pinned) cudaFreeHost(p);
  else std::free(p);
#else
  (void)space;
  std::free(p);
#endif
}

void copy_bytes(void* dst, memory_space dst_space, const void* src, memory_space src_space,
                std::size_t bytes, stream_view stream) {
  if (bytes == 0) return;
  if (host_accessible(dst_space) && host_accessible(src_space)) {
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
  if (host_accessible(space)) {
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
