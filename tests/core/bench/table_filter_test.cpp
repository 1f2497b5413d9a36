// `bench SUITE --only`: the named tables run and nothing else; unknown names and suites that run
// as a whole are refused. Profile rows name the timed runs and nest.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/bench/profile_row.hpp"
#include "core/bench/suites.hpp"
#include "core/bench/table_filter.hpp"
#include "core/common/error.hpp"

using namespace hs;
using namespace hs::bench;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("a table filter wants the named tables only, and refuses names the suite lacks",
          "[bench]") {
  const table_filter all("hive", {}, {"bulk-insert", "mixed"});
  CHECK(all.wants("bulk-insert"));
  CHECK(all.wants("mixed"));
  const table_filter one("hive", {"mixed"}, {"bulk-insert", "mixed"});
  CHECK(one.wants("mixed"));
  CHECK_FALSE(one.wants("bulk-insert"));
  CHECK_THROWS_WITH(
      table_filter("hive", {"mixd"}, {"bulk-insert", "mixed"}),
      ContainsSubstring("no table 'mixd'") && ContainsSubstring("bulk-insert, mixed"));
}

TEST_CASE("the list after --only splits at commas and refuses empty names", "[bench]") {
  CHECK(parse_table_names("bulk") == std::vector<std::string>{"bulk"});
  CHECK(parse_table_names("bulk,dead-slots") == std::vector<std::string>{"bulk", "dead-slots"});
  CHECK_THROWS_AS(parse_table_names(""), user_error);
  CHECK_THROWS_AS(parse_table_names("bulk,,dead-slots"), user_error);
  CHECK_THROWS_AS(parse_table_names("bulk,"), user_error);
}

TEST_CASE("profile rows nest and restore the outer name", "[bench]") {
  CHECK(profile_row::current().empty());
  {
    const profile_row outer("linear insert load 0.50");
    CHECK(profile_row::current() == "linear insert load 0.50");
    {
      const profile_row inner("linear find-hit load 0.50");
      CHECK(profile_row::current() == "linear find-hit load 0.50");
    }
    CHECK(profile_row::current() == "linear insert load 0.50");
  }
  CHECK(profile_row::current().empty());
}

namespace {
bench_options small_cpu_run(std::vector<std::string> only) {
  bench_options o;
  o.backend = backend::cpu;
  o.capacity = std::uint64_t{1} << 16;
  o.reps = 1;
  o.warmup = 0;
  o.only = std::move(only);
  return o;
}
}  // namespace

TEST_CASE("bench --only runs the named tables of a suite and nothing else", "[bench]") {
  const report lin = run_suite("linear", small_cpu_run({"dead-slots"}));
  REQUIRE(lin.tables.size() == 1);
  CHECK(lin.tables[0].name == "dead-slots");
  CHECK(lin.tables[0].rows.size() == 2);  // value mode and tombstone mode

  const report churn = run_suite("linear-churn", small_cpu_run({"rebuild"}));
  REQUIRE(churn.tables.size() == 1);
  CHECK(churn.tables[0].name == "rebuild");
  CHECK(churn.tables[0].rows.size() == 6);  // in place, grow, shrink in both delete modes

  const report both = run_suite("linear-churn", small_cpu_run({"value", "summary"}));
  REQUIRE(both.tables.size() == 2);
  CHECK(both.tables[0].name == "summary");
  CHECK(both.tables[0].rows.size() == 3);  // the summary runs every policy
  CHECK(both.tables[1].name == "value");
}

TEST_CASE("bench --only is refused for unknown tables and for suites that run as a whole",
          "[bench]") {
  CHECK_THROWS_WITH(run_suite("linear", small_cpu_run({"bulk-insert"})),
                    ContainsSubstring("its tables: bulk, dead-slots"));
  CHECK_THROWS_WITH(run_suite("roofline", small_cpu_run({"ceilings"})),
                    ContainsSubstring("runs as a whole"));
}
