// The seed's insert kernel, as the document gives it (murmur3, linear probing, CAS on the key).
#include "core/bench/seed_reference.hpp"

#include "core/common/cuda_check.hpp"
#include "core/common/hash.hpp"

namespace hs::bench {

namespace {

struct seed_key_value {
  std::uint32_t key;
  std::uint32_t value;
};

__global__ void seed_insert_kernel(seed_key_value* table, std::uint32_t mask, const key_type* keys,
                                   const value_type* values, std::uint64_t n) {
  const std::uint64_t tid = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (tid >= n) return;
  const std::uint32_t key = keys[tid], value = values[tid];
  std::uint32_t slot = murmur3_hash{}(key)&mask;
  while (true) {
    const std::uint32_t prev = atomicCAS(&table[slot].key, k_empty, key);
    if (prev == k_empty || prev == key) {
      table[slot].value = value;
      return;
    }
    slot = (slot + 1) & mask;
  }
}

}  // namespace

seed_reference_table::seed_reference_table(std::uint64_t capacity)
    : capacity_(capacity), slots_(memory_space::device, capacity) {
  clear({});
  synchronize({});
}

void seed_reference_table::insert(const key_type* keys, const value_type* values, std::uint64_t n,
                                  stream_view s) {
  constexpr unsigned block = 1024;  // the seed's threadblocksize
  const auto grid = static_cast<unsigned>((n + block - 1) / block);
  seed_insert_kernel<<<grid, block, 0, static_cast<cudaStream_t>(s.handle)>>>(
      reinterpret_cast<seed_key_value*>(slots_.data()), static_cast<std::uint32_t>(capacity_ - 1),
      keys, values, n);
  HS_CUDA_CHECK_LAUNCH();
}

void seed_reference_table::clear(stream_view s) {
  fill_bytes(slots_.data(), memory_space::device, 0xff, capacity_ * sizeof(linear::slot_word), s);
}

}  // namespace hs::bench
