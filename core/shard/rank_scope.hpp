// Work for a sharded table's rank r runs with GPU r current (its allocations, launches and
// frees); simulated devices have no GPU to switch to.
#pragma once
#include <cstdint>
#include <optional>

#include "core/common/device.hpp"

namespace hs::detail {

class rank_scope {
 public:
  rank_scope(bool gpu, std::uint32_t rank) {
    if (gpu) scope_.emplace(static_cast<int>(rank));
  }

 private:
  std::optional<device_scope> scope_;
};

}  // namespace hs::detail
