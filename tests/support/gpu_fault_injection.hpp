// A GPU fault on purpose, for the tests of what HashScope does after one: a test-only kernel that
// reads far outside its buffer. CUDA's context is unusable afterwards in the whole process, so a
// test that calls this runs alone in its process (hs_gpu_fault_tests, one case per ctest run).
#pragma once

namespace hs::test {

/// @brief How the fault becomes known to HashScope.
enum class fault_notice {
  checked,    ///< the injection's wait goes through HS_CUDA_CHECK, as every HashScope call does, so
              ///< the fault is noted at once (core/common/gpu_fault.hpp)
  unnoticed,  ///< nothing notes it: the next HashScope call that meets it must
};

/// @brief Launches the out-of-bounds read and waits for it; returns the error CUDA reported (its
/// name). Throws if no fault happened.
const char* inject_gpu_fault(fault_notice notice);

}  // namespace hs::test
