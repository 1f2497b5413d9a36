// Host entry points of the slab family's kernels (slab_kernels.cu, slab_inspect.cu), and the plain
// structures they take. The table (slab_table.cu) owns the memory; these only launch. The view
// they take, slab_ref, is in slab_ref.hpp.
#pragma once
#include <cstdint>

#include "core/common/hash.hpp"
#include "core/common/stream.hpp"
#include "core/common/types.hpp"
#include "core/slab/slab_ref.hpp"
#include "core/table/batch_operands.hpp"
#include "core/table/inspection.hpp"
#include "core/table/table.hpp"

namespace hs::slab {

/// @brief The counter of operations of `kind` rejected for a reserved key or value.
HS_HD int rejected_counter(op_kind kind) {
  return kind == op_kind::insert ? 2 : kind == op_kind::find ? 4 : 5;
}

/// @brief What a batch does: one operation for all, or the kinds array (a mixed batch).
enum class batch_op : std::uint8_t { mixed, search, insert, erase, erase_all, count, search_all };

/// @brief A batch of n operations; outputs may be null when not wanted.
struct batch_io : batch_operands {
  batch_op op = batch_op::mixed;
  std::uint32_t* counts = nullptr;         ///< count, erase_all
  const std::uint64_t* offsets = nullptr;  ///< search_all: n + 1 offsets into all_values
  value_type* all_values = nullptr;
};

void launch_batch(const slab_ref& t, const batch_io& io, stream_view s);
/// @brief SlabAlloc alone: n allocations, one per thread (k_null_address where none was free).
void launch_allocate(const slab_ref& t, std::uint32_t* out, std::uint64_t n, stream_view s);
/// @brief Returns slabs to SlabAlloc (k_null_address entries are skipped).
void launch_deallocate(const slab_ref& t, const std::uint32_t* addresses, std::uint64_t n,
                       stream_view s);
/// @brief FLUSH: one warp per bucket compacts its list and frees the emptied slabs.
void launch_flush(const slab_ref& t, stream_view s);

// Inspection (slab_inspect.cu).

/// Counts over all lists: out[0] live pairs, [1] tombstones, [2] chained slabs, [3] longest list.
void launch_census(const slab_ref& t, unsigned long long* out, stream_view s);
/// Allocated slabs (bits set) over the whole pool, added to *out.
void launch_count_allocated(const slab_ref& t, unsigned long long* out, stream_view s);
/// Histograms (device layout of linear's device_histogram: counts, total, sum, max) of list
/// lengths and of the slab position of each live pair; either may be null.
void launch_chain_histograms(const slab_ref& t, void* lengths, void* positions, stream_view s);
/// Strip pixels (sum and max of list lengths as two floats each, width pixels, zeroed first).
void launch_strip(const slab_ref& t, const bucket_strip_query& q, float* sum_max, stream_view s);
/// Occupancy of the base slabs' pairs (slot = bucket * 15 + pair); mean_displacement carries the
/// chained slabs of the pixel's buckets.
void launch_occupancy(const slab_ref& t, const occupancy_query& q, stream_view s);
/// Copies up to `limit` slabs of a bucket's list (32 words and the address each) to out, and its
/// total length to *total.
void launch_copy_chain(const slab_ref& t, std::uint32_t bucket, std::uint32_t limit,
                       std::uint32_t* out_words, std::uint32_t* out_addresses,
                       unsigned long long* total, stream_view s);
/// Allocated slabs of every memory block.
void launch_block_fill(const slab_ref& t, std::uint16_t* out, stream_view s);
/// Live pairs, at most room, all counted in *count (zeroed first).
void launch_retrieve_all(const slab_ref& t, key_type* keys, value_type* values, std::uint64_t room,
                         unsigned long long* count, stream_view s);

}  // namespace hs::slab
