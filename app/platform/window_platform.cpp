// GLFW window and frame loop. Layout persists in ~/.config/hashscope/imgui.ini.
#include "app/platform/window_platform.hpp"

#include <cstdlib>
#include <filesystem>

#include "visualizers/gl/gl.hpp"  // glad first: GLFW must not pull in a system GL header
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include "app/platform/imgui_renderer.hpp"
#include "app/platform/png.hpp"
#include "app/ui/app_frame.hpp"
#include "app/ui/fonts.hpp"
#include "core/common/error.hpp"
#include "visualizers/gl/gl_resources.hpp"

namespace hs::app {

namespace {

std::string glfw_error_text;
void on_glfw_error(int code, const char* text) { glfw_error_text = std::to_string(code) + ": " + text; }

struct glfw_session {
  glfw_session() {
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) throw graphics_error("cannot open a window: GLFW could not start (" + glfw_error_text + ")");
  }
  ~glfw_session() { glfwTerminate(); }
};

GLFWwindow* open_window(const window_options& opt) {
  const std::pair<int, int> versions[] = {{4, 5}, {3, 3}};
  for (auto [major, minor] : versions) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    if (GLFWwindow* w = glfwCreateWindow(opt.width, opt.height, "HashScope", nullptr, nullptr)) return w;
  }
  throw graphics_error("cannot open a window with OpenGL 3.3 or later (" + glfw_error_text + ")");
}

std::string ini_path() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path dir = xdg && *xdg ? std::filesystem::path(xdg) : std::filesystem::path(home ? home : ".") / ".config";
  dir /= "hashscope";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return (dir / "imgui.ini").string();
}

}  // namespace

bool display_available() {
  const char* x = std::getenv("DISPLAY");
  const char* w = std::getenv("WAYLAND_DISPLAY");
  return (x && *x) || (w && *w);
}

int run_window(const std::function<std::unique_ptr<app_frame>()>& make, const window_options& opt) {
  glfw_session glfw;
  GLFWwindow* window = open_window(opt);
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    glfwDestroyWindow(window);
    throw graphics_error("could not load OpenGL functions for the window");
  }
  int frames = 0;
  {
    float size = opt.font_size;
    if (size <= 0) {
      const GLFWvidmode* mode = glfwGetVideoMode(glfwGetPrimaryMonitor());
      size = default_font_size(mode ? mode->height : 1080);
    }
    static const std::string ini = ini_path();
    imgui_renderer renderer(size, ini.c_str());
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    std::unique_ptr<app_frame> frame = make();
    frame->font_size = size;
    while (!glfwWindowShouldClose(window) && !frame->quit_requested && (opt.frames == 0 || frames < opt.frames)) {
      glfwPollEvents();
      if (frame->requested_font_size() > 0) {
        renderer.set_font_size(frame->requested_font_size());
        frame->font_size = renderer.font_size();
      }
      renderer.new_frame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      int w = 0, h = 0;
      glfwGetFramebufferSize(window, &w, &h);
      frame->draw_window(ImGui::GetIO().DisplaySize.x, ImGui::GetIO().DisplaySize.y, frames == 0);
      glViewport(0, 0, w, h);
      glClearColor(0.08f, 0.08f, 0.1f, 1.f);
      glClear(GL_COLOR_BUFFER_BIT);
      renderer.render();
      ++frames;
      if (!opt.screenshot.empty() && opt.frames && frames == opt.frames) {
        std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * h * 4);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadBuffer(GL_BACK);
        glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
        const std::size_t row = static_cast<std::size_t>(w) * 4;
        for (int y = 0; y < h / 2; ++y)
          std::swap_ranges(px.begin() + y * row, px.begin() + (y + 1) * row, px.begin() + (h - 1 - y) * row);
        write_png(opt.screenshot, w, h, px);
      }
      glfwSwapBuffers(window);
    }
    frame.reset();  // GL objects go while the context lives
    ImGui_ImplGlfw_Shutdown();
  }
  glfwDestroyWindow(window);
  return frames;
}

}  // namespace hs::app
