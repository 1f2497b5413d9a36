// Allocation and copies in host or device memory. Device paths exist only in CUDA builds.
#include "core/common/memory.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

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
#else
namespace {

// Device memory comes from the device's stream-ordered pool, told to keep what is freed: a table
// that grows or shrinks takes its new slots from memory an earlier one gave back, instead of the
// driver mapping and unmapping it each time. Measured on the H200 (rebuilds of 67M keys in the
// churn bench of open addressing): cudaMalloc of 2 GiB took 0.30-0.32 ms and cudaFree of 1 GiB 0.72
// ms of a 3.6 ms grow; of a 7.8 ms shrink, 1.0 ms allocating 1 GiB and 1.7-1.9 ms freeing 2 GiB.
// What the pool keeps counts as free memory (device_memory_now), and an allocation that does not
// fit gives it back first.
struct device_pool {
  cudaMemPool_t pool = nullptr;  // null where the device has no memory pools: cudaMalloc then
  cudaStream_t stream =
      nullptr;  // allocations and frees are ordered on it, nothing else runs there
};

device_pool& pool_of_current_device() {
  // Never destroyed: buffers in static objects are freed after statics of this file would be.
  static auto* m = new std::mutex;
  static auto* pools = new std::map<int, device_pool>;
  int device = 0;
  HS_CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard lock(*m);
  auto [it, fresh] = pools->try_emplace(device);
  if (fresh) {
    int supported = 0;
    HS_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device));
    if (supported) {
      HS_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&it->second.pool, device));
      std::uint64_t keep_all = UINT64_MAX;
      HS_CUDA_CHECK(
          cudaMemPoolSetAttribute(it->second.pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
      HS_CUDA_CHECK(cudaStreamCreateWithFlags(&it->second.stream, cudaStreamNonBlocking));
    }
  }
  return it->second;
}

/// Bytes the pool holds that no allocation uses.
std::uint64_t pool_unused(const device_pool& p) {
  if (!p.pool) return 0;
  std::uint64_t reserved = 0, used = 0;
  HS_CUDA_CHECK(cudaMemPoolGetAttribute(p.pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  HS_CUDA_CHECK(cudaMemPoolGetAttribute(p.pool, cudaMemPoolAttrUsedMemCurrent, &used));
  return reserved > used ? reserved - used : 0;
}

cudaError_t allocate_from(const device_pool& p, void** out, std::size_t bytes) {
  if (!p.pool) return cudaMalloc(out, bytes);
  cudaError_t err = cudaMallocAsync(out, bytes, p.stream);
  if (err ==
      cudaErrorMemoryAllocation) {  // what the pool keeps may be in pieces: give it back, try again
    cudaGetLastError();
    HS_CUDA_CHECK(cudaStreamSynchronize(p.stream));
    HS_CUDA_CHECK(cudaMemPoolTrimTo(p.pool, 0));
    err = cudaMallocAsync(out, bytes, p.stream);
  }
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(p.stream);  // usable from any stream on return
  return err;
}

}  // namespace
#endif

device_memory device_memory_now() {
#if HS_WITH_CUDA
  std::size_t free_b = 0, total_b = 0;
  HS_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  return {free_b + pool_unused(pool_of_current_device()), total_b};
#else
  no_device_memory();
#endif
}

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
  const device_memory mem = device_memory_now();
  const std::uint64_t free_b = mem.free_bytes;
  if (bytes > free_b)
    throw user_error("cannot allocate " + format_bytes(bytes) + " on the GPU: only " +
                     format_bytes(free_b) + " of " + format_bytes(mem.total_bytes) + " are free (" +
                     format_bytes(bytes - free_b) + " missing); choose a smaller capacity");
  void* p = nullptr;
  cudaError_t err = allocate_from(pool_of_current_device(), &p, bytes);
  if (detail::is_sticky(err))
    detail::throw_cuda_error(err, "allocating device memory", __FILE__, __LINE__);
  if (err != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error state of a failed allocation
    throw user_error("allocating " + format_bytes(bytes) + " on the GPU failed (" +
                     cudaGetErrorString(err) + "); " + format_bytes(free_b) +
                     " were reported free");
  }
  return p;
#else
  no_device_memory();
#endif
}

void release_bytes(memory_space space, void* p) noexcept {
  if (!p) return;
#if HS_WITH_CUDA
  if (space == memory_space::device) {
    // Freed into the pool of the device that holds it (a sharded table's shards live on several).
    cudaPointerAttributes where{};
    int current = -1;
    if (cudaPointerGetAttributes(&where, p) != cudaSuccess)
      cudaGetLastError();  // not a pointer the runtime knows: freed below as before
    else if (cudaGetDevice(&current) == cudaSuccess && where.device >= 0 &&
             where.device != current) {
      cudaSetDevice(where.device);
      release_bytes(space, p);
      cudaSetDevice(current);
      return;
    }
    const device_pool* pool = nullptr;
    try {
      pool = &pool_of_current_device();
    } catch (const std::exception&) {  // the runtime is shutting down: nothing to keep
    }
    if (!pool || !pool->pool) {
      cudaFree(p);
      return;
    }
    // As cudaFree would: what is queued on any stream may still use the memory.
    cudaDeviceSynchronize();
    cudaFreeAsync(p, pool->stream);
  } else if (space == memory_space::pinned)
    cudaFreeHost(p);
  else
    std::free(p);
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
  if (dst_space == memory_space::device && src_space == memory_space::device) {
    // Memory of one GPU's pool is not mapped for another GPU: a copy between two GPUs (a sharded
    // table's state or sample, never its exchange, which is NCCL's) goes through the host.
    cudaPointerAttributes from{}, to{};
    HS_CUDA_CHECK(cudaPointerGetAttributes(&from, src));
    HS_CUDA_CHECK(cudaPointerGetAttributes(&to, dst));
    if (from.device != to.device) {
      synchronize(stream);
      std::vector<unsigned char> bounce(bytes);
      int current = 0;
      HS_CUDA_CHECK(cudaGetDevice(&current));
      HS_CUDA_CHECK(cudaSetDevice(from.device));
      HS_CUDA_CHECK(cudaMemcpy(bounce.data(), src, bytes, cudaMemcpyDeviceToHost));
      HS_CUDA_CHECK(cudaSetDevice(to.device));
      HS_CUDA_CHECK(cudaMemcpy(dst, bounce.data(), bytes, cudaMemcpyHostToDevice));
      HS_CUDA_CHECK(cudaSetDevice(current));
      return;
    }
  }
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
