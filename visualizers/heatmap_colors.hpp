// How an occupancy pixel becomes a colour, written once for the CUDA colorize kernel and the host
// path (CPU backend, or CUDA and GL on different GPUs).
#pragma once
#include <cmath>
#include <cstdint>

#include "core/common/host_device.hpp"
#include "core/common/sample_parts.hpp"
#include "visualizers/colormap.hpp"

namespace hs::vis {

enum class heatmap_mode : std::uint8_t {
  occupancy,  ///< colormap of the live fraction; erased values and tombstones in their own colours
  displacement,  ///< colormap of the mean probe length (log scale); empty pixels dark
};

struct heatmap_style {
  heatmap_mode mode = heatmap_mode::occupancy;
  float displacement_max = 64.f;     ///< mean probe length at the top of the colormap
  rgba8 erased{230, 97, 1, 255};     ///< value erased, key still holding the slot (orange)
  rgba8 tombstone{202, 0, 32, 255};  ///< tombstone (red)
  rgba8 empty{24, 24, 28, 255};      ///< displacement mode: a pixel with no keys
  rgba8 none{12, 12, 14, 255};       ///< a pixel past the end of the shown slots
};

HS_HD std::uint8_t blend_channel(std::uint8_t a, std::uint8_t b, float t) {
  return static_cast<std::uint8_t>(static_cast<float>(a) +
                                   (static_cast<float>(b) - static_cast<float>(a)) * t + 0.5f);
}

HS_HD rgba8 blend(rgba8 a, rgba8 b, float t) {
  return {blend_channel(a.r, b.r, t), blend_channel(a.g, b.g, t), blend_channel(a.b, b.b, t), 255};
}

HS_HD int lut_index(float t) {
  if (!(t > 0.f)) return 0;
  if (t >= 1.f) return k_colormap_size - 1;
  return static_cast<int>(t * (k_colormap_size - 1) + 0.5f);
}

/// @brief The colour of one heatmap pixel.
HS_HD rgba8 heatmap_color(const occupancy_pixel& p, const rgba8* lut, const heatmap_style& style) {
  if (p.mean_displacement == k_no_slot) return style.none;
  if (style.mode == heatmap_mode::displacement) {
    if (p.live + p.erased <= 0.f) return style.empty;
    const float t = log2f(1.f + p.mean_displacement) / log2f(1.f + style.displacement_max);
    return lut[lut_index(t)];
  }
  // The live fraction picks the colormap entry; erased and tombstoned fractions pull the colour
  // towards their own hues, so a pixel of all-deleted slots shows pure orange or red.
  const float other = p.erased + p.tombstone;
  rgba8 c = lut[lut_index(p.live)];
  if (other > 0.f) {
    const rgba8 deleted = p.tombstone > 0.f
                              ? blend(style.erased, style.tombstone, p.tombstone / other)
                              : style.erased;
    c = blend(c, deleted, other);
  }
  return c;
}

}  // namespace hs::vis
