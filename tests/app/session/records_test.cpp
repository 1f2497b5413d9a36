// The session's records for the common views: bounded series, and labelled rebuild events.
#include <catch2/catch_test_macros.hpp>

#include "app/session/records.hpp"

using namespace hs;
using namespace hs::app;

TEST_CASE(
    "the throughput series keeps its newest points, dropping the oldest quarter past its bound",
    "[session][records]") {
  session_records r;
  CHECK(r.last_load() == 0.0);
  for (std::size_t i = 0; i <= k_records_max; ++i)
    r.add_batch({double(i), 0.001 * double(i % 1000), 1e9, 1000, batch_kind::mixed});
  CHECK(r.throughput().size() == k_records_max + 1 - k_records_max / 4);
  CHECK(r.throughput().front().time_s == double(k_records_max / 4));
  CHECK(r.throughput().back().time_s == double(k_records_max));
  CHECK(r.last_load() == 0.001 * double(k_records_max % 1000));
  r.clear();
  CHECK(r.throughput().empty());
}

TEST_CASE("rebuilds are recorded with what they did", "[session][records]") {
  session_records r;
  maintenance_result grow;
  grow.what = maintenance_result::action::grow;
  grow.to_capacity = 1u << 21;
  r.add_rebuild(7, grow);
  r.add_rebuild(8, maintenance_result{});  // nothing done: nothing recorded
  maintenance_result rehash;
  rehash.what = maintenance_result::action::rehash;
  r.add_rebuild(9, rehash);
  r.add_event(10, rebuild_label(1u << 21, 1u << 20));
  r.add_event(11, rebuild_label(64, 64));
  REQUIRE(r.events().size() == 4);
  CHECK(r.events()[0].batch == 7);
  CHECK(r.events()[0].label == "grow to 2,097,152");
  CHECK(r.events()[1].label == "rehash");
  CHECK(r.events()[2].label == "shrink to 1,048,576");
  CHECK(r.events()[3].label == "rehash");
}
