// `bench sharded --processes N`: this program started N times, once a rank of a table across
// processes (HS_RANK, HS_RANKS and a fresh id file in a temporary folder), as mpirun would start
// it. Rank 0 writes to this terminal; the others' output goes to files shown if a rank fails.
#pragma once
#include <cstdint>

namespace hs::app {

/// @brief Runs this process's own command line again as `ranks` ranks (without --processes) and
/// waits for them; returns 0 when every rank succeeded, else the first failure's exit code, after
/// printing what each failed rank wrote. A rank that fails takes the others down with it after
/// HS_JOIN_WAIT_S (their exchange waits are bounded), so the wait ends.
int launch_ranks(std::uint32_t ranks);

}  // namespace hs::app
