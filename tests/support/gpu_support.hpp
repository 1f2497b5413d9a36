// GPU test helpers: skip visibly without a device, and move vectors to and from a table's space.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "core/common/memory.hpp"

namespace hs::test {

/// Skips the running test (Catch2 SKIP) with the reason when there is no CUDA device.
void require_gpu();

/// A buffer in `space` holding a copy of `v`.
template <class T>
buffer<T> to_space(memory_space space, const std::vector<T>& v) {
  buffer<T> b(space, v.size());
  b.upload(std::span<const T>(v));
  return b;
}

}  // namespace hs::test
