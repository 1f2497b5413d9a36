// regpus as a session step (a scenario's `regpus N`): the sharded table moves to N simulated
// devices between batches with every pair kept, the session counts and labels it, and Back stops
// there; a table on one device refuses it, saying how to shard it.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/session/session.hpp"
#include "core/shard/sharded_view.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;

namespace {
session_config sharded_config(std::uint32_t devices) {
  session_config c;
  c.table.backend = backend::cpu;
  c.table.capacity = 1u << 14;
  c.table.devices = devices;
  c.workload.batch_size = 2048;
  return c;
}
}  // namespace

TEST_CASE("regpus moves a session's table to more devices and keeps every pair",
          "[session][shard]") {
  session s(sharded_config(2));
  s.fill_to(0.5);
  s.queue({{script_step::regpus, 0, 4}});
  s.wait_idle();
  const session_status st = s.status();
  INFO(st.note);
  REQUIRE_FALSE(st.error);
  CHECK_THAT(st.note, ContainsSubstring("moved from 2 to 4 devices: 128 of 256 virtual shards"));
  CHECK(s.config().table.devices == 4);
  REQUIRE(as_sharded(s.tbl()));
  CHECK(as_sharded(s.tbl())->devices() == 4);
  CHECK(st.live == 8192);
  CHECK(s.tbl().stats({}).live == 8192);
  REQUIRE_FALSE(s.rebuilds().empty());
  CHECK(s.rebuilds().back().label == "regpus 2 -> 4");
  for (std::uint32_t d = 0; d < 4; ++d) CHECK(as_sharded(s.tbl())->shard(d).stats({}).live > 1500);
  CHECK_THAT(s.why_not_back(1), ContainsSubstring("regpus moved the table to 4 devices"));
  s.fill_to(0.75);  // and it goes on: batches over the four devices
  s.wait_idle();
  CHECK(s.status().live == s.tbl().stats({}).live);
  CHECK(s.status().live == 12288);
}

TEST_CASE("regpus on a table of one device is refused, saying how to shard it",
          "[session][shard]") {
  session s(sharded_config(1));
  s.fill_to(0.25);
  s.queue({{script_step::regpus, 0, 2}});
  s.wait_idle();
  CHECK(s.status().error);
  CHECK_THAT(s.status().note, ContainsSubstring("the table is on one device"));
  CHECK(s.status().live == 4096);
}
