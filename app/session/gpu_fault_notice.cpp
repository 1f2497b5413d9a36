// The GPU fault note, and its one line on the terminal.
#include "app/session/gpu_fault_notice.hpp"

#include <atomic>
#include <iostream>

#include "core/common/gpu_fault.hpp"

namespace hs::app {

std::string gpu_lost_note() {
  if (!gpu_faulted()) return {};
  return "GPU fault: " + gpu_fault_message() +
         ". The table on the GPU may be half changed: HashScope no longer uses it, and no view or "
         "figure shows a sample taken after the fault. Restart HashScope to use the GPU again "
         "(the CPU model works meanwhile: --backend cpu).";
}

void announce_gpu_fault() {
  static std::atomic<bool> said{false};
  if (!gpu_faulted() || said.exchange(true)) return;
  std::cerr << "hashscope: " << gpu_lost_note() << std::endl;
}

}  // namespace hs::app
