// Host entry points of the hive family's kernels (hive_kernels.cu, hive_resize.cu) and the plain
// structures they take. The table (hive_table.cu) owns the memory; these only launch. The view
// they take, hive_ref, is in hive_ref.hpp.
#pragma once
#include <cstdint>

#include "core/common/device_histogram.hpp"
#include "core/common/region_partition.hpp"
#include "core/table/batch_operands.hpp"
#include "core/table/inspection.hpp"

#include "core/common/stream.hpp"
#include "core/common/types.hpp"
#include "core/hive/hive_layout.hpp"
#include "core/hive/hive_ref.hpp"

namespace hs::hive {

/// @brief Device counters, one array (instrumentation off: only the ones marked always).
enum counter : int {
  c_step1,
  c_step2,
  c_step3,
  c_step4,           ///< which step completed each insert
  c_moves,           ///< entries moved by evictions
  c_locks,           ///< bucket locks taken (evictions only)
  c_pending,         ///< inserts refused, stash full: stats().failed_full (always)
  c_rejected,        ///< inserts of reserved keys or values (always)
  c_rejected_find,   ///< finds of reserved keys (always)
  c_rejected_erase,  ///< erases of reserved keys (always)
  c_restarts,        ///< inserts that started over (a lost claim or path)
  c_path_len0,       ///< + d: evictions whose path had d moves (1..32)
  c_count = c_path_len0 + k_max_eviction_depth + 1
};

/// @brief The operation kernels' instrumented tallies (steps 1-4, moves, locks, restarts) go to
/// the counters in k_tally_shards copies, one 128-byte line each, a warp adding its sums to the
/// copy of its index: one atomic per warp and non-zero tally, spread over many lines. Every warp
/// adding to the counters' one line had that L2 slice serialize 32768 atomics a batch of 2^20,
/// slowing the table's own traffic through it (H100, a hive session's mixed batches: 3.30 G ops/s
/// plain, 2.60 instrumented). launch_fold_tallies sums the copies into the counters before they are
/// read.
inline constexpr int k_tally_count = 7;
inline constexpr int k_tally_shards = 64;
inline constexpr int k_tally_stride = 16;  ///< words between copies: a 128-byte line each
/// @brief The counter tally i adds to.
HS_HD int tally_counter(int i) { return i < 5 ? c_step1 + i : i == 5 ? c_locks : c_restarts; }
static_assert(c_moves == c_step1 + 4, "steps 1-4 and moves are adjacent");

/// @brief The counter of operations of `kind` rejected for a reserved key or value.
HS_HD int rejected_counter(op_kind kind) {
  return kind == op_kind::insert ? c_rejected
         : kind == op_kind::find ? c_rejected_find
                                 : c_rejected_erase;
}

enum class batch_op : std::uint8_t { mixed, find, insert, erase };

struct batch_io : batch_operands {
  batch_op op = batch_op::mixed;
  /// Lookups only: no write can run beside this batch (read_write_order), so lookups skip the
  /// lock-word snapshots that guard a miss against a key in transit.
  bool quiet = false;
};

void launch_batch(const hive_ref& t, const batch_io& io, stream_view s);
/// @brief Adds the tallies' copies into the counters and empties them (stream-ordered: after the
/// batches queued on s before it).
void launch_fold_tallies(const hive_ref& t, stream_view s);

// Large insert batches (hive_bulk.cu): grouped by candidate bucket, then placed a block per group
// of buckets, a thread per key.

/// @brief Device scratch of bulk inserts: three copies of a batch as packed words (two the rounds
/// alternate between, one for what they leave) and the partition offsets (grown on demand, kept).
struct bulk_scratch {
  buffer<word_type> words[3];
  buffer<unsigned> offsets;
  buffer<unsigned long long> counts;
  std::uint64_t capacity = 0;
  /// Grows to hold a batch of n for the table's geometry now; false (and empty) if memory is short.
  bool reserve(const hive_ref& t, std::uint64_t n);
};

/// @brief Whether a batch of n can go the bulk way in this table (n < 2^32, two hash functions or
/// more, at most 2^28 slots: 2^18 groups of 1024).
bool bulk_possible(const hive_ref& t, std::uint64_t n);
/// @brief Inserts the n pairs (no statuses): grouped rounds by first and second candidate, the rest
/// through the insert kernels. Writes buckets with plain stores: nothing else may run on the table
/// meanwhile. Synchronizes s. Returns how many keys the rounds left to the insert kernels.
std::uint64_t bulk_insert(const hive_ref& t, const key_type* keys, const value_type* values,
                          std::uint64_t n, bulk_scratch& scratch, stream_view s);

// Resizing (hive_resize.cu): linear hashing, run alone on the table.

/// @brief Splits buckets [t.geo.split, + count) into partners b + round (the geometry passed is
/// the one before; the caller advances it). `count` <= round - split. The buckets are read from
/// `src_words` / `src_meta`: t's own arrays, or the arrays a new round replaced (then each bucket
/// is written whole into t's, instead of copied there first).
void launch_split(const hive_ref& t, std::uint64_t count, const word_type* src_words,
                  const meta_word* src_meta, stream_view s);
/// @brief Merges the `count` highest pairs (b, b + round) below the split pointer. A partner's
/// entries past b's free slots are appended to `overflow` (room for count x slots words), their
/// number added to *overflowed; the caller inserts them again.
void launch_merge(const hive_ref& t, std::uint64_t count, word_type* overflow,
                  unsigned long long* overflowed, stream_view s);
/// @brief Empties buckets [from, to): words empty, every slot free, no lock, no hint.
void launch_reset_buckets(const hive_ref& t, std::uint64_t from, std::uint64_t to, stream_view s);
/// @brief Zeroes every bucket's stash hint (keeps the lock bits).
void launch_clear_hints(const hive_ref& t, stream_view s);

// Inspection (hive_inspect.cu).

/// @brief Counts: out[0] live words in buckets, out[1] live words in the stash.
void launch_census(const hive_ref& t, unsigned long long* out, stream_view s);
/// @brief Live pairs of buckets and stash, at most room, all counted in *count (zeroed first).
void launch_retrieve(const hive_ref& t, key_type* keys, value_type* values, std::uint64_t room,
                     unsigned long long* count, stream_view s);
/// @brief Occupancy pixels of q (q.out on the device), as hive_image_inspect defines them.
void launch_occupancy(const hive_ref& t, const occupancy_query& q, stream_view s);
/// @brief Adds the candidate index of every live key to `index` and every bucket's fill to `fill`
/// (either may be null; both zeroed by the caller).
void launch_histograms(const hive_ref& t, device_histogram* index, device_histogram* fill,
                       stream_view s);
/// @brief Mean and largest fill of the buckets each strip pixel covers: out[2p], out[2p + 1].
void launch_strip(const hive_ref& t, const bucket_strip_query& q, float* out, stream_view s);

}  // namespace hs::hive
