// Font atlas and style scaling.
#include "app/ui/fonts.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <imgui.h>

namespace hs::app {

void apply_font_size(float size) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig cfg;
  cfg.OversampleH = 2;
  const char* env = std::getenv("HASHSCOPE_FONT");  // any TrueType font, e.g. on machines without DejaVu
  const char* candidates[] = {env ? env : "",
#ifdef HS_FONT_FILE
                              HS_FONT_FILE,
#endif
                              "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"};
  ImFont* font = nullptr;
  for (const char* path : candidates)
    if (!font && *path && std::filesystem::exists(path)) font = io.Fonts->AddFontFromFileTTF(path, size, &cfg);
  if (!font) {
    ImFontConfig def;
    def.SizePixels = size;
    io.Fonts->AddFontDefault(&def);
  }
  io.Fonts->Build();
  ImGuiStyle& style = ImGui::GetStyle();
  style = ImGuiStyle();
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 3.f;
  style.FrameRounding = 2.f;
  style.ScaleAllSizes(std::max(1.f, size / 16.f));
}

float default_font_size(int screen_height) { return std::clamp(screen_height / 1080.f * 16.f, 13.f, 40.f); }

}  // namespace hs::app
