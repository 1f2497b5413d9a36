// Creating tables: defaults, and clear errors for impossible configurations and bad arguments.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/common/error.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("capacity must be a power of two within bounds", "[table]") {
  table_config cfg;
  cfg.capacity = 1000;
  CHECK_THROWS_WITH(make_table(cfg), ContainsSubstring("power of two"));
  cfg.capacity = 8;
  CHECK_THROWS_AS(make_table(cfg), user_error);
  cfg.capacity = 1ull << 33;
  CHECK_THROWS_WITH(make_table(cfg), ContainsSubstring("2^32"));
}

TEST_CASE("a hive config defaults its bucket size and reports its capacity", "[table][hive]") {
  table_config cfg;
  cfg.family = family::hive;
  cfg.capacity = 1024;
  auto t = make_table(cfg);
  CHECK(t->capacity() == 1024);
  CHECK(t->stats({}).hive.slots_per_bucket == 16);
  CHECK(t->stats({}).hive.buckets == 64);
  cfg.capacity = 24;  // not a power-of-two number of buckets
  CHECK_THROWS_WITH(make_table(cfg), ContainsSubstring("power of two"));
}

TEST_CASE("a slab config resolves its buckets from the capacity and checks its options",
          "[table][slab]") {
  table_config cfg;
  cfg.family = family::slab;
  cfg.capacity = 1000;  // need not be a power of two: 67 buckets of 15 pairs
  auto t = make_table(cfg);
  CHECK(t->config().slab.buckets == 67);
  CHECK(t->capacity() == 67 * 15);
  cfg.slab.tile = 12;
  CHECK_THROWS_WITH(make_table(cfg), ContainsSubstring("tile"));
  cfg.slab.tile = 0;
  cfg.slab.pool_slabs = 8192;
  cfg.slab.pool_limit = 100;
  CHECK_THROWS_WITH(make_table(cfg), ContainsSubstring("below the initial pool"));
}

TEST_CASE("the CPU backend defaults to 2^22 slots", "[table]") {
  table_config cfg;
  auto t = make_table(cfg);
  CHECK(t->capacity() == (1ull << 22));
  CHECK(t->space() == memory_space::host);
  CHECK(t->stats({}).bytes == (1ull << 22) * 8);
}

TEST_CASE("bulk calls refuse spans of different lengths", "[table]") {
  auto t = test::make(backend::cpu, 64);
  std::vector<key_type> keys{1, 2, 3};
  std::vector<value_type> values{1, 2};
  std::vector<op_status> st(3);
  CHECK_THROWS_WITH(t->insert(keys, values, st, {}), ContainsSubstring("3 keys but 2"));
  std::vector<op_status> short_st(2);
  values.push_back(3);
  CHECK_THROWS_AS(t->insert(keys, values, short_st, {}), user_error);
}
