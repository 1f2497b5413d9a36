// Streams and timers: CUDA streams and events in CUDA builds, the host clock for the CPU backend.
#include "core/common/stream.hpp"

#include <utility>

#include "core/common/device.hpp"
#include "core/common/error.hpp"
#if HS_WITH_CUDA
#include "core/common/cuda_check.hpp"
#endif

namespace hs {

#if HS_WITH_CUDA
namespace {
cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }
cudaEvent_t event(void* e) { return static_cast<cudaEvent_t>(e); }
}  // namespace
#endif

void synchronize(stream_view s) {
#if HS_WITH_CUDA
  // The null stream is the legacy default stream: work queued there (tests, the CLI) must be
  // waited for too, since the session's non-blocking streams are not ordered after it. Where
  // there is no device, nothing was queued.
  static const bool device = query_gpu().has_value();
  if (s.handle || device) HS_CUDA_CHECK(cudaStreamSynchronize(cuda(s)));
#else
  (void)s;
#endif
}

owned_stream::owned_stream(bool gpu) {
  if (!gpu) return;
#if HS_WITH_CUDA
  cudaStream_t s = nullptr;
  HS_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  handle_ = s;
#else
  throw gpu_error("a CUDA stream was requested, but this build has no CUDA support");
#endif
}

owned_stream::owned_stream(owned_stream&& o) noexcept
    : handle_(std::exchange(o.handle_, nullptr)) {}

owned_stream& owned_stream::operator=(owned_stream&& o) noexcept {
  std::swap(handle_, o.handle_);
  return *this;
}

owned_stream::~owned_stream() {
#if HS_WITH_CUDA
  if (handle_) cudaStreamDestroy(cuda({handle_}));
#endif
}

stream_event::stream_event(bool gpu) {
  if (!gpu) return;
#if HS_WITH_CUDA
  cudaEvent_t e = nullptr;
  HS_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  event_ = e;
#else
  throw gpu_error("a CUDA event was requested, but this build has no CUDA support");
#endif
}

stream_event::stream_event(stream_event&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}

stream_event& stream_event::operator=(stream_event&& o) noexcept {
  std::swap(event_, o.event_);
  return *this;
}

stream_event::~stream_event() {
#if HS_WITH_CUDA
  if (event_) cudaEventDestroy(event(event_));
#endif
}

void stream_event::record(stream_view s) {
#if HS_WITH_CUDA
  if (event_) HS_CUDA_CHECK(cudaEventRecord(event(event_), cuda(s)));
#else
  (void)s;
#endif
}

bool stream_event::ready() const {
#if HS_WITH_CUDA
  if (!event_) return true;
  const cudaError_t err = cudaEventQuery(event(event_));
  if (err == cudaErrorNotReady) return false;
  HS_CUDA_CHECK(err);
#endif
  return true;
}

void stream_event::wait() const {
#if HS_WITH_CUDA
  if (event_) HS_CUDA_CHECK(cudaEventSynchronize(event(event_)));
#endif
}

void stream_event::make_wait(stream_view s) const {
#if HS_WITH_CUDA
  if (event_) HS_CUDA_CHECK(cudaStreamWaitEvent(cuda(s), event(event_), 0));
#else
  (void)s;
#endif
}

stream_marks::stream_marks(bool gpu, int count) : host_(static_cast<std::size_t>(count)) {
  if (!gpu) return;
#if HS_WITH_CUDA
  for (int i = 0; i < count; ++i) {
    cudaEvent_t e = nullptr;
    HS_CUDA_CHECK(cudaEventCreate(&e));
    events_.push_back(e);
  }
#else
  throw gpu_error("CUDA events were requested, but this build has no CUDA support");
#endif
}

stream_marks::stream_marks(stream_marks&& o) noexcept
    : events_(std::move(o.events_)), host_(std::move(o.host_)) {
  o.events_.clear();
}

stream_marks& stream_marks::operator=(stream_marks&& o) noexcept {
  std::swap(events_, o.events_);
  std::swap(host_, o.host_);
  return *this;
}

stream_marks::~stream_marks() {
#if HS_WITH_CUDA
  for (void* e : events_) cudaEventDestroy(event(e));
#endif
}

void stream_marks::record(int mark, stream_view s) {
#if HS_WITH_CUDA
  if (!events_.empty()) {
    HS_CUDA_CHECK(cudaEventRecord(event(events_.at(mark)), cuda(s)));
    return;
  }
#endif
  (void)s;
  host_.at(mark) = std::chrono::steady_clock::now();
}

void stream_marks::make_wait(int mark, stream_view s) const {
#if HS_WITH_CUDA
  if (!events_.empty()) HS_CUDA_CHECK(cudaStreamWaitEvent(cuda(s), event(events_.at(mark)), 0));
#else
  (void)mark;
  (void)s;
#endif
}

bool stream_marks::done(int mark) const {
#if HS_WITH_CUDA
  if (!events_.empty()) {
    const cudaError_t err = cudaEventQuery(event(events_.at(mark)));
    if (err == cudaErrorNotReady) return false;
    HS_CUDA_CHECK(err);
  }
#else
  (void)mark;
#endif
  return true;
}

double stream_marks::elapsed_ms(int from, int to) const {
#if HS_WITH_CUDA
  if (!events_.empty()) {
    HS_CUDA_CHECK(cudaEventSynchronize(event(events_.at(to))));
    float ms = 0;
    HS_CUDA_CHECK(cudaEventElapsedTime(&ms, event(events_.at(from)), event(events_.at(to))));
    return ms;
  }
#endif
  return std::chrono::duration<double, std::milli>(host_.at(to) - host_.at(from)).count();
}

}  // namespace hs
