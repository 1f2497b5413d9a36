// Memory in either backend's space (host for the CPU models, device for the GPU tables), and
// a move-only typed buffer over it, so that sessions, tests and benchmarks are backend-agnostic.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/common/stream.hpp"

namespace hs {

/// host: pageable; pinned: page-locked host memory that device copies can fill asynchronously;
/// device: GPU memory.
enum class memory_space : std::uint8_t { host, pinned, device };

/// @brief True for memory the CPU can read directly.
inline bool host_accessible(memory_space s) { return s != memory_space::device; }

/// @brief The current GPU's memory: free counts what HashScope's allocator keeps for reuse.
struct device_memory {
  std::uint64_t free_bytes = 0;
  std::uint64_t total_bytes = 0;
};
/// @brief The current GPU's memory now (throws without CUDA).
device_memory device_memory_now();

/// @brief Allocates bytes in a space; device allocations report size and free memory on failure.
void* allocate_bytes(memory_space space, std::size_t bytes);
void release_bytes(memory_space space, void* p) noexcept;
/// @brief Copies bytes between spaces, ordered on the stream (host-to-host copies are immediate).
void copy_bytes(void* dst, memory_space dst_space, const void* src, memory_space src_space,
                std::size_t bytes, stream_view stream);
/// @brief Sets every byte to `byte`, ordered on the stream.
void fill_bytes(void* dst, memory_space space, int byte, std::size_t bytes, stream_view stream);

/// @brief A typed array in one memory space; owns its memory, moves but never copies.
template <class T>
class buffer {
 public:
  buffer() = default;
  buffer(memory_space space, std::size_t count)
      : space_(space),
        size_(count),
        data_(count ? static_cast<T*>(allocate_bytes(space, count * sizeof(T))) : nullptr) {}
  buffer(buffer&& o) noexcept { swap(o); }
  buffer& operator=(buffer&& o) noexcept {
    buffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  ~buffer() { release_bytes(space_, data_); }

  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  memory_space space() const { return space_; }
  std::span<T> span() const { return {data_, size_}; }
  std::span<const T> cspan() const { return {data_, size_}; }
  std::span<T> first(std::size_t n) const { return {data_, n}; }

  /// @brief Copies `src` (host memory) into the start of the buffer.
  void upload(std::span<const T> src, stream_view s = {}) {
    copy_bytes(data_, space_, src.data(), memory_space::host, src.size_bytes(), s);
  }
  /// @brief Copies the first n elements to a new host vector (synchronizes the stream).
  std::vector<T> download(std::size_t n, stream_view s = {}) const;
  std::vector<T> download() const { return download(size_); }

 private:
  void swap(buffer& o) noexcept {
    std::swap(space_, o.space_);
    std::swap(size_, o.size_);
    std::swap(data_, o.data_);
  }
  memory_space space_ = memory_space::host;
  std::size_t size_ = 0;
  T* data_ = nullptr;
};

template <class T>
std::vector<T> buffer<T>::download(std::size_t n, stream_view s) const {
  std::vector<T> out(n);
  copy_bytes(out.data(), memory_space::host, data_, space_, n * sizeof(T), s);
  synchronize(s);
  return out;
}

}  // namespace hs
