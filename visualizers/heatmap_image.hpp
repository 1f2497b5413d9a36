// The GL texture behind a heatmap. On the GPU backend, occupancy pixels are coloured by CUDA
// straight into a GL pixel buffer through interop; where CUDA and GL are not on the same GPU (or
// on the CPU backend) the pixels come through the host, and the image says so.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/common/memory.hpp"
#include "core/common/sample_parts.hpp"
#include "visualizers/colormap.hpp"
#include "visualizers/gl/gl_resources.hpp"
#include "visualizers/heatmap_colors.hpp"

namespace hs::gl {
class cuda_gl_buffer;
}

namespace hs::vis {

class heatmap_image {
 public:
  /// @brief `gpu_backend`: pixels will arrive in device memory; interop is tried on first update.
  explicit heatmap_image(bool gpu_backend);
  ~heatmap_image();
  heatmap_image(const heatmap_image&) = delete;
  heatmap_image& operator=(const heatmap_image&) = delete;

  /// @brief Colours w*h pixels (in `space`) into the texture; the GL context must be current.
  void update(const occupancy_pixel* pixels, memory_space space, int w, int h, const colormap& cmap,
              const heatmap_style& style, stream_view s);

  GLuint texture() const { return tex_.id(); }
  int width() const { return w_; }
  int height() const { return h_; }
  bool uses_interop() const { return interop_ != nullptr; }
  /// @brief How pixels reach GL: "CUDA-GL interop", or "host copy (reason)".
  const std::string& path() const { return path_; }

 private:
  /// A 2560x1600 heatmap: the pixel buffer's least size.
  static constexpr std::size_t k_min_buffer_pixels = std::size_t{2560} * 1600;
  void resize(int w, int h);
  void release_interop();
  void update_via_host(const occupancy_pixel* pixels, memory_space space, const colormap& cmap,
                       const heatmap_style& style, stream_view s);

  bool gpu_;
  bool interop_tried_ = false;
  int w_ = 0, h_ = 0;
  std::size_t pbo_pixels_ = 0;  ///< the pixel buffer's size, at least w_ * h_
  gl::texture tex_;
  gl::buffer pbo_;
  std::unique_ptr<gl::cuda_gl_buffer> interop_;
  buffer<rgba8> device_lut_;
  std::string lut_name_;
  std::string path_;
  std::vector<occupancy_pixel> host_pixels_;
  std::vector<rgba8> host_rgba_;
};

}  // namespace hs::vis
