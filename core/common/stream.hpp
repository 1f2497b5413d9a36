// Streams and timing events, opaque so that core headers need no CUDA include. On the CPU backend a
// stream is empty (work runs on the calling thread) and events read the host clock.
#pragma once
#include <chrono>
#include <memory>
#include <vector>

namespace hs {

/// @brief A non-owning stream handle (a cudaStream_t on the GPU backend, null on the CPU).
struct stream_view {
  void* handle = nullptr;
};

/// @brief Waits for all work on the stream; the null stream is the legacy default stream (a no-op
/// where there is no CUDA device).
void synchronize(stream_view s);

/// @brief An owned CUDA stream (non-blocking), or an empty one for the CPU backend.
class owned_stream {
 public:
  explicit owned_stream(bool gpu);
  owned_stream(owned_stream&&) noexcept;
  owned_stream& operator=(owned_stream&&) noexcept;
  ~owned_stream();
  stream_view view() const { return {handle_}; }

 private:
  void* handle_ = nullptr;
};

/// @brief Marks a point on a stream to poll or wait for (CUDA event; always complete on the CPU).
class stream_event {
 public:
  explicit stream_event(bool gpu);
  stream_event(stream_event&&) noexcept;
  stream_event& operator=(stream_event&&) noexcept;
  ~stream_event();
  void record(stream_view s);
  bool ready() const;
  void wait() const;
  /// @brief Makes work queued on s from now on wait for this event (no-op on the CPU).
  void make_wait(stream_view s) const;

 private:
  void* event_ = nullptr;
};

/// @brief Numbered points on streams, timed against each other (CUDA events with timing, the host
/// clock on the CPU backend). One mark ends a step and begins the next, and another stream can
/// wait for any mark: a pipeline's phases take one record a boundary rather than two a phase and
/// a third to wait on.
class stream_marks {
 public:
  stream_marks(bool gpu, int count);
  stream_marks(stream_marks&&) noexcept;
  stream_marks& operator=(stream_marks&&) noexcept;
  ~stream_marks();
  void record(int mark, stream_view s);
  /// @brief Makes work queued on s from now on wait for the mark (no-op on the CPU).
  void make_wait(int mark, stream_view s) const;
  /// @brief True once the work before the mark has finished (never blocks).
  bool done(int mark) const;
  /// @brief Milliseconds from one recorded mark to a later one; waits for `to`.
  double elapsed_ms(int from, int to) const;

 private:
  std::vector<void*> events_;
  std::vector<std::chrono::steady_clock::time_point> host_;
};

/// @brief Times work on a stream: two marks, the start and the stop.
class stream_timer {
 public:
  explicit stream_timer(bool gpu) : marks_(gpu, 2) {}
  void start(stream_view s) { marks_.record(0, s); }
  void stop(stream_view s) { marks_.record(1, s); }
  /// @brief True once the stopped work has finished (never blocks).
  bool ready() const { return marks_.done(1); }
  /// @brief Milliseconds between start and stop; waits for the stop.
  double elapsed_ms() const { return marks_.elapsed_ms(0, 1); }

 private:
  stream_marks marks_;
};

}  // namespace hs
