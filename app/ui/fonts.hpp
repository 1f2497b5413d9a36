// Fonts and style scaled for the screen: $HASHSCOPE_FONT if set, else DejaVu Sans when installed
// (crisp at projector sizes), ImGui's built-in font otherwise.
#pragma once

namespace hs::app {

/// @brief Rebuilds the font atlas at `size` pixels and scales the style to match. The renderer
/// backend must recreate its font texture afterwards.
void apply_font_size(float size);

/// @brief A size for a monitor of this height in pixels (16 px at 1080p).
float default_font_size(int screen_height);

}  // namespace hs::app
