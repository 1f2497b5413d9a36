// What a session says once the GPU faulted (core/common/gpu_fault.hpp): in the window, as the
// session's note, and on the terminal, once per process.
#pragma once
#include <string>

namespace hs::app {

/// @brief The note for the user: what CUDA reported, that the table on the GPU may be half changed
/// and is no longer used or sampled, and that only a restart brings the GPU back. Empty while no
/// fault happened.
std::string gpu_lost_note();
/// @brief Writes gpu_lost_note() to standard error, the first time it is called after a fault.
void announce_gpu_fault();

}  // namespace hs::app
