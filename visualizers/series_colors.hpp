// Colours for plot series, shared by every view so that a series kind keeps its colour across
// plots.
#pragma once
#include <imgui.h>

namespace hs::vis {

/// @brief The colour of series i: six that stay distinguishable with colour-blindness (Okabe-Ito),
/// then again from the first.
ImVec4 series_color(int i);

}  // namespace hs::vis
