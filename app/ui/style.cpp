// Fonts, text size and theme for ImGui and ImPlot.
#include "app/ui/style.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <imgui.h>
#include <implot.h>

#include "core/common/format.hpp"

namespace hs::app {

std::string_view to_string(theme t) { return t == theme::light ? "light" : "dark"; }

std::optional<theme> parse_theme(std::string_view s) {
  if (s == "dark") return theme::dark;
  if (s == "light") return theme::light;
  return std::nullopt;
}

float clamp_font_size(float size, std::string* notice) {
  const float c = std::clamp(size, k_min_font_size, k_max_font_size);
  if (c != size && notice)
    *notice = strprintf("text size %.0f px is outside %.0f-%.0f px: using %.0f px", size,
                        k_min_font_size, k_max_font_size, c);
  return c;
}

std::string load_ui_font() {
  ImGuiIO& io = ImGui::GetIO();
  if (!io.Fonts->Fonts.empty()) return "already loaded";
  const char* env =
      std::getenv("HASHSCOPE_FONT");  // any TrueType font, e.g. on machines without DejaVu
  const char* candidates[] = {env ? env : "",
#ifdef HS_FONT_FILE
                              HS_FONT_FILE,
#endif
                              "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"};
  for (const char* path : candidates)
    if (*path && std::filesystem::exists(path) && io.Fonts->AddFontFromFileTTF(path)) return path;
  io.Fonts->AddFontDefaultVector();
  return "ImGui's embedded scalable font (DejaVu Sans not found)";
}

void apply_style(float size, theme t) {
  ImGuiStyle& style = ImGui::GetStyle();
  style = ImGuiStyle();
  if (t == theme::light) {
    ImGui::StyleColorsLight(&style);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.97f, 0.97f, 0.97f, 1.f);
  } else {
    ImGui::StyleColorsDark(&style);
  }
  style.WindowRounding = 3.f;
  style.FrameRounding = 2.f;
  style.ScaleAllSizes(std::max(1.f, size / 16.f));
  style.FontSizeBase = size;
  if (ImPlot::GetCurrentContext()) {
    ImPlotStyle& ps = ImPlot::GetStyle();
    ps = ImPlotStyle();
    if (t == theme::light)
      ImPlot::StyleColorsLight(&ps);
    else
      ImPlot::StyleColorsDark(&ps);
    // Fitted axes leave a margin: a point at the highest rate (or the only point) is drawn whole
    // inside the plot, not halved on its edge.
    ps.FitPadding = ImVec2(0.02f, 0.06f);
  }
}

ImVec4 role_color(ui_role r, theme t) {
  const bool light = t == theme::light;
  switch (r) {
    case ui_role::cpu_backend:
      return light ? ImVec4(0.72f, 0.38f, 0.f, 1.f) : ImVec4(1.f, 0.65f, 0.2f, 1.f);
    case ui_role::gpu_backend:
      return light ? ImVec4(0.05f, 0.5f, 0.15f, 1.f) : ImVec4(0.4f, 0.9f, 0.5f, 1.f);
    case ui_role::error:
      return light ? ImVec4(0.75f, 0.05f, 0.05f, 1.f) : ImVec4(1.f, 0.35f, 0.35f, 1.f);
  }
  return ImGui::GetStyleColorVec4(ImGuiCol_Text);
}

float default_font_size(int screen_height) {
  return std::clamp(screen_height / 1080.f * 16.f, 13.f, 40.f);
}

}  // namespace hs::app
