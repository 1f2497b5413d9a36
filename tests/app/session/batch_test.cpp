// One batch of the session's pipeline on the CPU model: the launch runs the planned operations,
// the outcome counts their statuses, a traced batch records each operation with its status and
// found value, and a family's batch counters come back with the batch.
#include <catch2/catch_test_macros.hpp>

#include "app/session/batch.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using namespace hs::app;

TEST_CASE("a batch runs its plan, counts its statuses and records a traced step",
          "[session][batch]") {
  table_config cfg;
  cfg.capacity = 1u << 12;
  auto t = make_table(cfg);
  const family_descriptor& fam = describe(cfg.family);
  workload::workload_spec spec;
  spec.batch_size = 2000;
  workload::cursor cur;
  batch b(t->space(), false, fam.batch_counters);
  const launch_context ctx{*t, fam, cfg, cfg.capacity};

  b.plan = cur.next(spec, 1500, workload::op_mix{1, 0, 0, 0});
  launch(b, spec, false, ctx, {});
  batch_outcome o = finish(b, 0);
  CHECK(o.inserted == 1500);
  CHECK(o.erased == 0);
  CHECK(t->stats({}).live == 1500);
  CHECK_FALSE(b.trace);

  b.plan = cur.next(spec, 40, workload::op_mix{0.25, 0.5, 0.0, 0.25});
  launch(b, spec, true, ctx, {});
  REQUIRE(b.trace);
  o = finish(b, 7);
  CHECK(b.trace->serial == 7);
  REQUIRE(b.trace->ops.size() == 40);
  std::uint64_t inserted = 0, erased = 0, found = 0;
  for (const stepped_op& op : b.trace->ops) {
    inserted += op.status == op_status::inserted;
    erased += op.status == op_status::erased;
    if (op.kind == op_kind::find) {
      CHECK(op.status == op_status::found);  // hits draw from keys inserted and not erased
      CHECK(op.result != k_empty);
      ++found;
    } else {
      CHECK(op.result == 0);
    }
  }
  CHECK(found == b.plan.hits);
  CHECK(inserted == o.inserted);
  CHECK(erased == o.erased);
  CHECK(o.erased == b.plan.erases);
  CHECK(t->stats({}).live == 1500 + o.inserted - o.erased);
}

TEST_CASE("a hive batch copies its step counters back with it", "[session][batch]") {
  table_config cfg;
  cfg.family = family::hive;
  cfg.capacity = 1u << 12;
  cfg.hive.instrument = true;
  auto t = make_table(cfg);
  const family_descriptor& fam = describe(cfg.family);
  REQUIRE(fam.batch_counters == 5);
  workload::workload_spec spec;
  workload::cursor cur;
  batch b(t->space(), false, fam.batch_counters);
  b.plan = cur.next(spec, 3000, workload::op_mix{1, 0, 0, 0});
  launch(b, spec, false, {*t, fam, cfg, cfg.capacity}, {});
  const batch_outcome o = finish(b, 0);
  const std::uint64_t* c = b.family_counts.data();
  CHECK(c[0] + c[1] + c[2] + c[3] ==
        o.inserted);  // every insert counted by the step that placed it
  CHECK(o.inserted == 3000);
  CHECK(c[1] > 0);
}
