// The sampler thread.
#include "app/session/sampler.hpp"

#include <chrono>
#include <utility>

#include "core/common/error.hpp"

namespace hs::app {

sampler::sampler(session& s) : sess_(s), thread_([this] { loop(); }) {}

sampler::~sampler() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void sampler::request(const sample_request& req, const vis::heatmap_request& tag) {
  {
    std::lock_guard lock(mutex_);
    asked_ = std::pair(req, tag);
  }
  wake_.notify_all();
}

bool sampler::busy() const {
  std::lock_guard lock(mutex_);
  return running_ || asked_.has_value();
}

bool sampler::running() const {
  std::lock_guard lock(mutex_);
  return running_;
}

bool sampler::pending() const {
  std::lock_guard lock(mutex_);
  return asked_.has_value();
}

double sampler::last_sample_seconds() const {
  std::lock_guard lock(mutex_);
  return last_seconds_;
}

std::uint64_t sampler::samples() const {
  std::lock_guard lock(mutex_);
  return samples_;
}

bool sampler::take(sample_result& out, vis::heatmap_request& tag) {
  std::lock_guard lock(mutex_);
  if (!error_.empty()) throw gpu_error(std::exchange(error_, {}));
  if (!ready_) return false;
  ready_ = false;
  std::swap(front_,
            ready_slot_);  // the previous front goes back to the sampler through ready_slot_
  out = front_.result;     // its pixels stay in front_.pixels, untouched until the next take()
  tag = front_.tag;
  return true;
}

void sampler::loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stop_ || asked_; });
    if (stop_) return;
    const auto [req, tag] = *std::exchange(asked_, std::nullopt);
    running_ = true;
    lock.unlock();
    std::string error;
    const auto start = std::chrono::steady_clock::now();
    try {
      sess_.sample(req, back_.result, back_.pixels);
      back_.tag = tag;
    } catch (const std::exception& e) {
      error = e.what();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    lock.lock();
    running_ = false;
    last_seconds_ = seconds;
    if (!error.empty()) {
      error_ = error;
      continue;
    }
    std::swap(back_, ready_slot_);
    ready_ = true;
    ++samples_;
  }
}

}  // namespace hs::app
