// Host entry points of the linear family's inspection kernels (linear_inspect.cu): the slot
// census behind stats, occupancy images, the probe-length histogram and retrieve_all, for slots of
// either width W (linear_inspect.cu instantiates both).
#pragma once
#include <cstdint>

#include "core/common/device_histogram.hpp"
#include "core/common/hash.hpp"
#include "core/common/sample_parts.hpp"
#include "core/common/stream.hpp"
#include "core/linear/linear_layout.hpp"

namespace hs::linear::detail {

using hs::device_histogram;

/// Adds live, erased and tombstone counts over all slots to out[0..2] (device memory); with
/// `starts` (a word per 32 slots), also marks in the same pass the slots that start a cluster.
template <class W>
void launch_census(const W* slots, std::uint64_t capacity, unsigned long long* out, stream_view s,
                   std::uint32_t* starts = nullptr);
/// Adds the number of taken slots to *out (device memory): slots holding a key, and tombstones
/// too unless `tombstones_free` (in tombstone mode inserts reuse them).
template <class W>
void launch_count_occupied(const W* slots, std::uint64_t capacity, bool tombstones_free,
                           unsigned long long* out, stream_view s);
/// Fills q.out (device memory) with one occupancy pixel per pixel of the query.
template <class W>
void launch_occupancy(hash_kind h, probe_policy p, const W* slots, index_of_t<W> mask,
                      const occupancy_query& q, stream_view s);
/// Accumulates the displacement histogram of all key-holding slots into `out` (zeroed first).
template <class W>
void launch_probe_histogram(hash_kind h, probe_policy p, const W* slots, std::uint64_t capacity,
                            device_histogram* out, stream_view s);
/// Writes live pairs, at most `room`, counting all of them in *count (zeroed first).
template <class W>
void launch_retrieve_all(const W* slots, std::uint64_t capacity, key_of_t<W>* keys,
                         value_of_t<W>* values, std::uint64_t room, unsigned long long* count,
                         stream_view s);

}  // namespace hs::linear::detail
