// Exceptions with messages a user can act on.
#pragma once
#include <stdexcept>
#include <string>

namespace hs {

/// @brief Bad input from the user (arguments, scenario files, sizes): the message says what to
/// change.
struct user_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief A failure of the CUDA runtime or a GPU resource (no device, out of memory, launch
/// failure).
struct gpu_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief A failure of OpenGL, EGL or the window system.
struct graphics_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace hs
