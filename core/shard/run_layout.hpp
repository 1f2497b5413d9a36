// Where a batch's runs lie in the buffers an exchange step reads and writes. The partition packs
// each owner's run from a multiple of k_run_align on (the padded layout); a shard's table call
// reads what it received with no gap (the packed layout). A step sends each run's bulk (its whole
// multiples of k_run_align) and its rest apart, so that every bulk starts on 16 bytes where it is
// read and where it is written: NCCL copies such a segment 16 bytes at a time, and one that starts
// off 16 bytes a byte at a time.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "core/shard/shard_exchange.hpp"
#include "core/shard/shard_lanes.hpp"

namespace hs::detail {

/// `padded`: peer j's run from a multiple of k_run_align on, its bulk then its rest. `packed`:
/// every run's bulk in peer order, then every run's rest, with no gap.
enum class run_layout { padded, packed };

inline std::uint64_t bulk_of(std::uint64_t count) { return count / k_run_align * k_run_align; }

/// The elements a padded layout of these runs spans.
inline std::uint64_t padded_total(const std::vector<std::uint64_t>& counts) {
  std::uint64_t total = 0;
  for (const std::uint64_t c : counts) total += aligned_up(c);
  return total;
}

/// Where each run's bulk and rest start in a layout, in elements.
struct run_starts {
  std::vector<std::uint64_t> bulk, rest;
  run_starts(const std::vector<std::uint64_t>& counts, run_layout layout) {
    std::uint64_t at = 0, rests = 0;
    if (layout == run_layout::packed)
      for (const std::uint64_t c : counts) rests += bulk_of(c);
    for (const std::uint64_t c : counts) {
      bulk.push_back(at);
      rest.push_back(layout == run_layout::padded ? at + bulk_of(c) : rests);
      at += layout == run_layout::padded ? aligned_up(c) : bulk_of(c);
      rests += c - bulk_of(c);
    }
  }
};

/// One lane of a batch (elements of e bytes) as two steps' segments: [0] the runs' bulks, [1] their
/// rests. `from` holds the sends, one run a peer, and `to` the receives, in the layouts named.
inline std::array<rank_segments, 2> split_lane(std::uint32_t rank, std::uint32_t n, stream_view s,
                                               const void* from, run_layout from_layout,
                                               const std::vector<std::uint64_t>& sends, void* to,
                                               run_layout to_layout,
                                               const std::vector<std::uint64_t>& receives,
                                               std::size_t e) {
  const run_starts out(sends, from_layout), in(receives, to_layout);
  std::array<rank_segments, 2> parts;
  for (int part = 0; part < 2; ++part) {
    rank_segments& l = parts[part];
    l.rank = rank;
    l.stream = s;
    for (std::uint32_t j = 0; j < n; ++j) {
      const std::uint64_t sent = part == 0 ? bulk_of(sends[j]) : sends[j] - bulk_of(sends[j]);
      const std::uint64_t taken =
          part == 0 ? bulk_of(receives[j]) : receives[j] - bulk_of(receives[j]);
      l.send.push_back(static_cast<const unsigned char*>(from) +
                       (part == 0 ? out.bulk[j] : out.rest[j]) * e);
      l.send_bytes.push_back(sent * e);
      l.recv.push_back(static_cast<unsigned char*>(to) + (part == 0 ? in.bulk[j] : in.rest[j]) * e);
      l.recv_bytes.push_back(taken * e);
    }
  }
  return parts;
}

}  // namespace hs::detail
