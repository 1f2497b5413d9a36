// A full table answers failed_full quickly and keeps every other operation working.
#include <catch2/catch_test_macros.hpp>

#include "core/linear/linear_model.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;

TEST_CASE("inserting into a full table fails with a status, never loops", "[linear][model]") {
  auto t = test::make(backend::cpu, 16);
  const auto keys = test::random_keys(20, 3);
  const auto values = test::random_values(20, 4);
  const auto st = test::insert(*t, keys, values);
  int inserted = 0, failed = 0;
  for (op_status s : st) {
    inserted += s == op_status::inserted;
    failed += s == op_status::failed_full;
  }
  CHECK(inserted == 16);
  CHECK(failed == 4);
  const table_stats stats = t->stats({});
  CHECK(stats.failed_full == 4);
  CHECK(stats.occupied == 16);
  SECTION("keys already present can still be overwritten and found") {
    const auto again = test::insert(*t, {keys[0]}, {123});
    CHECK(again[0] == op_status::replaced);
    const auto f = test::find(*t, {keys[0], keys[19]});
    CHECK(f.status[0] == op_status::found);
    CHECK(f.values[0] == 123);
    CHECK(f.status[1] == op_status::missing);
  }
  SECTION("clear makes room again and resets the counters") {
    t->clear({});
    const auto st2 = test::insert(*t, {keys[19]}, {5});
    CHECK(st2[0] == op_status::inserted);
    CHECK(t->stats({}).failed_full == 0);
  }
}
