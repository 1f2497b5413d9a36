// The first GPU fault of the process. A kernel that reads out of bounds, traps or fails to launch
// leaves CUDA's context unusable: every later call in the process returns the same error, and a
// table a faulting batch or resize was changing may be half changed. Whoever meets such an error
// first notes it here; from then on nothing on the GPU is trusted, and only a new process can use
// the GPU again. The CPU models are not affected.
#pragma once
#include <string>

#include "core/common/error.hpp"

namespace hs {

/// @brief A CUDA error that leaves the process's GPU context unusable (see the header).
struct gpu_fault : gpu_error {
  using gpu_error::gpu_error;
};

/// @brief Records the first fault's message (later ones are the same error, echoed): returns true
/// for the call that recorded it.
bool note_gpu_fault(const std::string& message);
/// @brief Whether a fault was noted in this process.
bool gpu_faulted();
/// @brief The first fault's message (empty while none).
std::string gpu_fault_message();

}  // namespace hs
