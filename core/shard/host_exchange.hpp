// The host stand-in for NCCL on simulated devices: every rank lives in this process's host memory
// and a step copies each segment to its receiver.
#pragma once
#include <cstdint>
#include <vector>

#include "core/shard/shard_exchange.hpp"

namespace hs {

class host_exchange final : public shard_exchange {
 public:
  explicit host_exchange(std::uint32_t ranks);
  std::uint32_t ranks() const override { return ranks_; }
  std::span<const std::uint32_t> local_ranks() const override { return local_; }
  memory_space space() const override { return memory_space::host; }
  std::string describe() const override;
  void all_to_all(std::span<const rank_segments> lanes, const char* step) override;

 private:
  std::uint32_t ranks_;
  std::vector<std::uint32_t> local_;
};

}  // namespace hs
