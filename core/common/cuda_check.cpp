// Turns CUDA runtime errors into exceptions that name the failing call and its place.
#include "core/common/cuda_check.hpp"

namespace hs::detail {

void throw_cuda_error(cudaError_t err, const char* what, const char* file, int line) {
  std::string msg = std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                    cudaGetErrorString(err) + ") in " + what + " at " + file + ":" +
                    std::to_string(line);
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
    msg += "; run with --backend cpu to use the CPU model";
  throw gpu_error(msg);
}

}  // namespace hs::detail
