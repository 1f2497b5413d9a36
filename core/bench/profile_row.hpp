// Names a benchmark row's GPU work for profilers. While a profile_row is alive, every run that
// measure() or time_once() times sits in an NVTX push/pop range named after the row, so
//   ncu --nvtx --nvtx-include "hive find 2^25 load 0.90/" hashscope bench hive --only bulk-insert
// profiles exactly that row's kernels. Without a profiler attached NVTX does nothing.
#pragma once
#include <string>

namespace hs::bench {

class profile_row {
 public:
  explicit profile_row(std::string name);
  ~profile_row();
  profile_row(const profile_row&) = delete;
  profile_row& operator=(const profile_row&) = delete;

  /// The innermost live row's name; empty outside any row.
  static const std::string& current();

 private:
  std::string previous_;
};

/// Opens the NVTX range of the current row (if any) for one timed run; closes it when destroyed.
class profile_range {
 public:
  profile_range();
  ~profile_range();
  profile_range(const profile_range&) = delete;
  profile_range& operator=(const profile_range&) = delete;

 private:
  bool open_ = false;
};

}  // namespace hs::bench
