#include "core/shard/nccl_exchange.hpp"

#include "core/common/error.hpp"
#if HS_WITH_NCCL
#include <cuda_runtime.h>
#include <nccl.h>

#include "core/common/cuda_check.hpp"
#include "core/common/device.hpp"
#endif

namespace hs {

#if !HS_WITH_NCCL
std::string nccl_version() { return "none (this build has no NCCL)"; }

std::unique_ptr<shard_exchange> make_nccl_exchange(const std::vector<int>&) {
  throw user_error(
      "this build has no NCCL, which a table over several GPUs needs: configure with CUDA so that "
      "the build fetches it (nvidia-nccl-cu13), or use --backend cpu for simulated devices");
}
#else
namespace {

[[noreturn]] void nccl_failed(ncclResult_t r, const std::string& call, ncclComm_t comm) {
  std::string why = ncclGetErrorString(r);
  if (const char* last = ncclGetLastError(comm); last && *last) why += std::string(": ") + last;
  throw gpu_error("NCCL " + call + " failed: " + why);
}

void check(ncclResult_t r, const std::string& call, ncclComm_t comm = nullptr) {
  if (r != ncclSuccess) nccl_failed(r, call, comm);
}

class nccl_exchange final : public shard_exchange {
 public:
  explicit nccl_exchange(const std::vector<int>& ordinals) : ordinals_(ordinals) {
    comms_.resize(ordinals.size());
    check(ncclCommInitAll(comms_.data(), static_cast<int>(ordinals.size()), ordinals.data()),
          "ncclCommInitAll over " + std::to_string(ordinals.size()) + " GPUs");
    for (std::uint32_t r = 0; r < ordinals.size(); ++r) local_.push_back(r);
  }
  ~nccl_exchange() override {
    for (ncclComm_t c : comms_)
      if (c) ncclCommDestroy(c);
  }
  std::uint32_t ranks() const override { return static_cast<std::uint32_t>(comms_.size()); }
  std::span<const std::uint32_t> local_ranks() const override { return local_; }
  memory_space space() const override { return memory_space::device; }
  std::string describe() const override {
    return "NCCL " + nccl_version() + ", " + std::to_string(comms_.size()) + " GPUs in one process";
  }

  void all_to_all(std::span<const rank_segments> lanes) override {
    const std::uint32_t n = ranks();
    check(ncclGroupStart(), "ncclGroupStart");
    try {
      for (const rank_segments& l : lanes) {
        const auto s = static_cast<cudaStream_t>(l.stream.handle);
        ncclComm_t c = comms_.at(l.rank);
        for (std::uint32_t j = 0; j < n; ++j) {
          if (j == l.rank) continue;  // a rank's own segment is a copy on its GPU, below
          if (l.send_bytes[j])
            check(ncclSend(l.send[j], l.send_bytes[j], ncclUint8, static_cast<int>(j), c, s),
                  "ncclSend from rank " + std::to_string(l.rank) + " to " + std::to_string(j), c);
          if (l.recv_bytes[j])
            check(ncclRecv(l.recv[j], l.recv_bytes[j], ncclUint8, static_cast<int>(j), c, s),
                  "ncclRecv on rank " + std::to_string(l.rank) + " from " + std::to_string(j), c);
        }
      }
    } catch (...) {
      ncclGroupEnd();
      throw;
    }
    check(ncclGroupEnd(), "ncclGroupEnd of an exchange step", comms_.front());
    for (const rank_segments& l : lanes)
      if (l.send_bytes[l.rank]) {
        if (l.send_bytes[l.rank] != l.recv_bytes[l.rank])
          throw user_error("exchange step: rank " + std::to_string(l.rank) + " sends itself " +
                           std::to_string(l.send_bytes[l.rank]) + " bytes and expects " +
                           std::to_string(l.recv_bytes[l.rank]));
        const device_scope on(ordinals_.at(l.rank));
        HS_CUDA_CHECK(cudaMemcpyAsync(l.recv[l.rank], l.send[l.rank], l.send_bytes[l.rank],
                                      cudaMemcpyDeviceToDevice,
                                      static_cast<cudaStream_t>(l.stream.handle)));
      }
  }

 private:
  std::vector<int> ordinals_;
  std::vector<ncclComm_t> comms_;
  std::vector<std::uint32_t> local_;
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
#endif

}  // namespace hs
