// [gpu] The session on the GPU: batches pipelined three deep on the work stream, statuses counted
// on the device, sampling on another stream meanwhile; the live count stays exact.
#include <set>

#include <catch2/catch_test_macros.hpp>

#include "app/session/session.hpp"
#include "core/linear/linear_invariants.hpp"
#include "core/linear/linear_slots.hpp"
#include "tests/app/session/hive_session_check.hpp"
#include "tests/app/session/step_trace_check.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;
using namespace hs::app;

TEST_CASE("a GPU session keeps the live count exact while sampling", "[gpu][session]") {
  test::require_gpu();
  session_config cfg;
  cfg.table.backend = backend::gpu;
  cfg.table.capacity = 1u << 22;
  cfg.workload.batch_size = 1u << 16;
  // New keys take slots for good (erase keeps them): 0.5 + 40 * 0.3 * 2^16 / 2^22 = 0.69 occupied.
  cfg.workload.mix = {0.3, 0.4, 0.1, 0.2};
  session s(cfg);
  s.queue({{script_step::fill, 0.5, 0}, {script_step::run, 0, 40}, {script_step::drain, 0.3, 0}});
  sample_request req;
  req.occupancy = occupancy_query{0, cfg.table.capacity, 256, 128, nullptr};
  req.probe_histogram = true;
  sample_result r;
  for (int i = 0; i < 20; ++i) s.sample(req, r);  // concurrent with the work stream
  s.wait_idle();
  const session_status st = s.status();
  INFO(st.note);
  CHECK_FALSE(st.error);
  const table_stats ts = s.tbl().stats({});
  CHECK(st.live == ts.live);
  CHECK(st.live == static_cast<std::uint64_t>(0.3 * cfg.table.capacity));
  CHECK(st.batches > 40);
  CHECK(linear::check_invariants(linear::copy_slots(s.tbl()), cfg.table.hash, &ts).ok());
  s.sample(req, r);
  CHECK(r.stats.live == ts.live);
  CHECK(r.inspected.histogram.total == ts.occupied);
}

TEST_CASE("a GPU session in tombstone mode rebuilds between batches and keeps every key",
          "[gpu][session][tombstone]") {
  test::require_gpu();
  session_config cfg;
  cfg.table.backend = backend::gpu;
  cfg.table.capacity = 1u << 20;
  cfg.table.linear.deletes = linear_delete_mode::tombstone;
  cfg.workload.batch_size = 1u << 15;
  cfg.workload.mix = {0.4, 0.2, 0.0, 0.4};
  cfg.maintenance = {0.8, 0.0, 0.25};
  cfg.record_timeline = true;
  session s(cfg);
  s.queue({{script_step::fill, 0.5, 0}, {script_step::run, 0, 60}, {script_step::fill, 0.85, 0}});
  s.wait_idle();
  const session_status st = s.status();
  INFO(st.note);
  CHECK_FALSE(st.error);
  const table_stats ts = s.tbl().stats({});
  CHECK(st.live == ts.live);
  CHECK(s.capacity() == (1u << 21));  // grew past load 0.8
  CHECK(s.rebuilds().size() >= 2);    // rehashes at 25% dead, and the grow
  CHECK(linear::check_invariants(linear::copy_slots(s.tbl()), cfg.table.hash, &ts,
                                 linear_delete_mode::tombstone)
            .ok());
}

TEST_CASE("a GPU slab session samples lists and SlabAlloc while it fills, and flushes",
          "[gpu][session][slab]") {
  test::require_gpu();
  session_config cfg;
  cfg.table.backend = backend::gpu;
  cfg.table.family = family::slab;
  cfg.table.capacity = 15 * 20000;
  cfg.workload.batch_size = 1u << 16;
  cfg.workload.mix = {0.5, 0, 0, 0.5};
  session s(cfg);
  s.fill_to(2.0);
  sample_request req;
  req.slab.chain_lengths = true;
  req.strip = bucket_strip_query{0, 20000, 64};
  req.slab.chain_bucket = 7;
  req.slab.allocator = true;
  sample_result r;
  s.sample(req, r);  // while batches are in flight
  s.wait_idle();
  CHECK(s.status().live == 600000);
  s.sample(req, r);
  CHECK(r.inspected.slab.chains.total == 20000);
  CHECK(r.inspected.strip.size() == 64);
  CHECK(r.inspected.slab.chain.total >= 1);
  std::uint64_t allocated = 0;
  for (auto f : r.inspected.slab.allocator.block_fill) allocated += f;
  CHECK(allocated == r.stats.slab.chained_slabs);
  s.fill_to(0.5);
  s.wait_idle();
  s.flush();
  s.wait_idle();
  const table_stats st = s.tbl().stats({});
  CHECK(st.live == 150000);
  CHECK(st.tombstones == 0);
  CHECK(st.live == s.status().live);
}

TEST_CASE("a traced GPU slab step agrees with the replay of its operations on the lists before it",
          "[gpu][session][slab]") {
  test::require_gpu();
  session_config cfg;
  cfg.table.backend = backend::gpu;
  cfg.table.family = family::slab;
  cfg.table.capacity = 15 * 50000;  // 50,000 buckets: 64 operations rarely share one
  cfg.workload.batch_size = 1u << 16;
  cfg.workload.mix = {0.4, 0.3, 0.1, 0.2};
  session s(cfg);
  s.fill_to(1.2);
  s.wait_idle();
  int checked = 0;
  for (int round = 0; round < 6; ++round) {
    s.step(k_traced_step_ops);
    s.wait_idle();
    // Operations of one batch on one bucket may run in any order on the device; the replay takes
    // batch order, so compare only steps whose operations all have buckets of their own.
    const auto t = s.last_step();
    REQUIRE(t);
    std::set<std::uint64_t> buckets;
    for (const stepped_op& op : t->ops) buckets.insert(op.list_before->bucket);
    if (buckets.size() < t->ops.size()) continue;
    test::check_step_against_table(s, k_traced_step_ops);
    ++checked;
  }
  CHECK(checked >= 1);  // each round shares no bucket with probability 0.96
}

TEST_CASE("a GPU hive session grows and shrinks by linear hashing and counts every insert by step",
          "[gpu][session][hive]") {
  test::require_gpu();
  test::check_hive_session(backend::gpu);
}
