// Colormap loading and interpolation, and their registration with ImPlot.
#include "visualizers/colormap.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include <implot.h>

#include "core/common/assets.hpp"
#include "core/common/error.hpp"

namespace hs::vis {

rgba8 colormap::at(float t) const {
  if (!(t > 0.f)) t = 0.f;
  if (t > 1.f) t = 1.f;
  return lut[static_cast<std::size_t>(std::lround(t * (k_colormap_size - 1)))];
}

colormap make_colormap(std::string name, const std::vector<rgba8>& anchors) {
  if (anchors.size() < 2) throw user_error("colormap " + name + " needs at least two colours");
  colormap m;
  m.name = std::move(name);
  const double segments = static_cast<double>(anchors.size() - 1);
  for (int i = 0; i < k_colormap_size; ++i) {
    const double x = i / double(k_colormap_size - 1) * segments;
    const auto a = static_cast<std::size_t>(std::min(std::floor(x), segments - 1));
    const double f = x - static_cast<double>(a);
    auto mix = [&](std::uint8_t p, std::uint8_t q) {
      return static_cast<std::uint8_t>(std::lround(p + (q - p) * f));
    };
    const rgba8 &p = anchors[a], &q = anchors[a + 1];
    m.lut[static_cast<std::size_t>(i)] = {mix(p.r, q.r), mix(p.g, q.g), mix(p.b, q.b), 255};
  }
  return m;
}

colormap parse_colormap(const std::string& name, const std::string& text, const std::string& file) {
  std::vector<rgba8> anchors;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string hex;
    if (!(words >> hex)) continue;
    unsigned v = 0;
    char extra = 0;
    if (hex.size() != 6 || std::sscanf(hex.c_str(), "%6x%c", &v, &extra) != 1)
      throw user_error(file + ":" + std::to_string(n) + ": '" + hex +
                       "' is not a colour (6 hex digits, e.g. 440154)");
    anchors.push_back({static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
                       static_cast<std::uint8_t>(v), 255});
  }
  if (anchors.size() < 2) throw user_error(file + ": a colormap needs at least two colours");
  return make_colormap(name, anchors);
}

colormap load_colormap(const std::string& name) {
  const auto path = asset_path("colormaps/" + name + ".txt");
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  return parse_colormap(name, text.str(), path.string());
}

const std::vector<std::string>& colormap_names() {
  static const std::vector<std::string> names = {"viridis", "cividis"};
  return names;
}

int implot_colormap(const colormap& m) {
  // Colormaps live in the ImPlot context: look up by name, so that each context gets its own copy
  // once and the per-frame cost is a lookup.
  const std::string name = "hs-" + m.name;
  const ImPlotColormap found = ImPlot::GetColormapIndex(name.c_str());
  if (found >= 0) return found;
  std::array<ImU32, k_colormap_size> cols{};
  for (std::size_t i = 0; i < cols.size(); ++i)
    cols[i] = IM_COL32(m.lut[i].r, m.lut[i].g, m.lut[i].b, m.lut[i].a);
  return ImPlot::AddColormap(name.c_str(), cols.data(), k_colormap_size, false);
}

double luminance(rgba8 c) {
  auto lin = [](std::uint8_t v) {
    const double s = v / 255.0;
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

}  // namespace hs::vis
