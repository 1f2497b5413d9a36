// The window's key file reads, off the UI thread.
#include "app/ui/state/key_file_loader.hpp"

#include <utility>

#include "core/common/error.hpp"

namespace hs::app {

namespace {
struct stopped {};  // thrown from the progress callback to end a read the window no longer wants
}  // namespace

key_file_loader::~key_file_loader() { stop(); }

void key_file_loader::stop() {
  stop_ = true;
  if (worker_.joinable()) worker_.join();
  stop_ = false;
}

void key_file_loader::start(const workload::key_file_spec& spec) {
  stop();
  {
    std::lock_guard lock(mutex_);
    finished_.reset();
  }
  path_ = spec.path;
  done_ = 0;
  total_ = 1;
  busy_ = true;
  worker_ = std::thread([this, spec] {
    result r;
    try {
      r.keys = workload::load_key_file(spec, [this](std::uint64_t done, std::uint64_t total) {
        if (stop_) throw stopped{};
        done_ = done;
        total_ = total ? total : 1;
      });
    } catch (const stopped&) {
      busy_ = false;
      return;
    } catch (const std::exception& e) {
      r.error = e.what();  // a user_error names file and line; bad_alloc says it too
    }
    std::lock_guard lock(mutex_);
    finished_ = std::move(r);
    busy_ = false;
  });
}

float key_file_loader::progress() const {
  return static_cast<float>(static_cast<double>(done_.load()) / static_cast<double>(total_.load()));
}

std::optional<key_file_loader::result> key_file_loader::take() {
  std::lock_guard lock(mutex_);
  return std::exchange(finished_, std::nullopt);
}

}  // namespace hs::app
