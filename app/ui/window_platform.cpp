// GLFW window and frame loop. Layout and settings persist in ~/.config/hashscope/imgui.ini,
// written whole by the frame loop (never by ImGui itself) when ImGui asks and at exit.
#include "app/ui/window_platform.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "visualizers/gl/gl.hpp"  // glad first: GLFW must not pull in a system GL header
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_internal.h>  // the input queue: whether this frame brought input

#include "app/platform/imgui_renderer.hpp"
#include "app/platform/png.hpp"
#include "app/ui/app_frame.hpp"
#include "app/ui/state/ui_settings.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "visualizers/gl/gl_resources.hpp"

namespace hs::app {

namespace {

std::string glfw_error_text;
void on_glfw_error(int code, const char* text) {
  glfw_error_text = std::to_string(code) + ": " + text;
}

struct glfw_session {
  glfw_session() {
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit())
      throw graphics_error("cannot open a window: GLFW could not start (" + glfw_error_text + ")");
  }
  ~glfw_session() { glfwTerminate(); }
};

// First launch: the primary monitor's work area; later: where the window was left.
std::array<int, 4> initial_placement(const ui_settings& s) {
  if (s.window) return *s.window;
  int x = 0, y = 0, w = 1600, h = 1000;
  if (GLFWmonitor* m = glfwGetPrimaryMonitor()) glfwGetMonitorWorkarea(m, &x, &y, &w, &h);
  return {x, y, std::max(w, 640), std::max(h, 480)};
}

// The platform's own context API first (GLX on X11), then EGL: some drivers offer OpenGL on a
// display only through one of them.
GLFWwindow* open_window(const std::array<int, 4>& place) {
  const std::pair<int, int> versions[] = {{4, 5}, {3, 3}};
  std::string tried;
  for (int api : {GLFW_NATIVE_CONTEXT_API, GLFW_EGL_CONTEXT_API}) {
    for (auto [major, minor] : versions) {
      glfwDefaultWindowHints();
      glfwWindowHint(GLFW_CONTEXT_CREATION_API, api);
      glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
      glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
      glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
      glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
      if (GLFWwindow* w = glfwCreateWindow(place[2], place[3], "HashScope", nullptr, nullptr)) {
        glfwSetWindowPos(w, place[0], place[1]);
        return w;
      }
    }
    tried += std::string(tried.empty() ? "" : "; ") +
             (api == GLFW_EGL_CONTEXT_API ? "EGL: " : "native: ") + glfw_error_text;
  }
  throw graphics_error("cannot open a window with OpenGL 3.3 or later (" + tried + ")");
}

std::string default_ini_path() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path dir = xdg && *xdg ? std::filesystem::path(xdg)
                                          : std::filesystem::path(home ? home : ".") / ".config";
  dir /= "hashscope";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return (dir / "imgui.ini").string();
}

// F11: the monitor the window is on, at its video mode, and back to where it was.
void toggle_fullscreen(GLFWwindow* window, std::array<int, 4>& restore) {
  if (glfwGetWindowMonitor(window)) {
    glfwSetWindowMonitor(window, nullptr, restore[0], restore[1], restore[2], restore[3], 0);
    return;
  }
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  if (!monitor) return;
  glfwGetWindowPos(window, &restore[0], &restore[1]);
  glfwGetWindowSize(window, &restore[2], &restore[3]);
  const GLFWvidmode* mode = glfwGetVideoMode(monitor);
  glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

std::vector<std::uint8_t> read_back(int w, int h) {
  std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  const std::size_t row = static_cast<std::size_t>(w) * 4;
  for (int y = 0; y < h / 2; ++y)
    std::swap_ranges(px.begin() + y * row, px.begin() + (y + 1) * row,
                     px.begin() + (h - 1 - y) * row);
  return px;
}

// The window's context current, vsynced, with OpenGL's functions loaded.
void load_gl(GLFWwindow* window) {
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
    glfwDestroyWindow(window);
    throw graphics_error("could not load OpenGL functions for the window");
  }
}

// The text size: the command line's, else the saved one, else one for the monitor's height;
// `notice` says when it had to be clamped.
float window_font_size(const window_options& opt, const ui_settings& persisted,
                       std::string& notice) {
  float size = opt.font_size > 0 ? opt.font_size : persisted.font_size.value_or(0.f);
  if (size <= 0) {
    const GLFWvidmode* mode = glfwGetVideoMode(glfwGetPrimaryMonitor());
    size = default_font_size(mode ? mode->height : 1080);
  }
  return clamp_font_size(size, &notice);
}

// The frame starts from the persisted settings at the window's text size and theme.
void start_frame_settings(app_frame& frame, const ui_settings& persisted, float size, theme t) {
  frame.state().settings = persisted;
  const bool presenting = frame.presenting();  // --present: its text size on top of this one
  frame.set_presenting(false, true);
  frame.state().font_size = size;
  frame.set_presenting(presenting);
  frame.state().ui_theme = t;
}

/// The frame loop and what its frames share: the window, where it goes back to from full screen,
/// and the settings that persist (which the ini handler writes).
struct frame_loop {
  GLFWwindow* window;
  const window_options& opt;
  imgui_renderer& renderer;
  app_frame& frame;
  ui_settings& persisted;
  std::array<int, 4> place;
  std::array<int, 4> restore;
  int frames = 0;
  bool settings_failed = false;  ///< said once: a settings file that cannot be written

  void run(double started);
  std::pair<int, int> draw_frame();
  void save_requested_pixels(int w, int h);
  void present();
  void wait_for_next_frame(double last_input, double frame_began);
  void remember_settings();
  void save_settings_if_asked();
};

