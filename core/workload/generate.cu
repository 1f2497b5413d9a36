// The GPU generator: one thread per operation of a planned batch.
#include "core/common/cuda_check.hpp"
#include "core/workload/workload.hpp"

namespace hs::workload::detail {

namespace {
template <class K, class V>
__global__ void generate_kernel(stream_params p, batch_plan plan, zipf_sampler zipf, op_kind* kinds,
                                K* keys, V* values) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i >= plan.size) return;
  op_kind k;
  K key;
  V v;
  op_at(p, plan, &zipf, i, k, key, v);
  kinds[i] = k;
  keys[i] = key;
  values[i] = v;
}

template <class K, class V>
void launch_generate(const stream_params& p, const batch_plan& plan,
                     const basic_batch_spans<K, V>& out, stream_view s) {
  if (plan.size == 0) return;
  const zipf_sampler zipf(p.zipf_s, p.universe);
  constexpr unsigned block = 256;
  const auto grid = static_cast<unsigned>((plan.size + block - 1) / block);
  generate_kernel<<<grid, block, 0, static_cast<cudaStream_t>(s.handle)>>>(
      p, plan, zipf, out.kinds.data(), out.keys.data(), out.values.data());
  HS_CUDA_CHECK_LAUNCH();
}
}  // namespace

void generate_on_device(const stream_params& p, const batch_plan& plan, const batch_spans& out,
                        stream_view s) {
  launch_generate(p, plan, out, s);
}
void generate_on_device(const stream_params& p, const batch_plan& plan, const wide_batch_spans& out,
                        stream_view s) {
  launch_generate(p, plan, out, s);
}

}  // namespace hs::workload::detail
