// EGL display selection, context creation and offscreen frames.
#include "app/platform/headless_platform.hpp"

#include <cfloat>

#include <glad/egl.h>
#include <imgui.h>
#include "visualizers/gl/gl.hpp"

#include "app/platform/imgui_renderer.hpp"
#include "core/common/device.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "visualizers/gl/gl_resources.hpp"

namespace hs::app {

struct headless_platform::egl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  std::string platform;

  ~egl() {
    if (display != EGL_NO_DISPLAY) {
      eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
      eglTerminate(display);
    }
  }

  /// Initializes `dpy` and makes a surfaceless GL 4.5 (or 3.3) core context current on it.
  bool try_display(EGLDisplay dpy, std::string& why) {
    if (dpy == EGL_NO_DISPLAY) return false;
    EGLint major = 0, minor = 0;
    if (!eglInitialize(dpy, &major, &minor)) {
      why += strprintf("; eglInitialize failed (0x%x)", eglGetError());
      return false;
    }
    gladLoaderLoadEGL(dpy);  // display extensions
    if (!eglBindAPI(EGL_OPENGL_API)) {
      why += "; no desktop OpenGL on this display";
      eglTerminate(dpy);
      return false;
    }
    // eglChooseConfig asks for window surfaces unless told otherwise; there are none here.
    EGLConfig config = nullptr;
    EGLint count = 0;
    for (EGLint surface : {EGLint{EGL_PBUFFER_BIT}, EGLint{0}}) {
      const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE,
                                       surface, EGL_NONE};
      if (eglChooseConfig(dpy, config_attribs, &config, 1, &count) && count > 0) break;
    }
    if (count == 0) {
      why += "; no OpenGL config";
      eglTerminate(dpy);
      return false;
    }
    for (auto [maj, min] : {std::pair{4, 5}, std::pair{3, 3}}) {
      const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                                    maj,
                                    EGL_CONTEXT_MINOR_VERSION,
                                    min,
                                    EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                    EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                    EGL_NONE};
      EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attribs);
      if (ctx == EGL_NO_CONTEXT) continue;
      if (eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        display = dpy;
        context = ctx;
        return true;
      }
      eglDestroyContext(dpy, ctx);
    }
    why += strprintf("; no OpenGL 3.3+ core context without a surface (0x%x)", eglGetError());
    eglTerminate(dpy);
    return false;
  }

  void open() {
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY))
      throw graphics_error(
          "headless rendering needs libEGL.so.1 (Debian: libegl1, with libegl-mesa0 or the NVIDIA "
          "driver)");
    std::string why;
    if (GLAD_EGL_EXT_device_enumeration && GLAD_EGL_EXT_platform_device) {
      EGLDeviceEXT devices[16];
      EGLint n = 0;
      if (eglQueryDevicesEXT(16, devices, &n) && n > 0) {
        // Prefer the device CUDA runs on, so that CUDA-GL interop can share the GPU.
        int cuda_ordinal = -1;
        if (auto g = query_gpu()) cuda_ordinal = g->ordinal;
        std::vector<int> order;
        for (int i = 0; i < n; ++i) {
          EGLAttrib attr = -1;
          const char* exts = eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS);
          const bool cuda = exts &&
                            std::string(exts).find("EGL_NV_device_cuda") != std::string::npos &&
                            eglQueryDeviceAttribEXT(devices[i], EGL_CUDA_DEVICE_NV, &attr) &&
                            attr == cuda_ordinal;
          order.insert(cuda ? order.begin() : order.end(), i);
        }
        for (int i : order) {
          if (try_display(eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr),
                          why)) {
            platform = strprintf("EGL device platform (device %d of %d)", i, n);
            return;
          }
        }
      } else {
        why += "; no EGL devices";
      }
    }
    if (GLAD_EGL_MESA_platform_surfaceless &&
        try_display(
            eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr),
            why)) {
      platform = "EGL surfaceless platform (Mesa)";
      return;
    }
    throw graphics_error("no EGL display offers OpenGL 3.3 for headless rendering" + why);
  }
};

headless_platform::headless_platform(float font_size, theme t) : egl_(std::make_unique<egl>()) {
  egl_->open();
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress)))
    throw graphics_error("could not load OpenGL functions through EGL");
  imgui_ = std::make_unique<imgui_renderer>(font_size, t, nullptr);
  description_ = egl_->platform + ", OpenGL " + gl::describe_context();
}

headless_platform::~headless_platform() {
  frame_target_.reset();  // GL objects and ImGui go while the context lives
  imgui_.reset();
}

float headless_platform::font_size() const { return imgui_->font_size(); }

std::vector<std::uint8_t> headless_platform::render(int width, int height,
                                                    const std::function<void()>& draw, int frames) {
  gl::render_target target(width, height);
  ImGuiIO& io = ImGui::GetIO();
  for (int f = 0; f < frames; ++f) {
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DeltaTime = 1.f / 60.f;
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    imgui_->new_frame();
    ImGui::NewFrame();
    draw();
    target.bind();
    glClearColor(0.08f, 0.08f, 0.1f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    imgui_->render();
  }
  glFinish();
  auto px = target.read_rgba();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return px;
}

void headless_platform::frame(int width, int height, const std::function<void()>& draw,
                              float font_size, theme t) {
  imgui_->set_style(font_size, t);
  if (!frame_target_ || frame_target_->width() != width || frame_target_->height() != height)
    frame_target_ = std::make_unique<gl::render_target>(width, height);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
  io.DeltaTime = 1.f / 60.f;
  imgui_->new_frame();
  ImGui::NewFrame();
  draw();
  frame_target_->bind();
  glClear(GL_COLOR_BUFFER_BIT);
  imgui_->render();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

std::vector<std::uint8_t> headless_platform::read_frame() const {
  if (!frame_target_) return {};
  frame_target_->bind();
  auto px = frame_target_->read_rgba();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return px;
}

}  // namespace hs::app
