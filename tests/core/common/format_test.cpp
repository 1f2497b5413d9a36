// Sizes, counts and rates: parsing user input and formatting numbers.
#include <catch2/catch_test_macros.hpp>

#include "core/common/format.hpp"

using namespace hs;

TEST_CASE("sizes parse in decimal, binary suffixes and powers of two", "[format]") {
  CHECK(parse_size("134217728") == 134217728ull);
  CHECK(parse_size("2^27") == (1ull << 27));
  CHECK(parse_size("4M") == (4ull << 20));
  CHECK(parse_size("64k") == (64ull << 10));
  CHECK(parse_size("1G") == (1ull << 30));
}

TEST_CASE("malformed sizes are refused", "[format]") {
  CHECK_FALSE(parse_size("").has_value());
  CHECK_FALSE(parse_size("12x").has_value());
  CHECK_FALSE(parse_size("2^64").has_value());
  CHECK_FALSE(parse_size("-3").has_value());
  CHECK_FALSE(parse_size("M").has_value());
}

TEST_CASE("numbers format for people", "[format]") {
  CHECK(format_count(134217728) == "134,217,728");
  CHECK(format_count(999) == "999");
  CHECK(format_bytes(1ull << 30) == "1.00 GiB");
  CHECK(format_bytes(17) == "17 B");
  CHECK(format_rate(1.5e10) == "15.00 G/s");
  CHECK(format_rate(2.5e6) == "2.5 M/s");
}

TEST_CASE("keys are written in hex or in decimal", "[format]") {
  CHECK(key_text(12, key_radix::hex) == "0x0000000c");
  CHECK(key_text(12, key_radix::hex, false) == "0000000c");
  CHECK(key_text(12, key_radix::decimal) == "12");
  CHECK(key_text(4294967294u, key_radix::decimal) == "4294967294");
  CHECK(key_text(0xdeadbeef, key_radix::hex, false) == "deadbeef");
}
