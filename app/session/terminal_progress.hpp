// A progress line on the terminal for reads long enough to watch (a key file of 10^8 keys).
#pragma once
#include <string>

#include "core/workload/key_file.hpp"

namespace hs::app {

/// @brief A progress callback that writes "WHAT: 45% of 1.02 GB" to stderr, rewriting one line,
/// for files of at least 16 MiB (smaller ones are read before a line would be seen); it ends the
/// line when the read is done.
workload::load_progress terminal_progress(std::string what);

}  // namespace hs::app
