#include "core/shard/nccl_exchange.hpp"

#include "core/common/error.hpp"
#if HS_WITH_NCCL
#include <cuda_runtime.h>
#include <nccl.h>

#include "core/common/cuda_check.hpp"
#include "core/common/device.hpp"
#include "core/shard/rank_join.hpp"
#endif
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

namespace hs {

#if !HS_WITH_NCCL
std::string nccl_version() { return "none (this build has no NCCL)"; }

namespace {
[[noreturn]] void no_nccl() {
  throw user_error(
      "this build has no NCCL, which a table over several GPUs needs: configure with CUDA so that "
      "the build fetches it (nvidia-nccl-cu13), or use --backend cpu for simulated devices");
}
}  // namespace

std::unique_ptr<shard_exchange> make_nccl_exchange(const std::vector<int>&) { no_nccl(); }
std::unique_ptr<shard_exchange> make_nccl_rank_exchange(const rank_join&) { no_nccl(); }
#else
namespace {

using clock_type = std::chrono::steady_clock;

[[noreturn]] void nccl_failed(ncclResult_t r, const std::string& call, ncclComm_t comm) {
  std::string why = ncclGetErrorString(r);
  if (const char* last = ncclGetLastError(comm); last && *last) why += std::string(": ") + last;
  throw gpu_error("NCCL " + call + " failed: " + why);
}

/// Non-blocking communicators answer ncclInProgress while a call completes in the background.
void check(ncclResult_t r, const std::string& call, ncclComm_t comm = nullptr) {
  if (r != ncclSuccess && r != ncclInProgress) nccl_failed(r, call, comm);
}

/// How the GPUs reach each other: peer access between every pair (NVLink or PCIe peer to peer),
/// or the pairs without it, whose exchange NCCL routes through host memory.
std::string links_between(const std::vector<int>& ordinals) {
  std::string missing;
  int pairs = 0;
  for (std::size_t i = 0; i < ordinals.size(); ++i)
    for (std::size_t j = i + 1; j < ordinals.size(); ++j) {
      int ij = 0, ji = 0;
      HS_CUDA_CHECK(cudaDeviceCanAccessPeer(&ij, ordinals[i], ordinals[j]));
      HS_CUDA_CHECK(cudaDeviceCanAccessPeer(&ji, ordinals[j], ordinals[i]));
      if (ij && ji) continue;
      ++pairs;
      if (pairs <= 3)
        missing += std::string(missing.empty() ? "" : ", ") + std::to_string(ordinals[i]) + "-" +
                   std::to_string(ordinals[j]);
    }
  if (pairs == 0) return "peer access between every pair";
  return std::to_string(pairs) + (pairs == 1 ? " pair" : " pairs") + " without peer access (" +
         missing + (pairs > 3 ? ", ..." : "") + "): NCCL goes through host memory there";
}

/// The exchange over NCCL communicators this process holds: every GPU's (one process) or its own
/// rank's (one process a GPU). Every wait is bounded: a step that errs or stops progressing aborts
/// the communicators (ncclCommAbort) and the table stops, saying which rank and step.
class nccl_exchange final : public shard_exchange {
 public:
  /// One process, every GPU in `ordinals`: rank r on ordinals[r].
  explicit nccl_exchange(const std::vector<int>& ordinals) : ranks_(ordinals.size()) {
    ncclUniqueId id;
    check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    comms_.assign(ordinals.size(), nullptr);
    blocking_ = true;
    check(ncclGroupStart(), "ncclGroupStart");
    try {
      for (std::uint32_t r = 0; r < ordinals.size(); ++r) {
        local_.push_back(r);
        devices_.push_back(ordinals[r]);
        const device_scope on(ordinals[r]);
        ncclConfig_t cfg = config(true);
        check(ncclCommInitRankConfig(&comms_[r], static_cast<int>(ranks_), id, static_cast<int>(r),
                                     &cfg),
              "ncclCommInitRankConfig of rank " + std::to_string(r));
      }
    } catch (...) {
      ncclGroupEnd();  // the group this thread opened, then the communicators begun in it
      abort_all();
      throw;
    }
    check(ncclGroupEnd(), "ncclGroupEnd of " + std::to_string(ranks_) + " communicators");
    settle("joining " + std::to_string(ranks_) + " GPUs");
    where_ = std::to_string(ranks_) + " GPUs in one process, " + links_between(ordinals);
  }

