#include "core/shard/host_exchange.hpp"

#include <cstring>
#include <map>

#include "core/common/error.hpp"

namespace hs {

host_exchange::host_exchange(std::uint32_t ranks) : ranks_(ranks) {
  for (std::uint32_t r = 0; r < ranks; ++r) local_.push_back(r);
}

std::string host_exchange::describe() const {
  return std::to_string(ranks_) + " simulated devices (CPU models, host copies for NCCL)";
}

void host_exchange::all_to_all(std::span<const rank_segments> lanes, const char* step) {
  // The k-th lane a rank lists meets the k-th lane of every other rank, as under NCCL.
  std::map<std::uint32_t, std::vector<const rank_segments*>> by_rank;
  for (const rank_segments& l : lanes) {
    if (l.rank >= ranks_ || l.send.size() != ranks_ || l.recv.size() != ranks_ ||
        l.send_bytes.size() != ranks_ || l.recv_bytes.size() != ranks_)
      throw user_error(std::string(step) + " step: rank " + std::to_string(l.rank) + " lists " +
                       std::to_string(l.send.size()) + " segments for " + std::to_string(ranks_) +
                       " ranks");
    by_rank[l.rank].push_back(&l);
  }
  if (by_rank.size() != ranks_)
    throw user_error(std::string(step) + " step: " + std::to_string(by_rank.size()) + " of " +
                     std::to_string(ranks_) + " ranks took part");
  const std::size_t lane_count = by_rank.begin()->second.size();
  for (const auto& [rank, mine] : by_rank)
    if (mine.size() != lane_count)
      throw user_error(std::string(step) + " step: rank " + std::to_string(rank) + " lists " +
                       std::to_string(mine.size()) + " lanes, rank 0 lists " +
                       std::to_string(lane_count));
  for (std::size_t k = 0; k < lane_count; ++k)
    for (std::uint32_t i = 0; i < ranks_; ++i)
      for (std::uint32_t j = 0; j < ranks_; ++j) {
        const rank_segments& from = *by_rank[i][k];
        const rank_segments& to = *by_rank[j][k];
        if (from.send_bytes[j] != to.recv_bytes[i])
          throw user_error(std::string(step) + " step: rank " + std::to_string(i) + " sends " +
                           std::to_string(from.send_bytes[j]) + " bytes to rank " +
                           std::to_string(j) + ", which expects " +
                           std::to_string(to.recv_bytes[i]));
        if (from.send_bytes[j]) std::memcpy(to.recv[i], from.send[j], from.send_bytes[j]);
      }
}

}  // namespace hs
