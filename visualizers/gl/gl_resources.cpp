// OpenGL object creation and error reporting.
#include "visualizers/gl/gl_resources.hpp"

#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::gl {

void check(const char* what) {
  const GLenum err = glGetError();
  if (err != GL_NO_ERROR)
    throw graphics_error(strprintf("OpenGL error 0x%04x during %s", err, what));
}

std::string describe_context() {
  auto str = [](GLenum e) {
    const auto* s = reinterpret_cast<const char*>(glGetString(e));
    return std::string(s ? s : "?");
  };
  return str(GL_VERSION) + " / " + str(GL_RENDERER);
}

void delete_buffer(GLuint id) { glDeleteBuffers(1, &id); }
void delete_texture(GLuint id) { glDeleteTextures(1, &id); }
void delete_framebuffer(GLuint id) { glDeleteFramebuffers(1, &id); }

buffer make_pixel_buffer(std::size_t bytes) {
  GLuint id = 0;
  glGenBuffers(1, &id);
  buffer b(id);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, id);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  check("creating a pixel buffer");
  return b;
}

texture make_rgba_texture(int w, int h) {
  GLuint id = 0;
  glGenTextures(1, &id);
  texture t(id);
  glBindTexture(GL_TEXTURE_2D, id);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindTexture(GL_TEXTURE_2D, 0);
  check("creating a texture");
  return t;
}

std::vector<std::uint8_t> read_texture_rgba(GLuint texture, int w, int h) {
  std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * h * 4);
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  check("reading a texture back");
  return px;
}

render_target::render_target(int w, int h) : w_(w), h_(h), color_(make_rgba_texture(w, h)) {
  GLuint id = 0;
  glGenFramebuffers(1, &id);
  fbo_ = framebuffer(id);
  glBindFramebuffer(GL_FRAMEBUFFER, id);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_.id(), 0);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw graphics_error(
        strprintf("offscreen framebuffer %dx%d incomplete (0x%04x)", w, h, status));
  check("creating the offscreen framebuffer");
}

void render_target::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
  glViewport(0, 0, w_, h_);
}

std::vector<std::uint8_t> render_target::read_rgba() const {
  std::vector<std::uint8_t> px(static_cast<std::size_t>(w_) * h_ * 4);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w_, h_, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  check("reading back the framebuffer");
  // GL's first row is the bottom one; images start at the top.
  const std::size_t row = static_cast<std::size_t>(w_) * 4;
  for (int y = 0; y < h_ / 2; ++y)
    std::swap_ranges(px.begin() + y * row, px.begin() + (y + 1) * row,
                     px.begin() + (h_ - 1 - y) * row);
  return px;
}

}  // namespace hs::gl
