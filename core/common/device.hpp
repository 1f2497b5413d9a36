// Which backend runs the tables: the CUDA device if there is one, the CPU models otherwise.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hs {

enum class backend : std::uint8_t { gpu, cpu };
enum class backend_choice : std::uint8_t { automatic, gpu, cpu };

std::string_view to_string(backend b);
std::optional<backend_choice> parse_backend_choice(std::string_view s);
/// @brief "auto", "gpu" or "cpu", as parse_backend_choice reads it.
std::string_view to_string(backend_choice c);

/// @brief What the CUDA runtime reports about the current device.
struct gpu_info {
  int ordinal = 0;
  std::string name;
  std::uint64_t total_bytes = 0;
  std::uint64_t free_bytes = 0;
  int sm_count = 0;
  int l2_bytes = 0;
  int compute_major = 0, compute_minor = 0;
};

/// @brief The CUDA device, or nullopt with the reason in `why_not` (no build support, no device,
/// driver error).
std::optional<gpu_info> query_gpu(std::string* why_not = nullptr);

/// @brief Resolves a user's choice: `automatic` picks the GPU when present. Asking for the GPU
/// where there is none throws hs::user_error with the reason. `note` receives the GPU's name, or
/// why the CPU model runs ("no CUDA device (...)", "chosen with --backend cpu").
backend resolve_backend(backend_choice choice, std::string* note = nullptr);

/// @brief CUDA devices this process sees (0 without CUDA, without a device, or on a driver error).
int gpu_count();

/// @brief Makes a device the calling thread's current one for its lifetime, then the one before
/// again: the tables of a sharded table allocate and launch on their own GPU (no-op without CUDA).
class device_scope {
 public:
  explicit device_scope(int ordinal);
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;
  ~device_scope();

 private:
  int before_ = -1;
};

/// @brief "NVIDIA H200 (GPU)" or "CPU model (no CUDA device: ...)" for labels and metadata.
std::string backend_label(backend b);

}  // namespace hs
