// The CUDA colorize pass: occupancy pixels to RGBA, on the device (heatmap_colorize.cu).
#pragma once
#include <cstdint>

#include "core/common/sample_parts.hpp"
#include "core/common/stream.hpp"
#include "visualizers/heatmap_colors.hpp"

namespace hs::vis::detail {

/// Writes n colours to `out` (device memory, e.g. a mapped GL buffer); `lut` is a device copy.
void colorize_on_device(const occupancy_pixel* pixels, rgba8* out, std::uint64_t n,
                        const rgba8* lut, const heatmap_style& style, stream_view s);

}  // namespace hs::vis::detail
