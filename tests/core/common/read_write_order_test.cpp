// read_write_order: a read is quiet only when no other stream's write can still run, and a write
// waits for the other streams' quiet reads. Streams are held by host functions that block on a
// gate, so "still running" is certain, not a matter of timing.
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include <catch2/catch_test_macros.hpp>

#include "core/common/cuda_check.hpp"
#include "core/common/read_write_order.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;

namespace {
/// Blocks a stream until opened: the stream's work after it cannot start before.
struct gate {
  std::promise<void> open_promise;
  std::shared_future<void> opened = open_promise.get_future().share();
  void hold(stream_view s) {
    HS_CUDA_CHECK(cudaLaunchHostFunc(
        static_cast<cudaStream_t>(s.handle), [](void* g) { static_cast<gate*>(g)->opened.wait(); },
        this));
  }
  void open() { open_promise.set_value(); }
};

void set_flag(stream_view s, std::atomic<bool>* flag) {
  HS_CUDA_CHECK(cudaLaunchHostFunc(
      static_cast<cudaStream_t>(s.handle),
      [](void* f) { static_cast<std::atomic<bool>*>(f)->store(true); }, flag));
}
}  // namespace

TEST_CASE("reads are quiet only when no other stream's write may run; writes wait for quiet reads",
          "[gpu][order]") {
  test::require_gpu();
  owned_stream a(true), b(true);
  read_write_order order;

  // A write held on a: a read on b is not quiet, a read on a is (its stream orders it).
  gate held_write;
  order.write(a.view(), [&] { held_write.hold(a.view()); });
  bool quiet = true;
  order.read(b.view(), [&](bool q) { quiet = q; });
  CHECK_FALSE(quiet);
  order.read(a.view(), [&](bool q) { quiet = q; });
  CHECK(quiet);
  held_write.open();
  synchronize(a.view());
  order.read(b.view(), [&](bool q) { quiet = q; });
  CHECK(quiet);

  // A quiet read held on b: a write on a does not start before it ends.
  gate held_read;
  order.read(b.view(), [&](bool q) {
    quiet = q;
    held_read.hold(b.view());
  });
  REQUIRE(quiet);
  std::atomic<bool> wrote{false};
  order.write(a.view(), [&] { set_flag(a.view(), &wrote); });
  for (int i = 0; i < 50 && !wrote; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK_FALSE(wrote);  // without the wait, the write's host function runs at once
  held_read.open();
  synchronize(a.view());
  CHECK(wrote);
  CHECK(order.quiet_reads() == 3);
  synchronize(b.view());
}
