// A GPU fault on purpose, for the tests of what HashScope does after one: a test-only kernel that
// reads far outside its buffer. CUDA's context is unusable afterwards in the whole process, so a
// test that calls this runs alone in its process (hs_gpu_fault_tests, one case per ctest run).
#pragma once

namespace hs::test {

/// @brief Launches the out-of-bounds read and waits for it; returns the error CUDA reported (its
/// name), which HashScope's own next CUDA call will meet too. Throws if no fault happened.
const char* inject_gpu_fault();

}  // namespace hs::test
