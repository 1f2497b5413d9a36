#include "core/common/read_write_order.hpp"

#include <cuda_runtime.h>

#include "core/common/cuda_check.hpp"

namespace hs {

namespace {
cudaStream_t cuda(void* s) { return static_cast<cudaStream_t>(s); }
cudaEvent_t event(void* e) { return static_cast<cudaEvent_t>(e); }
void record(void*& e, void* stream) {
  if (!e) {
    cudaEvent_t made = nullptr;
    HS_CUDA_CHECK(cudaEventCreateWithFlags(&made, cudaEventDisableTiming));
    e = made;
  }
  HS_CUDA_CHECK(cudaEventRecord(event(e), cuda(stream)));
}
}  // namespace

read_write_order::~read_write_order() {
  for (const stream_events& e : streams_) {
    if (e.last_write) cudaEventDestroy(event(e.last_write));
    if (e.last_quiet_read) cudaEventDestroy(event(e.last_quiet_read));
  }
}

read_write_order::stream_events& read_write_order::of(stream_view s) {
  for (stream_events& e : streams_)
    if (e.stream == s.handle) return e;
  streams_.push_back({s.handle, nullptr, nullptr});
  return streams_.back();
}

void read_write_order::read(stream_view s, const std::function<void(bool quiet)>& launch) {
  const std::lock_guard lock(mutex_);
  bool quiet = true;
  for (const stream_events& e : streams_) {
    if (e.stream == s.handle || !e.last_write) continue;
    const cudaError_t done = cudaEventQuery(event(e.last_write));
    if (done == cudaErrorNotReady) {
      quiet = false;
      break;
    }
    HS_CUDA_CHECK(done);
  }
  launch(quiet);
  if (!quiet) return;
  ++quiet_reads_;
  record(of(s).last_quiet_read, s.handle);
}

void read_write_order::write(stream_view s, const std::function<void()>& launch) {
  const std::lock_guard lock(mutex_);
  for (const stream_events& e : streams_)
    if (e.stream != s.handle && e.last_quiet_read)
      HS_CUDA_CHECK(cudaStreamWaitEvent(cuda(s.handle), event(e.last_quiet_read), 0));
  launch();
  record(of(s).last_write, s.handle);
}

}  // namespace hs