  /// One rank of a table joined across processes.
  explicit nccl_exchange(const rank_join& join) : ranks_(join.ranks), wait_s_(join.wait_s) {
    blocking_ = false;
    local_.push_back(join.rank);
    devices_.push_back(join.device);
    comms_.assign(1, nullptr);
    const device_scope on(join.device);
    id_handover handover(join);
    ncclUniqueId id;
    if (join.rank == 0) {
      check(ncclGetUniqueId(&id), "ncclGetUniqueId");
      handover.publish({id.internal, sizeof id.internal});
    } else {
      const std::vector<char> got = handover.take(sizeof id.internal);
      std::memcpy(id.internal, got.data(), got.size());
    }
    ncclConfig_t cfg = config(false);
    const ncclResult_t made = ncclCommInitRankConfig(&comms_[0], static_cast<int>(ranks_), id,
                                                     static_cast<int>(join.rank), &cfg);
    if (made != ncclSuccess && made != ncclInProgress) {
      abort_all();
      nccl_failed(made, "ncclCommInitRankConfig of rank " + std::to_string(join.rank), nullptr);
    }
    settle("joining rank " + std::to_string(join.rank) + " of " + std::to_string(ranks_));
    handover.finish();
    where_ = "rank " + std::to_string(join.rank) + " of " + std::to_string(ranks_) +
             " processes (" + join.source + ")";
  }

  ~nccl_exchange() override {
    for (std::size_t k = 0; k < comms_.size(); ++k) {
      if (!comms_[k]) continue;
      const device_scope on(devices_[k]);
      ncclResult_t state = ncclCommFinalize(comms_[k]);
      const auto start = clock_type::now();
      while (state == ncclInProgress && clock_type::now() - start < std::chrono::seconds(10)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ncclCommGetAsyncError(comms_[k], &state);
      }
      // A finalize that fails or does not end (a peer gone) would hold a destroy: abort instead.
      if (state == ncclSuccess)
        ncclCommDestroy(comms_[k]);
      else
        ncclCommAbort(comms_[k]);
    }
  }

  std::uint32_t ranks() const override { return ranks_; }
  std::span<const std::uint32_t> local_ranks() const override { return local_; }
  int device_of(std::uint32_t rank) const override { return devices_.at(index_of(rank)); }
  memory_space space() const override { return memory_space::device; }
  std::string describe() const override { return "NCCL " + nccl_version() + ", " + where_; }

  void all_to_all(std::span<const rank_segments> lanes, const char* step) override {
    if (!broken_.empty()) throw gpu_error(broken_);
    step_ = step;
    check(ncclGroupStart(), "ncclGroupStart");
    try {
      enqueue(lanes);
    } catch (const gpu_error& e) {
      ncclGroupEnd();
      stop(e.what());
    }
    const ncclResult_t ended = ncclGroupEnd();
    if (ended != ncclSuccess && ended != ncclInProgress)
      stop(std::string("ncclGroupEnd of the ") + step + " step: " + ncclGetErrorString(ended) +
           describe_last(comms_.front()));
    settle(std::string("the ") + step + " step");
    copy_own_segments(lanes, step);
  }

  void abandon(const std::string& why) override {
    if (!broken_.empty()) return;
    broken_ = "NCCL exchange stopped: a batch failed on rank " + std::to_string(local_.front()) +
              " (" + why + "); the communicators were aborted and this table runs no more batches";
    abort_all();
  }

