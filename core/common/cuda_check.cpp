// Turns CUDA runtime errors into exceptions that name the failing call and its place; an error
// that leaves the context unusable is noted as the process's GPU fault (gpu_fault.hpp).
#include "core/common/cuda_check.hpp"

#include "core/common/gpu_fault.hpp"

namespace hs::detail {

bool is_sticky(cudaError_t err) {
  // The errors after which the CUDA documentation says the context "cannot be used" and "must be
  // terminated and relaunched".
  switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorContained:
    case cudaErrorTensorMemoryLeak: return true;
    default: return false;
  }
}

void throw_cuda_error(cudaError_t err, const char* what, const char* file, int line) {
  std::string msg = std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                    cudaGetErrorString(err) + ") in " + what + " at " + file + ":" +
                    std::to_string(line);
  if (is_sticky(err)) {
    note_gpu_fault(msg);  // the first one noted is the one reported; later ones echo it
    throw gpu_fault(gpu_fault_message());
  }
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
    msg += "; run with --backend cpu to use the CPU model";
  throw gpu_error(msg);
}

}  // namespace hs::detail
