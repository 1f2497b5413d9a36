#include "tests/app/session/history_check.hpp"

#include <catch2/catch_test_macros.hpp>

#include "tests/support/table_support.hpp"

namespace hs::test {

table_snapshot table_now(app::session& s) {
  s.wait_idle();
  table_snapshot t;
  t.pairs = contents(s.tbl());
  const app::session_status st = s.status();
  t.live = st.live;
  t.batches = st.batches;
  t.rejected = st.rejected;
  t.capacity = s.capacity();
  t.throughput = s.throughput().size();
  t.events = s.rebuilds().size();
  return t;
}

void check_back_and_forward(family f, backend b) {
  INFO(to_string(f) << (b == backend::gpu ? " on the GPU" : " on the CPU"));
  app::session_config c;
  c.table.family = f;
  c.table.backend = b;
  c.table.capacity = 1u << 13;
  c.workload.batch_size = 512;
  app::session s(c);
  s.fill_to(0.3);
  const table_snapshot filled = table_now(s);
  s.step({app::typed_op(op_kind::insert, 12), app::typed_op(op_kind::insert, 76),
          app::typed_op(op_kind::erase, 12)});
  const table_snapshot stepped = table_now(s);
  s.rehash(f == family::hive ? 0 : 1u << 14);
  const table_snapshot rehashed = table_now(s);
  s.fill_to(0.5);
  const table_snapshot end = table_now(s);
  REQUIRE(filled.pairs.size() > 1000);
  REQUIRE(end.pairs != rehashed.pairs);
  CHECK(s.history().marks.size() == 4);

  s.back();
  CHECK(table_now(s) == rehashed);
  s.back();
  CHECK(table_now(s) == stepped);
  CHECK(s.last_step() != nullptr);
  s.back();
  CHECK(table_now(s) == filled);
  CHECK(s.last_step() == nullptr);
  CHECK(s.history().redo == 3);
  REQUIRE(s.history().marks.size() == 1);
  CHECK(s.history().marks[0].label == "fill 0.30");

  s.forward(3);
  const table_snapshot replayed = table_now(s);
  CHECK(replayed.pairs == end.pairs);  // the same keys and values (on the GPU, maybe elsewhere)
  CHECK(replayed.live == end.live);
  CHECK(replayed.capacity == end.capacity);
  CHECK(s.history().redo == 0);
  CHECK(describe(f).check_invariants(s.tbl(), {}).empty());
}

}  // namespace hs::test
