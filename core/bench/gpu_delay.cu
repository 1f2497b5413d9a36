// One thread spinning on the global timer.
#include "core/bench/gpu_delay.hpp"
#include "core/common/cuda_check.hpp"

namespace hs::bench {

namespace {
__global__ void delay_kernel(unsigned long long ns) {
  unsigned long long start;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  for (unsigned long long now = start; now - start < ns;)
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
}
}  // namespace

void gpu_delay(stream_view s, double microseconds) {
  delay_kernel<<<1, 1, 0, static_cast<cudaStream_t>(s.handle)>>>(
      static_cast<unsigned long long>(microseconds * 1e3));
  HS_CUDA_CHECK_LAUNCH();
}

}  // namespace hs::bench
