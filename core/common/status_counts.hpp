// Counting per-operation statuses where they were written (device or host), so that a caller
// learns how many keys a batch inserted, replaced, erased or failed without copying the batch back.
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "core/common/memory.hpp"
#include "core/common/stream.hpp"
#include "core/common/types.hpp"

namespace hs {

using status_counts = std::array<std::uint64_t, k_op_status_count>;

/// @brief Counts statuses into `out` (k_op_status_count words in `out_space`), ordered on the
/// stream: with device statuses, `scratch` (k_op_status_count device words) takes the counts
/// first and they are copied to `out` asynchronously (make `out` pinned to keep the stream async).
void count_statuses(std::span<const op_status> status, memory_space space, std::uint64_t* scratch,
                    std::uint64_t* out, memory_space out_space, stream_view s);

namespace detail {
void count_statuses_on_device(const op_status* status, std::uint64_t n, std::uint64_t* counts,
                              stream_view s);
}

}  // namespace hs
