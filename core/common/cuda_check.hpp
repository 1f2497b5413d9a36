// Checks every CUDA runtime call and kernel launch; failures become hs::gpu_error with the call
// site. Include only from CUDA-aware translation units (built when HS_WITH_CUDA is on).
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "core/common/error.hpp"

namespace hs::detail {
/// @brief Whether `err` leaves the context unusable (then noted as the process's GPU fault).
bool is_sticky(cudaError_t err);
/// @brief Throws gpu_fault for a sticky error (noting it first), gpu_error otherwise.
[[noreturn]] void throw_cuda_error(cudaError_t err, const char* what, const char* file, int line);
}  // namespace hs::detail

#define HS_CUDA_CHECK(expr)                                               \
  do {                                                                    \
    cudaError_t hs_err_ = (expr);                                         \
    if (hs_err_ != cudaSuccess)                                           \
      ::hs::detail::throw_cuda_error(hs_err_, #expr, __FILE__, __LINE__); \
  } while (0)

/// Checks the launch just made (configuration errors surface here; faults at the next sync).
#define HS_CUDA_CHECK_LAUNCH() HS_CUDA_CHECK(cudaGetLastError())
