#include "core/bench/nccl_rate.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/bench/timing.hpp"
#include "core/common/device.hpp"
#include "core/common/error.hpp"
#include "core/shard/nccl_exchange.hpp"

namespace hs::bench {

double nccl_all_to_all_ms(std::uint32_t gpus, std::uint64_t bytes_per_gpu, int reps,
                          std::uint32_t lanes) {
  if (gpu_count() < static_cast<int>(gpus))
    throw user_error("NCCL's all-to-all over " + std::to_string(gpus) + " GPUs: this machine has " +
                     std::to_string(gpu_count()));
  std::vector<int> ordinals;
  for (std::uint32_t g = 0; g < gpus; ++g) ordinals.push_back(static_cast<int>(g));
  auto exchange = make_nccl_exchange(ordinals);
  lanes = std::max<std::uint32_t>(lanes, 1);
  const std::uint64_t seg = bytes_per_gpu / gpus / lanes;  // a lane's bytes to one peer
  std::vector<buffer<unsigned char>> send, recv;           // [g * lanes + lane]
  std::vector<owned_stream> streams;
  std::vector<rank_segments> segments;
  for (std::uint32_t g = 0; g < gpus; ++g) {
    const device_scope on(static_cast<int>(g));
    streams.emplace_back(true);
    for (std::uint32_t lane = 0; lane < lanes; ++lane) {
      send.emplace_back(memory_space::device, seg * gpus);
      recv.emplace_back(memory_space::device, seg * gpus);
      fill_bytes(send.back().data(), memory_space::device, 0x5a, seg * gpus, {});
      rank_segments l;
      l.rank = g;
      l.stream = streams[g].view();
      for (std::uint32_t j = 0; j < gpus; ++j) {
        l.send.push_back(send.back().data() + j * seg);
        l.send_bytes.push_back(seg);
        l.recv.push_back(recv.back().data() + j * seg);
        l.recv_bytes.push_back(seg);
      }
      segments.push_back(std::move(l));
    }
  }
  const auto once = [&] {
    exchange->all_to_all(segments);
    for (const owned_stream& s : streams) synchronize(s.view());
  };
  std::vector<double> ms;
  once();  // warm-up: NCCL connects its peers on the first call
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    once();
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return median(ms);
}

}  // namespace hs::bench
