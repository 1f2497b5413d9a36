// Roofline kernels: each thread makes one random access into a large table, so the measured rate
// is the memory system's, not a loop's. Addresses come from a hash of the thread index.
#include "core/bench/roofline.hpp"

#include "core/bench/timing.hpp"
#include "core/common/cuda_check.hpp"
#include "core/common/memory.hpp"
#include "core/workload/key_stream.hpp"

namespace hs::bench {

namespace {

__device__ __forceinline__ std::uint64_t scramble(std::uint64_t x) { return workload::mix64(x); }

/// One random 8-byte read per thread; the XOR of what it read is written out coalesced (like a
/// lookup writing its value), so the loads cannot be optimized away.
__global__ void random_read_kernel(const unsigned long long* table, std::uint64_t mask,
                                   std::uint32_t* out, std::uint64_t n, std::uint64_t salt) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const unsigned long long v = table[scramble(i + salt) & mask];
  out[i] = static_cast<std::uint32_t>(v ^ (v >> 32));
}

/// One random 64-bit CAS per thread, expecting the empty word (like claiming a slot).
__global__ void random_cas_kernel(unsigned long long* table, std::uint64_t mask, std::uint64_t n,
                                  std::uint64_t salt) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  atomicCAS(table + (scramble(i + salt) & mask), ~0ull, i);
}

}  // namespace

namespace {
/// Median rates of random reads and random CAS over the first `bytes` of the table.
void random_rates(buffer<unsigned long long>& table, std::uint64_t bytes,
                  buffer<std::uint32_t>& out, int reps, stream_view s, double& reads_per_s,
                  double& cas_per_s) {
  auto* cs = static_cast<cudaStream_t>(s.handle);
  const std::uint64_t words = bytes / 8, n = out.size();
  const unsigned block = 256, grid = static_cast<unsigned>(n / block);
  std::uint64_t salt = 0;
  const timing reads = measure(s, true, 2, reps, nullptr, [&] {
    random_read_kernel<<<grid, block, 0, cs>>>(table.data(), words - 1, out.data(), n, salt += n);
    HS_CUDA_CHECK_LAUNCH();
  });
  reads_per_s = n / (reads.median_ms * 1e-3);
  const timing cas = measure(
      s, true, 2, reps, [&] { fill_bytes(table.data(), memory_space::device, 0xff, words * 8, s); },
      [&] {
        random_cas_kernel<<<grid, block, 0, cs>>>(table.data(), words - 1, n, salt += n);
        HS_CUDA_CHECK_LAUNCH();
      });
  cas_per_s = n / (cas.median_ms * 1e-3);
}
}  // namespace

roofline measure_roofline(std::uint64_t table_bytes, int reps, stream_view s) {
  auto* cs = static_cast<cudaStream_t>(s.handle);
  const std::uint64_t words = table_bytes / 8;
  buffer<unsigned long long> table(memory_space::device, words);
  buffer<std::uint32_t> out(memory_space::device, std::uint64_t{1} << 26);  // accesses per run
  fill_bytes(table.data(), memory_space::device, 0xff, words * 8, s);
  roofline r;
  r.table_bytes = words * 8;
  random_rates(table, r.table_bytes, out, reps, s, r.random_reads_per_s, r.random_cas_per_s);
  r.l2_table_bytes = std::uint64_t{16} << 20;  // a quarter of the H200's L2
  random_rates(table, r.l2_table_bytes, out, reps, s, r.l2_reads_per_s, r.l2_cas_per_s);
  const std::uint64_t half = words / 2 * 8;
  const timing copy = measure(s, true, 2, reps, nullptr, [&] {
    HS_CUDA_CHECK(cudaMemcpyAsync(reinterpret_cast<char*>(table.data()) + half, table.data(), half,
                                  cudaMemcpyDeviceToDevice, cs));
  });
  r.copy_bytes_per_s = 2.0 * half / (copy.median_ms * 1e-3);
  synchronize(s);
  return r;
}

}  // namespace hs::bench
