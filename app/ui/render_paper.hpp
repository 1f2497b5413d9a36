// render --style paper: a captured view as a figure for a paper or a slide (white, no widgets, axes
// with labels and units, legends, the stage's caption under it), written as PNG, SVG and PDF
// through the figure layer. Views without a paper figure yet are rendered in screen style.
#pragma once
#include <optional>
#include <string>

#include "app/ui/app_frame.hpp"
#include "visualizers/figure/figure.hpp"

namespace hs::app {

/// @brief How render draws: screen (the window's look, PNG) or paper (figure layer).
struct render_style {
  bool paper = false;
  fig::page page;
};

/// @brief The paper figure of `view` from the frame's latest sample and the session's records, or
/// nothing when the view has none yet (the caller renders it in screen style).
std::optional<fig::figure> paper_figure(app_frame& frame, const std::string& view,
                                        const std::string& caption);

}  // namespace hs::app
