// CUDA-GL interop for one GL pixel buffer: registered once, mapped for CUDA writes each frame
// (write-discard), unmapped before GL reads it. The only place HashScope calls cudaGraphics*.
#pragma once
#include <memory>
#include <string>

#include "core/common/stream.hpp"
#include "visualizers/gl/gl.hpp"

namespace hs::gl {

/// @brief Whether the current GL context and the current CUDA device are the same GPU.
/// `why_not` receives a sentence for the UI when they are not (or the check failed).
bool cuda_shares_gl_device(std::string* why_not);

class cuda_gl_buffer {
 public:
  /// @brief Registers the GL buffer for CUDA writes; throws hs::gpu_error if CUDA refuses.
  explicit cuda_gl_buffer(GLuint gl_buffer);
  cuda_gl_buffer(const cuda_gl_buffer&) = delete;
  cuda_gl_buffer& operator=(const cuda_gl_buffer&) = delete;
  ~cuda_gl_buffer();

  /// @brief Maps the buffer on the stream and returns its device pointer.
  void* map(stream_view s);
  /// @brief Unmaps it (GL may read it after this); never throws (it runs in cleanup paths).
  void unmap(stream_view s);

 private:
  void* resource_ = nullptr;  // cudaGraphicsResource_t
  bool mapped_ = false;
};

}  // namespace hs::gl
