// RAII owners of OpenGL objects, and error checks that name the failing step.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "visualizers/gl/gl.hpp"

namespace hs::gl {

/// @brief Throws hs::graphics_error if GL reported an error, naming `what`.
void check(const char* what);

/// @brief "4.5 (Core Profile) Mesa 22.3.6 / llvmpipe" for labels and metadata.
std::string describe_context();

/// @brief An owned GL name with a deleter; moves, never copies.
template <void (*Delete)(GLuint)>
class handle {
 public:
  handle() = default;
  explicit handle(GLuint id) : id_(id) {}
  handle(handle&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
  handle& operator=(handle&& o) noexcept {
    std::swap(id_, o.id_);
    return *this;
  }
  handle(const handle&) = delete;
  handle& operator=(const handle&) = delete;
  ~handle() {
    if (id_) Delete(id_);
  }
  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }

 private:
  GLuint id_ = 0;
};

void delete_buffer(GLuint id);
void delete_texture(GLuint id);
void delete_framebuffer(GLuint id);

using buffer = handle<delete_buffer>;
using texture = handle<delete_texture>;
using framebuffer = handle<delete_framebuffer>;

/// @brief A pixel-unpack buffer of `bytes`, for streaming images into textures.
buffer make_pixel_buffer(std::size_t bytes);
/// @brief An RGBA8 texture of w x h with nearest filtering (pixels are data, not photos).
texture make_rgba_texture(int w, int h);

/// @brief The pixels of an RGBA8 texture, first row first (as uploaded).
std::vector<std::uint8_t> read_texture_rgba(GLuint texture, int w, int h);

/// @brief An offscreen RGBA8 render target: what headless rendering draws into.
class render_target {
 public:
  render_target(int w, int h);
  void bind() const;
  int width() const { return w_; }
  int height() const { return h_; }
  /// @brief The pixels, top row first, RGBA8.
  std::vector<std::uint8_t> read_rgba() const;

 private:
  int w_, h_;
  framebuffer fbo_;
  texture color_;
};

}  // namespace hs::gl
