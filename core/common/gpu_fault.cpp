// The process's first GPU fault, kept for every thread that asks.
#include "core/common/gpu_fault.hpp"

#include <atomic>
#include <mutex>

namespace hs {
namespace {
std::atomic<bool> g_faulted{false};  // read on every sample and batch: no lock on that path
std::mutex g_mutex;
std::string g_message;
}  // namespace

bool note_gpu_fault(const std::string& message) {
  std::lock_guard lock(g_mutex);
  if (g_faulted.load()) return false;
  g_message = message;
  g_faulted.store(true);
  return true;
}

bool gpu_faulted() { return g_faulted.load(); }

std::string gpu_fault_message() {
  std::lock_guard lock(g_mutex);
  return g_message;
}

}  // namespace hs
