// Builds without CUDA: the GPU-only suites explain why they cannot run.
#include "core/bench/suites.hpp"
#include "core/common/error.hpp"

namespace hs::bench::detail {

report roofline_suite(const bench_options&) {
  throw user_error("bench roofline needs a CUDA build and device");
}
report locality_suite(const bench_options&) {
  throw user_error("bench locality needs a CUDA build and device");
}
report seed_linear_suite(const bench_options&) {
  throw user_error("bench seed-linear needs a CUDA build and device");
}
report sharded_suite(const bench_options&) {
  throw user_error("bench sharded needs a CUDA build with NCCL and several GPUs");
}

}  // namespace hs::bench::detail

#include "core/bench/gpu_delay.hpp"
namespace hs::bench {
void gpu_delay(stream_view, double) {}
}  // namespace hs::bench

#include "core/bench/roofline.hpp"
namespace hs::bench {
roofline measure_roofline(std::uint64_t, int, stream_view) {
  throw user_error("the roofline needs a CUDA build and device");
}
}  // namespace hs::bench
