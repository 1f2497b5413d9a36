// CUDA-GL interop: registration, mapping, and the same-GPU check behind the host-copy fallback.
#include "visualizers/gl/cuda_gl_buffer.hpp"

// glad's gl.h comes first (through cuda_gl_buffer.hpp), so cuda_gl_interop.h's GL include is inert.
#include <cuda_gl_interop.h>

#include "core/common/cuda_check.hpp"

namespace hs::gl {

namespace {
cudaGraphicsResource_t res(void* r) { return static_cast<cudaGraphicsResource_t>(r); }
}  // namespace

bool cuda_shares_gl_device(std::string* why_not) {
  int cuda_device = 0;
  if (cudaGetDevice(&cuda_device) != cudaSuccess) {
    cudaGetLastError();
    if (why_not) *why_not = "no CUDA device";
    return false;
  }
  unsigned count = 0;
  int devices[8] = {};
  const cudaError_t err = cudaGLGetDevices(&count, devices, 8, cudaGLDeviceListAll);
  if (err != cudaSuccess) {
    cudaGetLastError();
    if (why_not)
      *why_not =
          std::string("the OpenGL context is not on a CUDA GPU (") + cudaGetErrorString(err) + ")";
    return false;
  }
  for (unsigned i = 0; i < count; ++i)
    if (devices[i] == cuda_device) return true;
  if (why_not) *why_not = "CUDA and OpenGL run on different GPUs";
  return false;
}

cuda_gl_buffer::cuda_gl_buffer(GLuint gl_buffer) {
  cudaGraphicsResource_t r = nullptr;
  HS_CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&r, gl_buffer, cudaGraphicsRegisterFlagsWriteDiscard));
  resource_ = r;
}

cuda_gl_buffer::~cuda_gl_buffer() {
  if (mapped_)
    cudaGraphicsUnmapResources(1, reinterpret_cast<cudaGraphicsResource_t*>(&resource_), nullptr);
  if (resource_) cudaGraphicsUnregisterResource(res(resource_));
}

void* cuda_gl_buffer::map(stream_view s) {
  auto r = res(resource_);
  HS_CUDA_CHECK(cudaGraphicsMapResources(1, &r, static_cast<cudaStream_t>(s.handle)));
  mapped_ = true;
  void* ptr = nullptr;
  std::size_t bytes = 0;
  HS_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&ptr, &bytes, r));
  return ptr;
}

void cuda_gl_buffer::unmap(stream_view s) {
  if (!mapped_) return;
  auto r = res(resource_);
  mapped_ = false;
  cudaGraphicsUnmapResources(
      1, &r, static_cast<cudaStream_t>(s.handle));  // an error shows at the next map
}

}  // namespace hs::gl
