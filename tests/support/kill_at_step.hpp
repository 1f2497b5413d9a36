// A write killed at one numbered point of it: the write runs in a child process whose write-step
// hook (core/common/atomic_file.hpp) sends it SIGKILL when the hook is called for the k-th time,
// as a crash or a power cut would stop it there. For the tests that a crash leaves the old file or
// the new one, never a torn one.
#pragma once
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <functional>
#include <mutex>
#include <vector>

#include "core/common/atomic_file.hpp"

namespace hs::test {

namespace kill_detail {
inline std::atomic<int> calls{0};
inline int kill_at = -1;  // the call that kills (-1: none)
inline std::mutex seen_mutex;
inline std::vector<int>* seen = nullptr;  // the steps, in order, when recording

inline void on_step(int step) {
  const int call = calls++;
  if (call == kill_at) {  // the whole process, from any thread, before kill() returns
    ::kill(::getpid(), SIGKILL);
    for (;;) ::pause();
  }
  std::lock_guard lock(seen_mutex);
  if (seen) seen->push_back(step);
}
}  // namespace kill_detail

/// @brief The steps `write` passes through, in order (it runs here, in this process, and writes).
inline std::vector<int> write_steps(const std::function<void()>& write) {
  std::vector<int> steps;
  kill_detail::calls = 0;
  kill_detail::kill_at = -1;
  kill_detail::seen = &steps;
  hs::detail::set_write_step_hook(kill_detail::on_step);
  try {
    write();
  } catch (...) {
    hs::detail::set_write_step_hook(nullptr);
    kill_detail::seen = nullptr;
    throw;
  }
  hs::detail::set_write_step_hook(nullptr);
  kill_detail::seen = nullptr;
  return steps;
}

/// @brief Runs `write` in a child process killed by SIGKILL when the write-step hook is called for
/// the `k`-th time (from 0). True when the child died so; false when it ended any other way (the
/// write finished, or threw).
inline bool killed_at_step(int k, const std::function<void()>& write) {
  const pid_t pid = ::fork();
  if (pid < 0) return false;
  if (pid == 0) {  // the child: no return into the test framework, whatever happens
    kill_detail::calls = 0;
    kill_detail::kill_at = k;
    kill_detail::seen = nullptr;
    hs::detail::set_write_step_hook(kill_detail::on_step);
    try {
      write();
    } catch (...) {
      ::_exit(2);
    }
    ::_exit(0);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return false;
  }
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

}  // namespace hs::test
