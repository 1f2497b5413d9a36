// What the views' ImPlot plots share: the plot size from a view's height parameter, histogram axes
// held on their bars, y axes that follow live data, and histograms coloured along a colormap.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <span>

#include <imgui.h>

#include "visualizers/views/histogram_frame.hpp"

namespace hs::vis {

/// @brief BeginPlot's size for a view's `height` parameter: the full width, and `height` tall or,
/// for height <= 0, the rest of the window.
ImVec2 plot_size(float height);

/// @brief After BeginPlot: x on [x_min, x_max] and y from zero (0.5 on a log axis) to above `top`,
/// set again only when that frame changes from `last` (see plot_helpers.cpp), which it updates;
/// counts read 1.5k, 12M.
void setup_histogram_axes(histogram_frame& last, const char* x_label, const char* y_label,
                          double x_min, double x_max, double top, bool log_y);

/// @brief After BeginPlot: a y axis that follows live data (auto-fit; from zero on a linear axis),
/// values read 1.5k, 12M.
void setup_fitted_y(const char* label, bool log);

/// @brief After BeginPlot: the legend above the plot area, in a row, so it hides no point.
void setup_legend_outside();

/// @brief Inside a plot: its axes' limits (x min, x max, y min, y max) as shown this frame.
std::array<double, 4> current_plot_limits();

/// @brief Before EndPlot: the bar under the mouse among `count` bars one unit apart from first_x
/// (the nearest one), or none when the plot is not hovered.
std::optional<std::size_t> hovered_bar(double first_x, std::size_t count);

/// @brief A plot of counts[i] (at least one) as bars at first_x + i, coloured along the ImPlot
/// colormap `cmap` from the first bar to the last, with the legend entry `series`. Returns the bar
/// under the mouse, for the caller's tooltip.
std::optional<std::size_t> colormap_histogram(histogram_frame& last, const char* title_id,
                                              ImVec2 size, const char* x_label, const char* y_label,
                                              const char* series, std::span<const double> counts,
                                              double first_x, bool log_y, int cmap);

}  // namespace hs::vis
