// The hive's hash functions: CRC-32C computed a bit at a time (the GPU's way) equals the
// byte-table reference (the host's way) and the standard's check value.
#include <random>
#include <string>

#include <catch2/catch_test_macros.hpp>

#include "core/hive/hive_hash.hpp"

using namespace hs::hive;

TEST_CASE("hive: CRC-32C a bit at a time equals the byte table, and the standard's check value",
          "[hive]") {
  // The table's byte update gives the standard's check value, CRC-32C("123456789") = 0xE3069283.
  std::uint32_t c = 0xffffffffu;
  for (unsigned char byte : std::string("123456789"))
    c = k_crc32c_host[(c ^ byte) & 0xffu] ^ (c >> 8);
  CHECK(~c == 0xe3069283u);

  std::mt19937 rng(5);
  for (int i = 0; i < 100000; ++i) {
    const std::uint32_t k = rng();
    REQUIRE(crc32c_bitwise(k) == crc32c_by_table(k));
  }
  for (std::uint32_t k : {0u, 1u, 0x80000000u, 0xffffffffu, 0xfffffffeu, 0x01020304u})
    CHECK(crc32c_bitwise(k) == crc32c_by_table(k));
}
