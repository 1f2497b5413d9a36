// Skips GPU tests where there is no CUDA device, saying why.
#include "tests/support/gpu_support.hpp"

#include <catch2/catch_test_macros.hpp>

#include "core/common/device.hpp"

namespace hs::test {

void require_gpu() {
  std::string why;
  if (!query_gpu(&why)) SKIP("[gpu] test skipped: " + why);
}

}  // namespace hs::test
