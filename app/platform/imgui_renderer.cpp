// ImGui and ImPlot context lifetime and the OpenGL 3 backend (GLSL 330 works on GL 3.3 to 4.6).
#include "app/platform/imgui_renderer.hpp"

#include <string_view>

#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <implot.h>

#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"

namespace hs::app {

imgui_renderer::imgui_renderer(float font_size, theme t, const char* ini_file)
    : font_size_(font_size), theme_(t), ini_file_(ini_file ? ini_file : "") {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImPlot::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // read and written here, whole (load_settings, save_settings)
  io.ConfigFlags |=
      ImGuiConfigFlags_DockingEnable;  // no keyboard navigation: Space and arrows are shortcuts
  font_ = load_ui_font();
  apply_style(font_size_, theme_);
  if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
    ImPlot::DestroyContext();
    ImGui::DestroyContext();
    throw graphics_error("the ImGui OpenGL 3 renderer could not start (needs OpenGL 3.3 or later)");
  }
}

imgui_renderer::~imgui_renderer() {
  ImGui_ImplOpenGL3_Shutdown();
  ImPlot::DestroyContext();
  ImGui::DestroyContext();
}

void imgui_renderer::set_style(float size, theme t) {
  if (size == font_size_ && t == theme_) return;
  font_size_ = size;
  theme_ = t;
  apply_style(size, t);
}

void imgui_renderer::new_frame() { ImGui_ImplOpenGL3_NewFrame(); }

void imgui_renderer::load_settings() {
  if (!ini_file_.empty()) ImGui::LoadIniSettingsFromDisk(ini_file_.c_str());
}

std::string imgui_renderer::save_settings() {
  ImGuiIO& io = ImGui::GetIO();
  io.WantSaveIniSettings = false;
  if (ini_file_.empty()) return {};
  std::size_t size = 0;
  const char* text = ImGui::SaveIniSettingsToMemory(&size);
  try {
    write_file_atomically(ini_file_, std::string_view(text, size));
  } catch (const user_error& e) {
    return e.what();
  }
  return {};
}

void imgui_renderer::render() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace hs::app
