// Detects the CUDA device and resolves the user's backend choice.
#include "core/common/device.hpp"

#include "core/common/error.hpp"
#include "core/common/memory.hpp"
#if HS_WITH_CUDA
#include <cuda_runtime.h>

#include "core/common/cuda_check.hpp"
#endif

namespace hs {

std::string_view to_string(backend b) { return b == backend::gpu ? "gpu" : "cpu"; }

std::optional<backend_choice> parse_backend_choice(std::string_view s) {
  if (s == "auto") return backend_choice::automatic;
  if (s == "gpu") return backend_choice::gpu;
  if (s == "cpu") return backend_choice::cpu;
  return std::nullopt;
}

std::string_view to_string(backend_choice c) {
  return c == backend_choice::gpu ? "gpu" : c == backend_choice::cpu ? "cpu" : "auto";
}

std::optional<gpu_info> query_gpu(std::string* why_not) {
#if HS_WITH_CUDA
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    if (why_not)
      *why_not = err != cudaSuccess
                     ? std::string("no CUDA device (") + cudaGetErrorString(err) + ")"
                     : std::string("no CUDA device");
    cudaGetLastError();
    return std::nullopt;
  }
  gpu_info info;
  if (cudaGetDevice(&info.ordinal) != cudaSuccess) info.ordinal = 0;
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, info.ordinal) != cudaSuccess) {
    if (why_not) *why_not = "cudaGetDeviceProperties failed";
    cudaGetLastError();
    return std::nullopt;
  }
  info.name = p.name;
  info.sm_count = p.multiProcessorCount;
  info.l2_bytes = p.l2CacheSize;
  info.compute_major = p.major;
  info.compute_minor = p.minor;
  try {
    const device_memory mem =
        device_memory_now();  // free: including what the allocator keeps for reuse
    info.free_bytes = mem.free_bytes;
    info.total_bytes = mem.total_bytes;
  } catch (const std::exception&) {  // the name and shape are still worth reporting
  }
  return info;
#else
  if (why_not) *why_not = "this build has no CUDA support";
  return std::nullopt;
#endif
}

backend resolve_backend(backend_choice choice, std::string* note) {
  if (choice == backend_choice::cpu) {
    if (note) *note = "chosen with --backend cpu";
    return backend::cpu;
  }
  std::string why;
  auto gpu = query_gpu(&why);
  if (gpu) {
    if (note) *note = gpu->name;
    return backend::gpu;
  }
  if (choice == backend_choice::gpu)
    throw user_error("--backend gpu: " + why + "; use --backend cpu (or auto) for the CPU model");
  if (note) *note = why;
  return backend::cpu;
}

int gpu_count() {
#if HS_WITH_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
#else
  return 0;
#endif
}

device_scope::device_scope(int ordinal) {
#if HS_WITH_CUDA
  int now = 0;
  HS_CUDA_CHECK(cudaGetDevice(&now));
  if (now != ordinal) {
    HS_CUDA_CHECK(cudaSetDevice(ordinal));
    before_ = now;
  }
#else
  (void)ordinal;
#endif
}

device_scope::~device_scope() {
#if HS_WITH_CUDA
  if (before_ >= 0) cudaSetDevice(before_);
#endif
}

std::string backend_label(backend b) {
  if (b == backend::cpu) return "CPU model";
  auto gpu = query_gpu();
  return gpu ? gpu->name + " (GPU)" : std::string("GPU");
}

}  // namespace hs
