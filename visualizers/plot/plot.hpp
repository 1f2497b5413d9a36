// A small plotting module on ImDrawList (ImPlot is not packaged where we install from): a plot
// area with axes, ticks, linear or log scales, line series, bars and a legend.
#pragma once
#include <span>
#include <string>
#include <vector>

#include <imgui.h>

namespace hs::vis {

struct axis {
  double min = 0, max = 1;
  bool log = false;
  std::string label;
  /// Custom tick positions and labels (e.g. histogram bins); empty: automatic ticks.
  std::vector<double> ticks;
  std::vector<std::string> tick_labels;
};

class plot {
 public:
  /// @brief Reserves `size` at the cursor (negative components: fill the rest of the window),
  /// draws the frame, grid, ticks and labels. `title` is drawn above the area.
  plot(const char* id, const char* title, ImVec2 size, axis x, axis y);
  ~plot();

  ImVec2 to_screen(double x, double y) const;
  /// @brief A polyline through the points (NaN breaks the line).
  void line(std::span<const double> xs, std::span<const double> ys, ImU32 color, const char* label,
            float thickness = 2.f);
  /// @brief Points only.
  void points(std::span<const double> xs, std::span<const double> ys, ImU32 color, const char* label, float radius = 2.5f);
  /// @brief A bar from (x0, base) to (x1, height).
  void bar(double x0, double x1, double height, ImU32 color);
  /// @brief Adds a legend entry without drawing data (e.g. for bars).
  void legend_entry(const char* label, ImU32 color);
  /// @brief Whether the mouse is over the area, and the data coordinates under it.
  bool hovered(double& x, double& y) const;
  /// @brief The plot area in screen coordinates.
  ImVec2 area_min() const { return min_; }
  ImVec2 area_max() const { return max_; }

 private:
  double scale(double v, const axis& a, float lo, float hi, bool flip) const;
  void draw_axes();

  ImDrawList* dl_;
  ImVec2 min_, max_;
  axis x_, y_;
  bool hovered_ = false;
  std::vector<std::pair<std::string, ImU32>> legend_;
};

/// @brief Colours for series: distinguishable and colour-blind friendly.
ImU32 series_color(int i);

}  // namespace hs::vis
