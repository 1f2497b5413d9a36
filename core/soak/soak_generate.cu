// The soak's GPU generator: one thread an operation (soak_generate.hpp).
#include "core/common/cuda_check.hpp"
#include "core/soak/soak_generate.hpp"

namespace hs::soak::detail {

namespace {
template <class K, class V>
__global__ void generate_kernel(op_draw d, std::uint64_t round, std::uint64_t first, std::size_t n,
                                op_kind* kinds, K* keys, V* values) {
  const std::uint64_t j = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (j >= n) return;
  const std::uint64_t i = first + j;
  kinds[j] = kind_at(d, round, i);
  keys[j] = key_at<K>(d, i);
  values[j] = value_at<V>(d, round, i);
}

template <class K, class V>
void launch(const op_draw& d, std::uint64_t round, std::uint64_t first, std::size_t n,
            op_kind* kinds, K* keys, V* values, stream_view s) {
  if (n == 0) return;
  constexpr unsigned block = 256;
  const auto grid = static_cast<unsigned>((n + block - 1) / block);
  generate_kernel<<<grid, block, 0, static_cast<cudaStream_t>(s.handle)>>>(d, round, first, n,
                                                                           kinds, keys, values);
  HS_CUDA_CHECK_LAUNCH();
}
}  // namespace

void generate_on_device(const op_draw& d, std::uint64_t round, std::uint64_t first, std::size_t n,
                        op_kind* kinds, key_type* keys, value_type* values, stream_view s) {
  launch(d, round, first, n, kinds, keys, values, s);
}
void generate_on_device(const op_draw& d, std::uint64_t round, std::uint64_t first, std::size_t n,
                        op_kind* kinds, wide_key* keys, wide_value* values, stream_view s) {
  launch(d, round, first, n, kinds, keys, values, s);
}

}  // namespace hs::soak::detail
