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

/// One random aligned 16-byte read per thread (a 64-bit key and its 64-bit value).
__global__ void random_read16_kernel(const ulonglong2* table, std::uint64_t mask,
                                     std::uint32_t* out, std::uint64_t n, std::uint64_t salt) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const ulonglong2 v = table[scramble(i + salt) & mask];
  out[i] = static_cast<std::uint32_t>(v.x ^ v.y ^ (v.y >> 32));
}

/// One random 128-byte line per 8 threads, 16 bytes each (a hive bucket of 16 slots, or a tile of
/// open-addressing slots): the rate of whole random lines, against the random 8-byte reads'
/// sectors.
__global__ void random_line_kernel(const ulonglong2* table, std::uint64_t line_mask,
                                   std::uint32_t* out, std::uint64_t n, std::uint64_t salt) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  const std::uint64_t line = i / 8;
  if (line >= n) return;
  const ulonglong2 v = table[(scramble(line + salt) & line_mask) * 8 + i % 8];
  unsigned x = static_cast<unsigned>(v.x ^ v.y);
  for (int d = 4; d > 0; d /= 2) x ^= __shfl_xor_sync(0xffffffffu, x, d);  // the line's 8 lanes
  if (i % 8 == 0) out[line] = x;  // one word a line written out
}

struct alignas(16) slot16 {
  unsigned long long key, value;
};

/// One random 16-byte CAS per thread, expecting the empty pair (claiming a slot of a 64-bit key
/// and value at once). sm_90 and up have it; elsewhere the kernel does nothing and is not run.
__global__ void random_cas16_kernel(slot16* table, std::uint64_t mask, std::uint64_t n,
                                    std::uint64_t salt) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const slot16 empty{~0ull, ~0ull}, mine{i, i};
  atomicCAS(table + (scramble(i + salt) & mask), empty, mine);
#else
  (void)table, (void)mask, (void)n, (void)salt;
#endif
}

}  // namespace

namespace {
/// Median rates of the 16-byte accesses over the whole table: random 16-byte reads, random
/// 128-byte lines and (sm_90 and up) random 16-byte CAS.
void wide_rates(buffer<unsigned long long>& table, buffer<std::uint32_t>& out, int reps,
                stream_view s, roofline& r) {
  auto* cs = static_cast<cudaStream_t>(s.handle);
  const std::uint64_t pairs = table.size() / 2, n = out.size();
  const unsigned block = 256, grid = static_cast<unsigned>(n / block);
  auto* wide = reinterpret_cast<ulonglong2*>(table.data());
  std::uint64_t salt = 1ull << 40;
  const timing reads = measure(s, true, 2, reps, nullptr, [&] {
    random_read16_kernel<<<grid, block, 0, cs>>>(wide, pairs - 1, out.data(), n, salt += n);
    HS_CUDA_CHECK_LAUNCH();
  });
  r.random_reads16_per_s = n / (reads.median_ms * 1e-3);
  const std::uint64_t lines = n / 8;
  const timing line_reads = measure(s, true, 2, reps, nullptr, [&] {
    random_line_kernel<<<grid, block, 0, cs>>>(wide, pairs / 8 - 1, out.data(), lines,
                                               salt += lines);
    HS_CUDA_CHECK_LAUNCH();
  });
  r.random_lines_per_s = lines / (line_reads.median_ms * 1e-3);
  int device = 0, major = 0;
  HS_CUDA_CHECK(cudaGetDevice(&device));
  HS_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major < 9) return;  // no 16-byte CAS: the rate stays 0 ("n/a")
  const timing cas = measure(
      s, true, 2, reps,
      [&] { fill_bytes(table.data(), memory_space::device, 0xff, table.size() * 8, s); },
      [&] {
        random_cas16_kernel<<<grid, block, 0, cs>>>(reinterpret_cast<slot16*>(table.data()),
                                                    pairs - 1, n, salt += n);
        HS_CUDA_CHECK_LAUNCH();
      });
  r.random_cas16_per_s = n / (cas.median_ms * 1e-3);
}

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
  wide_rates(table, out, reps, s, r);
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
