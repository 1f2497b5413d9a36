// The numbers behind each figure, as the CSV written beside it (render, File > Export figures):
// the common views' here, a family figure's from its view entry.
#pragma once
#include <string>

#include "app/ui/app_frame.hpp"

namespace hs::app {

/// @brief The CSV beside figure `view` (a common view, "compare", or one of the family's figures).
std::string figure_numbers(const app_frame& f, const std::string& view);

}  // namespace hs::app
