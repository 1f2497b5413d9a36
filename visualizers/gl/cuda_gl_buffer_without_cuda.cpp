// Builds without CUDA: there is no interop, and the heatmap always takes the host path.
#include "core/common/error.hpp"
#include "visualizers/gl/cuda_gl_buffer.hpp"

namespace hs::gl {

bool cuda_shares_gl_device(std::string* why_not) {
  if (why_not) *why_not = "this build has no CUDA support";
  return false;
}

cuda_gl_buffer::cuda_gl_buffer(GLuint) { throw gpu_error("CUDA-GL interop needs a CUDA build"); }
cuda_gl_buffer::~cuda_gl_buffer() = default;
void* cuda_gl_buffer::map(stream_view) { throw gpu_error("CUDA-GL interop needs a CUDA build"); }
void cuda_gl_buffer::unmap(stream_view) {}

}  // namespace hs::gl
