// Device memory comes from a pool that keeps what is freed: it must still count as free, come back
// holding what is written into it afresh, and never let an allocation past the GPU's memory
// through, whatever the pool keeps.
#include <cstdint>
#include <numeric>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "core/common/error.hpp"
#include "core/common/memory.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;

TEST_CASE("freed device memory is kept for reuse and still counted as free", "[gpu][memory]") {
  test::require_gpu();
  const std::uint64_t bytes = std::uint64_t{256} << 20;
  const device_memory before = device_memory_now();
  REQUIRE(before.total_bytes > 0);
  REQUIRE(before.free_bytes > 2 * bytes);
  {
    buffer<std::uint32_t> b(memory_space::device, bytes / 4);
    const device_memory during = device_memory_now();
    // Other processes may allocate meanwhile; this one's quarter GiB is certainly gone from free.
    CHECK(during.free_bytes + bytes / 2 <= before.free_bytes);
  }
  const device_memory after = device_memory_now();
  CHECK(after.free_bytes + bytes / 2 > before.free_bytes);  // given back to the pool counts as free

  // Memory taken again from the pool holds what is written into it now.
  std::vector<std::uint32_t> v(bytes / 4);
  std::iota(v.begin(), v.end(), 7u);
  buffer<std::uint32_t> again(memory_space::device, v.size());
  again.upload(std::span<const std::uint32_t>(v));
  CHECK(again.download(v.size(), {}) == v);
}

TEST_CASE("an allocation larger than the GPU is refused with a message, and memory stays usable",
          "[gpu][memory]") {
  test::require_gpu();
  {
    buffer<std::uint8_t> kept(memory_space::device, std::uint64_t{64} << 20);
  }  // the pool now keeps some
  const device_memory mem = device_memory_now();
  try {
    buffer<std::uint8_t> huge(memory_space::device, mem.total_bytes + (std::uint64_t{1} << 30));
    FAIL("an allocation larger than the GPU went through");
  } catch (const user_error& e) {
    CHECK(std::string(e.what()).find("cannot allocate") != std::string::npos);
  }
  std::vector<std::uint64_t> v(1 << 20, 0x0123456789abcdefull);
  v.back() = 42;
  buffer<std::uint64_t> small(memory_space::device, v.size());
  small.upload(std::span<const std::uint64_t>(v));
  CHECK(small.download(v.size(), {}) == v);
}
