// The checkers' duplicate finder: every key occurring more than once is named once, whatever its
// bits (the two radix passes must both order), and a set without repeats yields none.
#include <algorithm>

#include <catch2/catch_test_macros.hpp>

#include "core/common/duplicate_keys.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;

TEST_CASE("duplicated keys are found by their full 32 bits", "[invariants]") {
  auto keys = test::random_keys(100000, 41);
  std::vector<key_type> none = keys;
  CHECK(duplicated_keys(none).empty());
  CHECK(std::is_sorted(none.begin(), none.end()));
  // Repeats that differ from other keys only in their high or only in their low 16 bits.
  const key_type a = keys[10], b = keys[20000], c = keys[99999];
  keys.push_back(a);
  keys.push_back(b);
  keys.push_back(b);
  keys.push_back(c);
  keys.push_back((a & 0xffff0000u) |
                 ((a + 1) & 0xffffu));  // a neighbour of a, not a repeat unless present
  const bool neighbour_present = std::count(keys.begin(), keys.end() - 1, keys.back()) > 0;
  std::vector<key_type> want{a, b, c};
  if (neighbour_present) want.push_back(keys.back());
  std::sort(want.begin(), want.end());
  CHECK(duplicated_keys(keys) == want);
  std::vector<key_type> many(64, 7);
  CHECK(duplicated_keys(many) == std::vector<key_type>{7});
}
