// ImGui context lifetime, fonts, and the OpenGL 3 backend (GLSL 330 works on GL 3.3 to 4.6).
#include "app/platform/imgui_renderer.hpp"

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include "app/ui/fonts.hpp"
#include "core/common/error.hpp"

namespace hs::app {

imgui_renderer::imgui_renderer(float font_size, const char* ini_file) : font_size_(font_size) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = ini_file;
  apply_font_size(font_size_);
  if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
    ImGui::DestroyContext();
    throw graphics_error("the ImGui OpenGL 3 renderer could not start (needs OpenGL 3.3 or later)");
  }
}

imgui_renderer::~imgui_renderer() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
}

void imgui_renderer::set_font_size(float size) {
  if (size == font_size_) return;
  font_size_ = size;
  apply_font_size(size);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void imgui_renderer::new_frame() {
  ImGui_ImplOpenGL3_NewFrame();
}

void imgui_renderer::render() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace hs::app
