// Argument checks shared by the GPU tables (CUDA builds only): spans must be device memory.
#pragma once
#include <cuda_runtime.h>

#include <span>
#include <string>
#include <string_view>

#include "core/common/cuda_check.hpp"
#include "core/common/error.hpp"

namespace hs {

/// @brief Rejects host pointers early: a kernel reading them would fault far from the mistake.
template <class T>
void require_device(std::string_view call, std::span<T> span) {
  if (span.empty()) return;
  cudaPointerAttributes attr{};
  const cudaError_t err = cudaPointerGetAttributes(&attr, span.data());
  // After a fault every call fails: say that, not that the pointer is wrong.
  if (detail::is_sticky(err))
    detail::throw_cuda_error(err, "cudaPointerGetAttributes", __FILE__, __LINE__);
  if (err != cudaSuccess ||
      (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)) {
    cudaGetLastError();
    throw user_error(std::string(call) + ": arguments must be in device memory for a GPU table");
  }
}

template <class T>
T* ptr_or_null(std::span<T> s) {
  return s.empty() ? nullptr : s.data();
}

}  // namespace hs
