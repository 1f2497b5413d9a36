// One thread per pixel: the shared heatmap_color() applied on the GPU.
#include "core/common/cuda_check.hpp"
#include "visualizers/heatmap_colorize.hpp"

namespace hs::vis::detail {

namespace {
__global__ void colorize_kernel(const occupancy_pixel* pixels, rgba8* out, std::uint64_t n,
                                const rgba8* lut, heatmap_style style) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i < n) out[i] = heatmap_color(pixels[i], lut, style);
}
}  // namespace

void colorize_on_device(const occupancy_pixel* pixels, rgba8* out, std::uint64_t n,
                        const rgba8* lut, const heatmap_style& style, stream_view s) {
  if (n == 0) return;
  const unsigned block = 256;
  colorize_kernel<<<static_cast<unsigned>((n + block - 1) / block), block, 0,
                    static_cast<cudaStream_t>(s.handle)>>>(pixels, out, n, lut, style);
  HS_CUDA_CHECK_LAUNCH();
}

}  // namespace hs::vis::detail
