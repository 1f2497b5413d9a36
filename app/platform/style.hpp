// Fonts, text size and colour theme. Dear ImGui 1.92+ renders glyphs at any size on demand, so a
// size change sets style.FontSizeBase and rescales the style: no atlas rebuild, crisp up to 64 px.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct ImFont;

struct ImVec4;

namespace hs::app {

enum class theme : std::uint8_t { dark, light };
std::string_view to_string(theme t);
std::optional<theme> parse_theme(std::string_view s);

constexpr float k_min_font_size = 8.f, k_max_font_size = 64.f;
/// @brief The largest size the text-size control offers (the CLI and settings accept up to 64).
constexpr float k_max_slider_font_size = 48.f;

/// @brief `size` clamped to [8, 64] px; when it had to be clamped, `notice` says so.
float clamp_font_size(float size, std::string* notice);

/// @brief Adds the UI font to the current context's atlas once: $HASHSCOPE_FONT if set, else
/// DejaVu Sans when installed, else ImGui's embedded scalable font (which lays out just as
/// cleanly, only less pretty). Returns a description of the font used.
std::string load_ui_font();
/// @brief The monospaced font load_ui_font added for code, or null (then the UI's font).
ImFont* code_font();

/// @brief Resets the style to `t` (ImGui and ImPlot colours) at text size `size` px, with
/// padding and spacing scaled to match.
void apply_style(float size, theme t);

/// @brief Text colours that carry meaning, legible on both themes.
enum class ui_role : std::uint8_t { cpu_backend, gpu_backend, error };
::ImVec4 role_color(ui_role r, theme t);

/// @brief A size for a monitor of this height in pixels (16 px at 1080p).
float default_font_size(int screen_height);

}  // namespace hs::app