// Frames until the window closes, the frame asks to quit, or `opt.frames` were drawn.
void frame_loop::run(double started) {
  double last_input = started;
  while (!glfwWindowShouldClose(window) && !frame.quit_requested &&
         (opt.frames == 0 || frames < opt.frames)) {
    glfwPollEvents();
    const double frame_began = glfwGetTime();
    if (ImGui::GetCurrentContext()->InputEventsQueue.Size > 0) last_input = frame_began;
    const auto [w, h] = draw_frame();
    ++frames;
    save_requested_pixels(w, h);
    present();
    wait_for_next_frame(last_input, frame_began);
    if (frame.fullscreen_requested) {
      frame.fullscreen_requested = false;
      toggle_fullscreen(window, restore);
    }
    remember_settings();
    save_settings_if_asked();
  }
}

// One frame into the window's back buffer; returns the framebuffer's width and height.
std::pair<int, int> frame_loop::draw_frame() {
  renderer.set_style(frame.state().font_size, frame.state().ui_theme);
  renderer.new_frame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  frame.draw_window();
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  glViewport(0, 0, w, h);
  glClearColor(0.08f, 0.08f, 0.1f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  renderer.render();
  return {w, h};
}

// The screenshot the user asked for, and the last frame of a scripted run when --screenshot asks.
void frame_loop::save_requested_pixels(int w, int h) {
  if (frame.screenshot_requested) {
    frame.screenshot_requested = false;
    frame.save_screenshot(read_back(w, h), w, h);
  }
  if (!opt.screenshot.empty() && opt.frames && frames == opt.frames)
    write_png(opt.screenshot, w, h, read_back(w, h));
}

// The frame on screen, with the views dragged out of the window in their own.
void frame_loop::present() {
  if (ImGui::GetIO().ConfigFlags & ImGuiConfigFlags_ViewportsEnable) {
    ImGui::UpdatePlatformWindows();
    ImGui::RenderPlatformWindowsDefault();
    glfwMakeContextCurrent(window);
  }
  glfwSwapBuffers(window);
}

// While the user only watches a running table, fewer frames leave the GPU to the table; input
// ends the wait at once.
void frame_loop::wait_for_next_frame(double last_input, double frame_began) {
  const double now = glfwGetTime();
  const double wait = frame.state().pacing.wait_before_next(now - last_input, now - frame_began,
                                                            frame.table_changing());
  if (wait > 0) glfwWaitEventsTimeout(wait);
}

// What persists: the frame's settings and, unless full screen, where the window is.
void frame_loop::remember_settings() {
  persisted = frame.state().settings;
  persisted.font_size = frame.remembered_font_size();
  persisted.ui_theme = frame.state().ui_theme;
  if (!glfwGetWindowMonitor(window)) {
    glfwGetWindowPos(window, &place[0], &place[1]);
    glfwGetWindowSize(window, &place[2], &place[3]);
  }
  persisted.window = place;
}

// ImGui asks for the settings to be saved a few seconds after the layout changed: written whole
// (a temporary file renamed into place), so a crash leaves the old file or the new one.
void frame_loop::save_settings_if_asked() {
  if (!ImGui::GetIO().WantSaveIniSettings) return;
  const std::string why = renderer.save_settings();
  if (why.empty() || settings_failed) return;
  settings_failed = true;
  frame.notify("settings not saved: " + why);
}

}  // namespace

bool display_available() {
  const char* x = std::getenv("DISPLAY");
  const char* w = std::getenv("WAYLAND_DISPLAY");
  return (x && *x) || (w && *w);
}

int run_window(const std::function<std::unique_ptr<app_frame>(bool)>& make,
               const window_options& opt) {
  const std::string ini = opt.ini_file.empty() ? default_ini_path() : opt.ini_file;
  std::string ini_notice;
  bool first_launch = false;
  ui_settings persisted = check_ini_file(ini, ini_notice, first_launch);
  if (!ini_notice.empty()) std::cerr << "hashscope: " << ini_notice << "\n";

  glfw_session glfw;
  const std::array<int, 4> place = initial_placement(persisted);
  GLFWwindow* window = open_window(place);
  load_gl(window);
  int frames = 0;
  {
    std::string size_notice;
    const float size = window_font_size(opt, persisted, size_notice);
    const theme t = opt.ui_theme.value_or(persisted.ui_theme.value_or(theme::dark));
    imgui_renderer renderer(size, t, ini.c_str());
    register_settings_handler(persisted);
    ImGuiIO& io = ImGui::GetIO();
    io.ConfigFlags |= ImGuiConfigFlags_ViewportsEnable;  // used where the platform supports it
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    std::unique_ptr<app_frame> frame = make(first_launch);
    start_frame_settings(*frame, persisted, size, t);
    if (!ini_notice.empty()) frame->notify(ini_notice);
    if (!size_notice.empty()) frame->notify(size_notice);
    renderer.load_settings();  // where ImGui would have, at its first frame
    const double started = glfwGetTime();
    frame_loop loop{window, opt, renderer, *frame, persisted, place, place};
    loop.run(started);
    frames = loop.frames;
    if (opt.frames)  // a scripted run (checks, screenshots): say how it went and which heatmap path
                     // ran
      std::cout << "hashscope: " << frames << " frames in "
                << strprintf("%.2f", glfwGetTime() - started)
                << " s, GL: " << gl::describe_context() << ", heatmap: " << frame->image().path()
                << "\n";
    frame.reset();  // GL objects go while the context lives
    if (const std::string why = renderer.save_settings(); !why.empty())
      std::cerr << "hashscope: settings not saved: " << why << "\n";
    ImGui_ImplGlfw_Shutdown();
  }
  glfwDestroyWindow(window);
  return frames;
}

}  // namespace hs::app
