// `hashscope bench mixed`: the three families on the same mixed batches with statuses, run by the
// session as the window, compare mode and render run them (not a bulk kernel on its own).
#pragma once
#include "app/commands/cli.hpp"

namespace hs::app {

/// @brief Runs the mixed suite on o's backend (GPU: 2^27 slots, batches of 2^20; CPU model: 2^16
/// slots, batches of 2^12; `o.capacity` overrides the slots), prints its tables and writes
/// CSV/JSON like the other suites. `o.bench.only` picks families (linear, slab, hive).
int run_mixed_bench(const cli_options& o);

}  // namespace hs::app
