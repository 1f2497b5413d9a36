// Bit tricks shared by host and device code.
#pragma once
#include <cstdint>

#include "core/common/host_device.hpp"

namespace hs {

/// @brief floor(log2(x)) for x > 0.
HS_HD int floor_log2(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return 31 - __clz(x);
#else
  return 31 - __builtin_clz(x);
#endif
}

HS_HD int floor_log2_64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return 63 - __clzll(x);
#else
  return 63 - __builtin_clzll(x);
#endif
}

/// @brief The index of the lowest set bit of x > 0.
HS_HD int lowest_bit(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __ffs(x) - 1;
#else
  return __builtin_ctz(x);
#endif
}

HS_HD bool is_pow2(std::uint64_t x) { return x && !(x & (x - 1)); }

}  // namespace hs
