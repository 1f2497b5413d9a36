// Heatmap texture updates through CUDA-GL interop, or through the host.
#include "visualizers/heatmap_image.hpp"

#include <algorithm>

#include "core/common/error.hpp"
#include "core/common/gpu_fault.hpp"
#include "visualizers/gl/cuda_gl_buffer.hpp"
#if HS_WITH_CUDA
#include "visualizers/heatmap_colorize.hpp"
#endif

namespace hs::vis {

heatmap_image::heatmap_image(bool gpu_backend)
    : gpu_(gpu_backend), path_(gpu_backend ? "CUDA-GL interop" : "host (CPU model)") {}

heatmap_image::~heatmap_image() { release_interop(); }

// GL must have submitted and finished its reads of the buffer before CUDA lets go of it: on a
// headless EGL context nothing else flushes GL, and the driver was seen (H200) to wait forever in
// cudaGraphicsUnregisterResource, with a batch's launch on another thread waiting behind it.
void heatmap_image::release_interop() {
  if (!interop_) return;
  glFinish();
  interop_.reset();
}

void heatmap_image::resize(int w, int h) {
  if (w == w_ && h == h_ && tex_) return;
  tex_ = gl::make_rgba_texture(w, h);
  w_ = w;
  h_ = h;
  // The pixel buffer only grows (by doubling, from a floor a full-screen heatmap fits), so the
  // interop registration is remade rarely, not at every change of the panel's size.
  const std::size_t pixels = static_cast<std::size_t>(w) * h;
  if (pixels <= pbo_pixels_) return;
  release_interop();  // registered against the old buffer
  pbo_pixels_ = std::max({pixels, 2 * pbo_pixels_, k_min_buffer_pixels});
  pbo_ = gl::make_pixel_buffer(pbo_pixels_ * sizeof(rgba8));
  interop_tried_ = false;
}

void heatmap_image::update(const occupancy_pixel* pixels, memory_space space, int w, int h,
                           const colormap& cmap, const heatmap_style& style, stream_view s) {
  if (w <= 0 || h <= 0) return;
  // After a GPU fault no CUDA call is made (the picture keeps the last good sample's colours).
  if (space == memory_space::device && gpu_faulted()) return;
  resize(w, h);
#if HS_WITH_CUDA
  if (gpu_ && space == memory_space::device && !interop_tried_) {
    interop_tried_ = true;
    std::string why;
    if (gl::cuda_shares_gl_device(&why)) {
      try {
        interop_ = std::make_unique<gl::cuda_gl_buffer>(pbo_.id());
        path_ = "CUDA-GL interop";
      } catch (const gpu_error& e) {
        path_ = std::string("host copy (interop registration failed: ") + e.what() + ")";
      }
    } else {
      path_ = "host copy (" + why + ")";
    }
  }
  if (interop_ && space == memory_space::device) {
    if (lut_name_ != cmap.name || device_lut_.size() == 0) {
      device_lut_ = buffer<rgba8>(memory_space::device, k_colormap_size);
      device_lut_.upload(std::span<const rgba8>(cmap.lut), s);
      lut_name_ = cmap.name;
    }
    {
      // Unmapped on every path: a buffer left mapped would fail every later frame.
      struct mapping {
        gl::cuda_gl_buffer& b;
        stream_view s;
        rgba8* ptr;
        ~mapping() { b.unmap(s); }  // orders the CUDA writes before the GL upload below
      } m{*interop_, s, static_cast<rgba8*>(interop_->map(s))};
      detail::colorize_on_device(pixels, m.ptr, static_cast<std::uint64_t>(w) * h,
                                 device_lut_.data(), style, s);
    }
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_.id());
    glBindTexture(GL_TEXTURE_2D, tex_.id());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glFlush();  // the upload reads the buffer CUDA maps next time: submit it now (see above)
    gl::check("updating the heatmap from the interop buffer");
    return;
  }
#endif
  update_via_host(pixels, space, cmap, style, s);
}

void heatmap_image::update_via_host(const occupancy_pixel* pixels, memory_space space,
                                    const colormap& cmap, const heatmap_style& style,
                                    stream_view s) {
  const std::size_t n = static_cast<std::size_t>(w_) * h_;
  const occupancy_pixel* src = pixels;
  if (space == memory_space::device) {
    host_pixels_.resize(n);
    copy_bytes(host_pixels_.data(), memory_space::host, pixels, space, n * sizeof(occupancy_pixel),
               s);
    synchronize(s);
    src = host_pixels_.data();
  }
  host_rgba_.resize(n);
  for (std::size_t i = 0; i < n; ++i) host_rgba_[i] = heatmap_color(src[i], cmap.lut.data(), style);
  glBindTexture(GL_TEXTURE_2D, tex_.id());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w_, h_, GL_RGBA, GL_UNSIGNED_BYTE, host_rgba_.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  gl::check("updating the heatmap from host memory");
}

}  // namespace hs::vis
