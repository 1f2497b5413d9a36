// Short axis labels (1.5k, 12M, 3.2G) for the plots' count and rate axes; the label itself needs no
// ImGui, so that it can be tested on its own.
#pragma once
#include <string>

namespace hs::vis {

/// @brief A short label: 0.25, 1.5k, 12M, 3.2G, 1e-3.
std::string tick_label(double v);
/// @brief tick_label as an ImPlotFormatter, for ImPlot::SetupAxisFormat: writes the label into buf
/// and returns what snprintf returns.
int format_tick(double value, char* buf, int size, void* user_data);

}  // namespace hs::vis
