// Which operation of which traced step a view shows, so that a view following the step (the Code
// view, the warp lanes) makes what it shows once per operation, however often frames and samples
// ask. Nothing is shown at first: the first operation asked for, of any step, is new.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>

namespace hs::app {

class step_follower {
 public:
  /// @brief Whether operation `op` of step `serial` (a serial, or any count that changes when the
  /// step's replay does) is the one shown.
  bool showing(std::uint64_t serial, std::size_t op) const {
    return shown_ == std::pair{serial, op};
  }
  /// @brief Marks it shown; true when it was not (the view makes it now).
  bool show(std::uint64_t serial, std::size_t op) {
    if (showing(serial, op)) return false;
    shown_ = {serial, op};
    return true;
  }
  /// @brief Nothing is shown: the next operation asked for is new (what it shows must be made
  /// again, its keys written another way).
  void forget() { shown_.reset(); }

 private:
  std::optional<std::pair<std::uint64_t, std::size_t>> shown_;
};

}  // namespace hs::app
