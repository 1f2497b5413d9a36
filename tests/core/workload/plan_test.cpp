// Batch planning: counts per kind follow the mix, erases never outrun inserts.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/common/error.hpp"
#include "core/workload/workload.hpp"

using namespace hs;
using namespace hs::workload;

TEST_CASE("counts per kind follow the mix and add up to the batch", "[workload]") {
  workload_spec spec;
  spec.mix = {0.5, 0.3, 0.1, 0.1};
  spec.batch_size = 1001;
  cursor c;
  c.next(spec, 0, op_mix{1, 0, 0, 0});  // something to erase
  const batch_plan p = c.next(spec);
  CHECK(p.inserts + p.hits + p.misses + p.erases == 1001);
  CHECK(p.inserts == 501);  // the remainder goes to the heaviest kind
  CHECK(p.hits == 300);
  CHECK(p.misses == 100);
  CHECK(p.erases == 100);
  CHECK(p.insert_begin == 1001);
  CHECK(p.hit_begin == 100);
  CHECK(p.hit_end == 1001);
  CHECK(c.inserted() == 1001 + 501);
}

TEST_CASE("erases beyond what was inserted become misses", "[workload]") {
  workload_spec spec;
  spec.mix = {0, 0, 0, 1};
  cursor c;
  const batch_plan p = c.next(spec, 100);
  CHECK(p.erases == 0);
  CHECK(p.misses == 100);
  CHECK(p.only(op_kind::find));
}

TEST_CASE("mixes parse, print and reject nonsense", "[workload]") {
  const auto m = parse_mix("insert:0.5,find-hit:0.3,erase:0.2");
  REQUIRE(m.has_value());
  CHECK(m->insert == 0.5);
  CHECK(m->find_miss == 0);
  CHECK(parse_mix(to_string(*m))->erase == 0.2);
  CHECK_FALSE(parse_mix("insert").has_value());
  CHECK_FALSE(parse_mix("upsert:1").has_value());
  CHECK_FALSE(parse_mix("insert:-1").has_value());
  CHECK_FALSE(parse_mix("insert:0").has_value());
}

TEST_CASE("invalid specs are refused with the field named", "[workload]") {
  workload_spec spec;
  spec.keys.cluster = 100;
  CHECK_THROWS_WITH(validate(spec), Catch::Matchers::ContainsSubstring("cluster"));
  spec = {};
  spec.batch_size = 0;
  CHECK_THROWS_AS(validate(spec), user_error);
}
