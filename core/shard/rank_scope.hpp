// Work for a sharded table's rank runs with the rank's GPU current (its allocations, launches and
// frees); simulated devices have no GPU to switch to.
#pragma once
#include <cstdint>
#include <optional>

#include "core/common/device.hpp"

namespace hs::detail {

class rank_scope {
 public:
  rank_scope(bool gpu, int device) {
    if (gpu) scope_.emplace(device);
  }

 private:
  std::optional<device_scope> scope_;
};

}  // namespace hs::detail
