// Where a batch's runs lie in the buffers an exchange step reads and writes. The partition packs
// each owner's run from a multiple of k_run_align on (the padded layout); a shard's table call
// reads what it received with no gap (the packed layout). A step sends each long run's bulk (its
// whole multiples of k_run_align) and its rest apart, so that every bulk starts on 16 bytes where
// it is read and where it is written: NCCL copies such a segment 16 bytes at a time, and one that
// starts off 16 bytes a byte at a time.
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

/// Runs shorter than this go whole, in the rests: a second NCCL operation to a peer has a fixed
/// cost that a short run's slower copy may not repay (a first guess, not yet measured on GPUs).
inline constexpr std::uint64_t k_split_least = std::uint64_t{1} << 18;

/// A run's bulk: its whole multiples of k_run_align, none for a run shorter than `least`.
inline std::uint64_t bulk_of(std::uint64_t count, std::uint64_t least) {
  return count < least ? 0 : count / k_run_align * k_run_align;
}

/// The elements a padded layout of these runs spans.
inline std::uint64_t padded_total(const std::vector<std::uint64_t>& counts) {
  std::uint64_t total = 0;
  for (const std::uint64_t c : counts) total += aligned_up(c);
  return total;
}

/// Where each run's bulk and rest start in a layout, in elements.
struct run_starts {
  std::vector<std::uint64_t> bulk, rest;
  run_starts(const std::vector<std::uint64_t>& counts, run_layout layout, std::uint64_t least) {
    std::uint64_t at = 0, rests = 0;
    if (layout == run_layout::packed)
      for (const std::uint64_t c : counts) rests += bulk_of(c, least);
    for (const std::uint64_t c : counts) {
      const std::uint64_t bulk_count = bulk_of(c, least);
      bulk.push_back(at);
      rest.push_back(layout == run_layout::padded ? at + bulk_count : rests);
      at += layout == run_layout::padded ? aligned_up(c) : bulk_count;
      rests += c - bulk_count;
    }
  }
};

/// One lane of a batch (elements of e bytes) as two steps' segments: [0] the runs' bulks, [1] their
/// rests. `from` holds the sends, one run a peer, and `to` the receives, in the layouts named;
/// runs shorter than `least` go whole in [1].
inline std::array<rank_segments, 2> split_lane(std::uint32_t rank, std::uint32_t n, stream_view s,
                                               const void* from, run_layout from_layout,
                                               const std::vector<std::uint64_t>& sends, void* to,
                                               run_layout to_layout,
                                               const std::vector<std::uint64_t>& receives,
                                               std::size_t e, std::uint64_t least = k_split_least) {
  const run_starts out(sends, from_layout, least), in(receives, to_layout, least);
  std::array<rank_segments, 2> parts;
  for (int part = 0; part < 2; ++part) {
    rank_segments& l = parts[part];
    l.rank = rank;
    l.stream = s;
    for (std::uint32_t j = 0; j < n; ++j) {
      const std::uint64_t bulk_out = bulk_of(sends[j], least),
                          bulk_in = bulk_of(receives[j], least);
      const std::uint64_t sent = part == 0 ? bulk_out : sends[j] - bulk_out;
      const std::uint64_t taken = part == 0 ? bulk_in : receives[j] - bulk_in;
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
