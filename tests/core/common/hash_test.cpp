// Hash policies: known-answer values and names.
#include <catch2/catch_test_macros.hpp>

#include "core/common/hash.hpp"

using namespace hs;

TEST_CASE("murmur3 finalizer matches published known answers", "[hash]") {
  murmur3_hash h;
  CHECK(h(0u) == 0u);
  CHECK(h(1u) == 0x514e28b7u);
  CHECK(h(2u) == 0x30f4c306u);
  CHECK(h(42u) == 0x087fcd5cu);
  CHECK(h(0xdeadbeefu) == 0x0de5c6a9u);
  CHECK(h(0xffffffffu) == 0x81f16f39u);
}

TEST_CASE("knuth and identity hashes compute what their names say", "[hash]") {
  CHECK(knuth_hash{}(1u) == 2654435761u);
  CHECK(knuth_hash{}(3u) == static_cast<std::uint32_t>(3ull * 2654435761ull));
  CHECK(identity_hash{}(12345u) == 12345u);
}

TEST_CASE("hash names round-trip and unknown names are refused", "[hash]") {
  for (hash_kind h : all_hash_kinds()) CHECK(parse_hash_kind(to_string(h)) == h);
  CHECK_FALSE(parse_hash_kind("md5").has_value());
  SECTION("dispatch picks the policy the name selects") {
    const std::uint32_t got = dispatch_hash(hash_kind::identity, [](auto p) { return p(77u); });
    CHECK(got == 77u);
    CHECK(dispatch_hash(hash_kind::murmur3, [](auto p) { return p(1u); }) == 0x514e28b7u);
  }
}
