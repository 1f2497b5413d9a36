// The hive family's options and the counters it reports beyond the common ones.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/auto_on_off.hpp"

namespace hs {

/// @brief Shape and policies of a hive table (the Hive paper). The capacity is buckets x slots, the
/// buckets a power of two at creation (resizing then moves one bucket at a time).
struct hive_options {
  int bucket_slots = 0;  ///< 8, 16 or 32 slots per bucket; 0: the default (measured fastest)
  int tile = 0;        ///< threads per operation: 2, 4, 8, 16 or 32, at most the slots; 0: default
  std::string hashes;  ///< two or three functions, "bithash1+bithash2"; empty: the default pair
  int eviction_depth = 16;  ///< most moves of one eviction path (0: full buckets go to the stash)
  double stash_fraction =
      0.015;  ///< stash slots as a fraction of the table's slots (1-2% in the paper)
  bool auto_resize =
      false;  ///< expand above grow_above before inserts, contract below shrink_below
  double grow_above = 0.9;
  double shrink_below = 0.25;
  std::uint64_t resize_batch =
      0;  ///< K: buckets split or merged per step; 0: 1/16 of a round (at least 1)
  bool instrument = false;  ///< count insert steps, locks, path lengths; record eviction paths
  auto_on_off bulk =
      auto_on_off::automatic;  ///< insert batches without statuses by grouped rounds (hive_bulk.cu;
                               ///< automatic: batches of 1/8 of the table or more, tables of 2^24
                               ///< slots or more; off: always key by key)
};

/// @brief What a hive table reports beyond the common counters.
struct hive_counters {
  std::uint32_t slots_per_bucket = 0;
  std::uint64_t buckets = 0, round = 0, split = 0;  ///< linear hashing: buckets = round + split
  std::uint64_t stash_capacity = 0;
  std::uint64_t stash_used = 0;  ///< stash slots handed out since the last drain
  std::uint64_t stash_live = 0;  ///< live keys in the stash
  bool instrumented = false;     ///< the counters below are being kept
  std::uint64_t steps[4] = {};  ///< inserts completed by step 1 (replace) .. 4 (stash), since clear
  std::uint64_t moves = 0;      ///< entries moved by evictions
  std::uint64_t locks = 0;      ///< bucket locks taken by evictions
  std::uint64_t restarts = 0;   ///< inserts that started over (a lost claim, a broken path)
  std::uint64_t path_lengths[33] = {};   ///< evictions by moves in their path
  std::uint64_t splits = 0, merges = 0;  ///< buckets split and merged by resizing, since creation
  /// @brief Merges a contraction was asked for but did not make, since creation: the keys would
  /// have filled more than k_contract_fill (0.9) of the smaller table.
  std::uint64_t merges_refused = 0;
  std::uint64_t bulk_batches = 0;  ///< insert batches placed by grouped rounds, since creation
  std::uint64_t bulk_rest =
      0;  ///< keys of those the per-key kernels placed: left by the rounds, or past load 0.9
  /// @brief Adds another shard's counters (core/shard): every count sums (buckets = round + split
  /// still holds); the bucket width is the shards' one.
  void add_shard(const hive_counters& o) {
    slots_per_bucket = o.slots_per_bucket;
    buckets += o.buckets;
    round += o.round;
    split += o.split;
    stash_capacity += o.stash_capacity;
    stash_used += o.stash_used;
    stash_live += o.stash_live;
    moves += o.moves;
    locks += o.locks;
    restarts += o.restarts;
    splits += o.splits;
    merges += o.merges;
    merges_refused += o.merges_refused;
    bulk_batches += o.bulk_batches;
    bulk_rest += o.bulk_rest;
    instrumented = instrumented || o.instrumented;
    for (int i = 0; i < 4; ++i) steps[i] += o.steps[i];
    for (int i = 0; i < 33; ++i) path_lengths[i] += o.path_lengths[i];
  }
};

}  // namespace hs
