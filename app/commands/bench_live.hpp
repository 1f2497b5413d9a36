// `hashscope bench live`: what watching a table costs. The session runs a mixed workload on the
// GPU table while the window's frame samples it every frame at 60 Hz (CUDA-GL interop into an
// EGL context, as in the window); the same run with no frames drawn is the baseline.
#pragma once
#include "app/commands/cli.hpp"

namespace hs::app {

/// @brief Runs the live benchmark for the linear (2^28 slots), hive (2^27) and slab (10^8 keys)
/// tables, prints the table and writes CSV/JSON like the other suites. Needs a CUDA device and
/// headless OpenGL. `o.capacity` scales every case down (for trying it on a small GPU).
int run_live_bench(const cli_options& o);

}  // namespace hs::app
