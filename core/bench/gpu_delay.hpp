// A short busy kernel queued before a timed region, so that the GPU reaches the start event only
// after the host has also enqueued the timed work: events then measure GPU time, not the host's
// API and launch overhead (nvbench's "blocking kernel" practice).
#pragma once
#include "core/common/stream.hpp"

namespace hs::bench {

/// @brief Keeps the stream busy for about `microseconds` (no-op on a null/CPU stream).
void gpu_delay(stream_view s, double microseconds);

}  // namespace hs::bench
