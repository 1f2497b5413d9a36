// Colormaps as data (assets/colormaps/*.txt): anchors interpolated into 256-entry tables.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/host_device.hpp"

namespace hs::vis {

struct rgba8 {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  bool operator==(const rgba8&) const = default;
};

inline constexpr int k_colormap_size = 256;

struct colormap {
  std::string name;
  std::array<rgba8, k_colormap_size> lut{};
  /// @brief The colour of t in [0, 1] (clamped).
  rgba8 at(float t) const;
};

/// @brief Interpolates anchors (sRGB, evenly spaced from 0 to 1) into a 256-entry table.
colormap make_colormap(std::string name, const std::vector<rgba8>& anchors);
/// @brief Parses a colormap file: one hex colour per line, '#' comments. Errors name file and line.
colormap parse_colormap(const std::string& name, const std::string& text, const std::string& file);
/// @brief Loads assets/colormaps/<name>.txt.
colormap load_colormap(const std::string& name);
/// @brief The colormaps shipped in assets/colormaps, default first.
const std::vector<std::string>& colormap_names();
/// @brief The ImPlotColormap index of `m` in the current ImPlot context, added there as "hs-<name>"
/// on first use (a map of that name already there is taken as is). Returns int so that this header
/// stays free of ImPlot for the CUDA sources that include it.
int implot_colormap(const colormap& m);

/// @brief Relative luminance (sRGB weights, linearized): for checking that maps are monotone.
double luminance(rgba8 c);

}  // namespace hs::vis
