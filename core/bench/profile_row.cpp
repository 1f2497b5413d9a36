// NVTX ranges for the benchmark rows (header-only NVTX 3 from the CUDA toolkit; without CUDA the
// rows still nest, and nothing is emitted).
#include "core/bench/profile_row.hpp"

#include <utility>

#if HS_WITH_CUDA
#include <nvtx3/nvToolsExt.h>
#endif

namespace hs::bench {

namespace {
// Rows are set by the thread that runs the suite, which is the thread that times the work.
thread_local std::string current_row;
}  // namespace

profile_row::profile_row(std::string name)
    : previous_(std::exchange(current_row, std::move(name))) {}

profile_row::~profile_row() { current_row = std::move(previous_); }

const std::string& profile_row::current() { return current_row; }

profile_range::profile_range() {
  if (current_row.empty()) return;
#if HS_WITH_CUDA
  nvtxRangePushA(current_row.c_str());
  open_ = true;
#endif
}

profile_range::~profile_range() {
#if HS_WITH_CUDA
  if (open_) nvtxRangePop();
#endif
}

}  // namespace hs::bench
