// Crash-safe file writes: a temporary file, fsync, rename, fsync of the folder (atomic_file.hpp).
#include "core/common/atomic_file.hpp"

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <system_error>

#include "core/common/error.hpp"

namespace hs {

namespace fs = std::filesystem;

namespace {

// Chunks of write_file_atomically: a test's hook runs between them.
constexpr std::size_t k_write_chunk = std::size_t{64} << 10;

std::atomic<detail::write_step_hook> g_write_step_hook{nullptr};

[[noreturn]] void cannot_write(const fs::path& target, const std::string& why) {
  throw user_error("cannot write " + target.string() + ": " + why);
}

std::string error_text(int e) { return std::strerror(e); }

void remove_quietly(const fs::path& p) {
  std::error_code ec;
  fs::remove(p, ec);
}

// fsync, again when a signal interrupted it; false with errno set on failure.
bool sync_fd(int fd) {
  for (;;) {
    if (::fsync(fd) == 0) return true;
    if (errno != EINTR) return false;
  }
}

// The folder `target` lies in, flushed so that a rename into it is on disk. A file system that
// cannot flush a folder (EINVAL: some network and FUSE ones) has nothing more to flush, and a
// folder that may be written but not read (no r bit) cannot be opened to flush: the file is in
// place either way, so only a failed flush is an error.
void sync_folder(const fs::path& target) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  const bool synced = sync_fd(fd);
  const int e = errno;
  ::close(fd);
  if (!synced && e != EINVAL && e != ENOTSUP)
    cannot_write(target, "its folder could not be flushed to disk: " + error_text(e));
}

}  // namespace

namespace detail {

void set_write_step_hook(write_step_hook hook) { g_write_step_hook.store(hook); }

void write_step(int step) {
  if (const write_step_hook hook = g_write_step_hook.load()) hook(step);
}

}  // namespace detail

std::string temp_path_for(const fs::path& target) {
  static std::atomic<std::uint64_t> counter{0};
  return target.string() + ".tmp-" + std::to_string(static_cast<long long>(::getpid())) + "-" +
         std::to_string(counter++);
}

void commit_file(const fs::path& temp, const fs::path& target) {
  const auto fail = [&](const std::string& why) {
    remove_quietly(temp);
    cannot_write(target, why);
  };
  const int fd = ::open(temp.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    fail("its temporary file " + temp.string() + " cannot be opened: " + error_text(errno));
  const bool synced = sync_fd(fd);
  const int sync_errno = errno;
  ::close(fd);
  if (!synced) fail("it could not be flushed to disk: " + error_text(sync_errno));
  detail::write_step(detail::k_step_file_synced);
  if (::rename(temp.c_str(), target.c_str()) != 0) fail(error_text(errno));
  detail::write_step(detail::k_step_renamed);
  sync_folder(target);  // the new file is in place: nothing to remove if this fails
  detail::write_step(detail::k_step_folder_synced);
}

void write_file_atomically(const fs::path& target, std::string_view bytes) {
  // A new file of our own (O_EXCL): never one a crashed writer of the same pid left, nor a
  // link someone placed at that name; such a name is passed over for the next.
  fs::path temp;
  int fd = -1;
  for (int tries = 0; fd < 0 && tries < 16; ++tries) {
    temp = temp_path_for(target);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) cannot_write(target, error_text(errno));  // nothing was created
  const auto fail = [&](int e) {
    ::close(fd);
    remove_quietly(temp);
    cannot_write(target, error_text(e));
  };
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t end = std::min(bytes.size(), at + k_write_chunk);
    while (at < end) {  // write() may take part of what it is given, or be interrupted
      const ssize_t n = ::write(fd, bytes.data() + at, end - at);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail(errno);
      if (n == 0) fail(ENOSPC);
      at += static_cast<std::size_t>(n);
    }
    detail::write_step(detail::k_step_chunk_written);
  }
  if (::close(fd) != 0) {  // a network file system may say only now that the write failed
    const int e = errno;
    remove_quietly(temp);
    cannot_write(target, error_text(e));
  }
  commit_file(temp, target);
}

}  // namespace hs