  void wait(std::uint32_t rank, stream_view s) override {
    if (!broken_.empty()) throw gpu_error(broken_);
    const std::size_t k = index_of(rank);
    const device_scope on(devices_[k]);
    const auto stream = static_cast<cudaStream_t>(s.handle);
    if (blocking_) {  // one process: no rank can die apart, and a long table call is no fault
      HS_CUDA_CHECK(cudaStreamSynchronize(stream));
      return;
    }
    const auto start = clock_type::now();
    for (std::uint64_t spin = 0;; ++spin) {
      const cudaError_t done = cudaStreamQuery(stream);
      if (done == cudaSuccess) return;
      if (done != cudaErrorNotReady) HS_CUDA_CHECK(done);
      ncclResult_t state = ncclSuccess;
      ncclCommGetAsyncError(comms_[k], &state);
      if (state != ncclSuccess && state != ncclInProgress)
        stop("rank " + std::to_string(rank) + " (GPU " + std::to_string(devices_[k]) + ") in the " +
             step_ + " step: " + ncclGetErrorString(state) + describe_last(comms_[k]));
      const double waited = std::chrono::duration<double>(clock_type::now() - start).count();
      if (waited > wait_s_)
        stop("rank " + std::to_string(rank) + " (GPU " + std::to_string(devices_[k]) + ") waited " +
             std::to_string(int(wait_s_)) + " s in the " + step_ +
             " step: a peer rank stopped answering (did its process die?)");
      if (spin > 1000) std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }

 private:
  /// The group's sends and receives: each rank's lanes in order, its own segment left out.
  void enqueue(std::span<const rank_segments> lanes) {
    for (const rank_segments& l : lanes) {
      const auto s = static_cast<cudaStream_t>(l.stream.handle);
      ncclComm_t c = comms_.at(index_of(l.rank));
      for (std::uint32_t j = 0; j < ranks_; ++j) {
        if (j == l.rank) continue;  // a rank's own segment is a copy on its GPU, below
        if (l.send_bytes[j])
          check(ncclSend(l.send[j], l.send_bytes[j], ncclUint8, static_cast<int>(j), c, s),
                "ncclSend from rank " + std::to_string(l.rank) + " to " + std::to_string(j), c);
        if (l.recv_bytes[j])
          check(ncclRecv(l.recv[j], l.recv_bytes[j], ncclUint8, static_cast<int>(j), c, s),
                "ncclRecv on rank " + std::to_string(l.rank) + " from " + std::to_string(j), c);
      }
    }
  }

  /// A rank's own segment is a copy on its GPU, after the group.
  void copy_own_segments(std::span<const rank_segments> lanes, const char* step) {
    for (const rank_segments& l : lanes)
      if (l.send_bytes[l.rank]) {
        if (l.send_bytes[l.rank] != l.recv_bytes[l.rank])
          throw user_error(std::string(step) + " step: rank " + std::to_string(l.rank) +
                           " sends itself " + std::to_string(l.send_bytes[l.rank]) +
                           " bytes and expects " + std::to_string(l.recv_bytes[l.rank]));
        const device_scope on(device_of(l.rank));
        HS_CUDA_CHECK(cudaMemcpyAsync(l.recv[l.rank], l.send[l.rank], l.send_bytes[l.rank],
                                      cudaMemcpyDeviceToDevice,
                                      static_cast<cudaStream_t>(l.stream.handle)));
      }
  }

  /// One process: blocking communicators, since no rank can die apart from the others and a
  /// non-blocking step measured slower (its group ends on NCCL's own thread: the inserts'
  /// exchange of 2^26 keys a GPU took 1.39 ms against 1.06 on two H200s). Across processes:
  /// non-blocking, so that a step whose peer died returns and the wait stays ours, bounded.
  static ncclConfig_t config(bool blocking) {
    ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
    cfg.blocking = blocking ? 1 : 0;
    return cfg;
  }
  static std::string describe_last(ncclComm_t c) {
    const char* last = ncclGetLastError(c);
    return last && *last ? std::string(" (") + last + ")" : std::string();
  }
  std::size_t index_of(std::uint32_t rank) const {
    for (std::size_t k = 0; k < local_.size(); ++k)
      if (local_[k] == rank) return k;
    throw user_error("rank " + std::to_string(rank) + " is not driven by this process (" + where_ +
                     ")");
  }
  /// Polls every communicator until its last call completed; bounded like wait().
  void settle(const std::string& what) {
    const auto start = clock_type::now();
    for (std::size_t k = 0; k < comms_.size(); ++k)
      for (;;) {
        ncclResult_t state = ncclSuccess;
        check(ncclCommGetAsyncError(comms_[k], &state), "ncclCommGetAsyncError", comms_[k]);
        if (state == ncclSuccess) break;
        if (state != ncclInProgress)
          stop("rank " + std::to_string(local_[k]) + " (GPU " + std::to_string(devices_[k]) +
               "), " + what + ": " + ncclGetErrorString(state) + describe_last(comms_[k]));
        if (std::chrono::duration<double>(clock_type::now() - start).count() > wait_s_)
          stop("rank " + std::to_string(local_[k]) + " (GPU " + std::to_string(devices_[k]) +
               "), " + what + ": no answer within " + std::to_string(int(wait_s_)) +
               " s: a peer rank stopped answering (did its process die?)");
        std::this_thread::yield();
      }
  }
  /// Aborts every communicator of this process and throws; later steps throw the same.
  [[noreturn]] void stop(const std::string& why) {
    broken_ = "NCCL exchange stopped: " + why + "; the communicators were aborted " +
              "(ncclCommAbort) and this table runs no more batches";
    abort_all();
    throw gpu_error(broken_);
  }
  void abort_all() {
    for (std::size_t k = 0; k < comms_.size(); ++k)
      if (comms_[k]) {
        const device_scope on(k < devices_.size() ? devices_[k] : 0);
        ncclCommAbort(comms_[k]);
        comms_[k] = nullptr;
      }
  }

  std::uint32_t ranks_;
  double wait_s_ = 120;  ///< across processes: the join's (HS_JOIN_WAIT_S)
  bool blocking_ = true;
  std::vector<ncclComm_t> comms_;  ///< [local k]
  std::vector<std::uint32_t> local_;
  std::vector<int> devices_;  ///< [local k]: the GPU of local rank k
  std::string where_, step_ = "first";
  std::string broken_;  ///< why the exchange stopped, once it has
};

}  // namespace

std::string nccl_version() {
  int v = 0;
  if (ncclGetVersion(&v) != ncclSuccess) return "unknown";
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

std::unique_ptr<shard_exchange> make_nccl_exchange(const std::vector<int>& ordinals) {
  return std::make_unique<nccl_exchange>(ordinals);
}

std::unique_ptr<shard_exchange> make_nccl_rank_exchange(const rank_join& join) {
  // Every rank makes its communicators in the same order, so the n-th of each shares an id file.
  static std::atomic<unsigned> made{0};
  return std::make_unique<nccl_exchange>(nth_join(join, made++));
}
#endif

}  // namespace hs
