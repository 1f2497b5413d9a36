// Reads a key file on a thread of its own, so the window keeps drawing (a progress bar) while a
// file of 10^8 keys loads; the frame takes the result when it is done. Destroying the loader stops
// a read under way at its next chunk.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/workload/key_file.hpp"

namespace hs::app {

class key_file_loader {
 public:
  struct result {
    std::shared_ptr<const workload::key_list> keys;  ///< null when the file was refused
    std::string error;                               ///< why (file and line), when refused
  };

  key_file_loader() = default;
  key_file_loader(const key_file_loader&) = delete;
  key_file_loader& operator=(const key_file_loader&) = delete;
  ~key_file_loader();

  /// @brief Starts reading `spec` (a read under way is stopped first).
  void start(const workload::key_file_spec& spec);
  /// @brief Whether a read is under way.
  bool busy() const { return busy_.load(); }
  /// @brief The share of the file read, 0 to 1.
  float progress() const;
  /// @brief The file being read, or the last one read.
  const std::string& path() const { return path_; }
  /// @brief The finished read, once; nothing while it runs.
  std::optional<result> take();

 private:
  void stop();

  std::thread worker_;
  std::atomic<bool> busy_{false}, stop_{false};
  std::atomic<std::uint64_t> done_{0}, total_{1};
  std::string path_;
  std::mutex mutex_;
  std::optional<result> finished_;
};

}  // namespace hs::app
