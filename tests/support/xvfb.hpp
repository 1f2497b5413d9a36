// A private Xvfb server for window tests: started on a free display, stopped on destruction.
#pragma once
#include <sys/types.h>
#include <string>

namespace hs::test {

class xvfb {
 public:
  /// Starts Xvfb and sets $DISPLAY; `ok()` is false (with `error()`) when it could not start.
  xvfb(int width, int height);
  ~xvfb();
  bool ok() const { return pid_ > 0; }
  const std::string& error() const { return error_; }

 private:
  pid_t pid_ = -1;
  std::string error_;
};

}  // namespace hs::test
