// Fonts, text size and theme for ImGui and ImPlot.
#include "app/platform/style.hpp"

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

namespace {
ImFont* g_code_font = nullptr;  // in the one ImGui context's atlas, made with it
}  // namespace

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
  std::string loaded;
  g_code_font = nullptr;
  for (const char* path : candidates)
    if (*path && std::filesystem::exists(path) && io.Fonts->AddFontFromFileTTF(path)) {
      loaded = path;
      break;
    }
  if (loaded.empty()) {
    io.Fonts->AddFontDefaultVector();
    loaded = "ImGui's embedded scalable font (DejaVu Sans not found)";
  }
  // The Code panel's text editor lays glyphs on a grid: a monospaced font beside the UI's
  // (DejaVu Sans Mono from the UI font's folder, else the system's); without one it uses the UI's.
  std::filesystem::path mono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
  if (std::filesystem::exists(loaded))
    if (const auto beside = std::filesystem::path(loaded).parent_path() / "DejaVuSansMono.ttf";
        std::filesystem::exists(beside))
      mono = beside;
  if (std::filesystem::exists(mono)) g_code_font = io.Fonts->AddFontFromFileTTF(mono.c_str());
  return loaded;
}

ImFont* code_font() {
  // Only a font of the current context's atlas: a context made since may not have loaded one.
  return g_code_font && ImGui::GetIO().Fonts->Fonts.contains(g_code_font) ? g_code_font : nullptr;
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
