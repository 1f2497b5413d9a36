// The session on the CPU model: fills and drains to exact loads, counts live keys from statuses
// exactly, stops fills that cannot progress, and runs scripts step by step.
#include <algorithm>

#include <catch2/catch_test_macros.hpp>

#include "app/session/session.hpp"
#include "core/common/error.hpp"
#include "tests/app/session/hive_session_check.hpp"
#include "tests/app/session/step_trace_check.hpp"

using namespace hs;
using namespace hs::app;

namespace {
session_config cpu_config(std::uint64_t capacity) {
  session_config c;
  c.table.backend = backend::cpu;
  c.table.capacity = capacity;
  c.workload.batch_size = 4096;
  return c;
}
}  // namespace

TEST_CASE("fill and drain reach the target load exactly", "[session]") {
  session s(cpu_config(1u << 16));
  s.fill_to(0.75);
  s.wait_idle();
  CHECK(s.status().live == static_cast<std::uint64_t>(0.75 * (1u << 16)));
  CHECK(s.tbl().stats({}).live == s.status().live);
  s.fill_to(0.25);
  s.wait_idle();
  CHECK(s.status().live == static_cast<std::uint64_t>(0.25 * (1u << 16)));
  const table_stats st = s.tbl().stats({});
  CHECK(st.live == s.status().live);
  CHECK(st.erased ==
        static_cast<std::uint64_t>(0.5 * (1u << 16)));  // erase keeps keys in their slots
  CHECK_FALSE(s.throughput().empty());
}

TEST_CASE("a mixed workload keeps the live count exact", "[session]") {
  auto cfg = cpu_config(1u << 15);
  cfg.workload.mix = {0.4, 0.3, 0.1, 0.2};
  session s(cfg);
  s.queue({{script_step::fill, 0.3, 0}, {script_step::run, 0, 12}});
  s.wait_idle();
  const session_status st = s.status();
  CHECK(st.batches >= 12);
  CHECK(st.live == s.tbl().stats({}).live);
  CHECK(st.live > 0);
}

TEST_CASE("a fill that cannot progress stops with a reason", "[session]") {
  auto cfg = cpu_config(1u << 14);
  cfg.workload.keys.dist = workload::distribution::uniform_dup;
  cfg.workload.keys.universe = 100;  // at most 100 distinct keys
  session s(cfg);
  s.fill_to(0.5);
  s.wait_idle();
  const session_status st = s.status();
  CHECK(st.live == 100);
  CHECK(st.note.find("repeat") != std::string::npos);
}

TEST_CASE("scripts hold at pauses until continued; reset empties everything", "[session]") {
  session s(cpu_config(1u << 14));
  s.queue({{script_step::fill, 0.2, 0}, {script_step::pause, 0, 0}, {script_step::fill, 0.4, 0}});
  s.wait_idle();
  CHECK(s.status().script_held);
  CHECK(s.status().live == static_cast<std::uint64_t>(0.2 * (1u << 14)));
  s.continue_script();
  s.wait_idle();
  CHECK(s.status().live == static_cast<std::uint64_t>(0.4 * (1u << 14)));
  s.reset();
  CHECK(s.status().live == 0);
  CHECK(s.tbl().stats({}).occupied == 0);
  CHECK(s.throughput().empty());
}

TEST_CASE("churn that would fill every slot stops near full with a reason", "[session]") {
  auto cfg = cpu_config(1u << 13);
  cfg.workload.mix = {0.5, 0.2, 0.0, 0.3};  // inserts outnumber erases, and erased keys keep slots
  cfg.workload.batch_size = 512;
  session s(cfg);
  s.queue({{script_step::fill, 0.8, 0}, {script_step::run, 0, 1000}});
  s.wait_idle();
  const session_status st = s.status();
  CHECK(st.note.find("slots hold keys") != std::string::npos);
  const table_stats ts = s.tbl().stats({});
  const std::uint64_t cap = 1u << 13, limit = cap - cap / 50;
  CHECK(ts.occupied < limit);             // stopped before 98% of the slots were taken
  CHECK(ts.occupied + 2 * 512 >= limit);  // but not long before
  SECTION("fills are not stopped: they go to their target") {
    s.reset();
    s.fill_to(0.99);
    s.wait_idle();
    CHECK(s.status().live == static_cast<std::uint64_t>(0.99 * cap));
  }
  CHECK(ts.failed_full == 0);
  CHECK(st.batches < 1000);
}

TEST_CASE("maintenance rebuilds between batches and the timeline records them",
          "[session][rehash]") {
  auto cfg = cpu_config(1u << 14);
  cfg.workload.batch_size = 1024;
  cfg.workload.mix = {0.5, 0.0, 0.0, 0.5};
  cfg.maintenance.rehash_above = 0.3;
  cfg.record_timeline = true;
  session s(cfg);
  s.queue({{script_step::fill, 0.45, 0}, {script_step::run, 0, 40}});
  s.wait_idle();
  const session_status st = s.status();
  CHECK_FALSE(st.error);
  CHECK(st.live == s.tbl().stats({}).live);
  const auto tl = s.timeline();
  CHECK(tl.size() == st.batches);
  const auto rb = s.rebuilds();
  REQUIRE_FALSE(rb.empty());
  CHECK(rb.front().label == "rehash");
  // Dead slots climb between rebuilds and drop after each.
  double worst = 0;
  for (const auto& p : tl) worst = std::max(worst, p.erased);
  CHECK(worst <= 0.3 + 1024.0 / (1u << 14));
  CHECK(s.capacity() == (1u << 14));
}

TEST_CASE("a rebuild asked for while working happens between batches", "[session][rehash]") {
  auto cfg = cpu_config(1u << 14);
  cfg.table.linear.deletes = linear_delete_mode::tombstone;
  session s(cfg);
  s.fill_to(0.6);
  s.rehash(1u << 15);  // queued behind the batches in flight, not dropped by them
  s.wait_idle();
  CHECK(s.capacity() == (1u << 15));
  CHECK(s.tbl().capacity() == (1u << 15));
  CHECK(s.status().live == s.tbl().stats({}).live);
  CHECK(s.rebuilds().size() == 1);
  s.fill_to(0.6);  // loads are relative to the new capacity
  s.wait_idle();
  CHECK(s.status().live == static_cast<std::uint64_t>(0.6 * (1u << 15)));
}

TEST_CASE("a slab session fills past one slab per bucket, drains, and FLUSH compacts",
          "[session][slab]") {
  auto cfg = cpu_config(15 * 2000);  // 2000 buckets
  cfg.table.family = family::slab;
  session s(cfg);
  s.fill_to(2.5);  // beta 2.5: lists of three slabs and more
  s.wait_idle();
  CHECK(s.status().live == 75000);
  s.fill_to(1.0);
  s.wait_idle();
  const table_stats before = s.tbl().stats({});
  CHECK(before.live == 30000);
  CHECK(before.tombstones == 45000);  // unique mode: deletes leave tombstones
  s.flush();
  s.wait_idle();
  const table_stats after = s.tbl().stats({});
  CHECK(after.live == 30000);
  CHECK(after.tombstones == 0);
  CHECK(after.slab.chained_slabs < before.slab.chained_slabs);
  CHECK(s.rebuilds().back().label == "flush");
}

TEST_CASE(
    "a slab session under churn flushes by the maintenance threshold, counting its tombstones "
    "from the statuses",
    "[session][slab][rehash]") {
  auto cfg = cpu_config(15 * 2000);  // 2000 buckets, 30,000 pairs of base slabs
  cfg.table.family = family::slab;
  cfg.workload.batch_size = 2048;
  cfg.workload.keys.dist = workload::distribution::uniform_dup;
  cfg.workload.keys.universe = 30000;
  cfg.workload.mix = {0.5, 0.0, 0.0, 0.5};
  cfg.maintenance.rehash_above = 0.25;  // 7,500 dead entries
  session s(cfg);
  s.queue({{script_step::fill, 0.5, 0}, {script_step::run, 0, 60}});
  s.wait_idle();
  const session_status st = s.status();
  CHECK_FALSE(st.error);
  const table_stats ts = s.tbl().stats({});
  CHECK(ts.live == st.live);
  // Flushed whenever the erases since the last compaction passed the threshold: never more
  // tombstones than the threshold plus the batches that ran while the flush waited for them.
  CHECK(ts.tombstones <= 7500 + 2 * 1024);
  const auto rb = s.rebuilds();
  const auto flushes = std::count_if(rb.begin(), rb.end(), [](const rebuild_event& e) {
    return e.label == "flush (maintenance)";
  });
  CHECK(flushes >= 3);           // 60 batches erase about 30,000 live keys
  CHECK(s.capacity() == 30000);  // compacted, not rebuilt

  // Without the threshold the tombstones pile up.
  cfg.maintenance.rehash_above = 0;
  session plain(cfg);
  plain.queue({{script_step::fill, 0.5, 0}, {script_step::run, 0, 60}});
  plain.wait_idle();
  CHECK(plain.tbl().stats({}).tombstones > 20000);
  CHECK(plain.rebuilds().empty());
}

TEST_CASE(
    "a traced slab step records each operation's list before it, and replaying them gives the "
    "table",
    "[session][slab]") {
  for (slab_mode mode : {slab_mode::unique, slab_mode::multi}) {
    auto cfg =
        cpu_config(15 * 40);  // 40 buckets: lists of several slabs, operations sharing buckets
    cfg.table.family = family::slab;
    cfg.table.slab.mode = mode;
    cfg.workload.mix = {0.4, 0.25, 0.1, 0.25};
    session s(cfg);
    s.fill_to(1.6);
    s.wait_idle();
    CHECK_FALSE(s.last_step());  // fills are not traced
    for (int round = 0; round < 4; ++round) {
      s.step(48);
      s.wait_idle();
      test::check_step_against_table(s, 48);
      CHECK(s.last_step()->serial == std::uint64_t(round + 1));
    }
    s.step(k_traced_step_ops + 1);  // too many to trace: the last trace stays
    s.wait_idle();
    CHECK(s.last_step()->serial == 4);
    s.reset();
    CHECK_FALSE(s.last_step());
  }
}

TEST_CASE("FLUSH is refused for a linear table", "[session][slab]") {
  session s(cpu_config(1u << 12));
  CHECK_THROWS_AS(s.flush(), user_error);
}

TEST_CASE("a hive session grows and shrinks by linear hashing and counts every insert by step",
          "[session][hive]") {
  test::check_hive_session(backend::cpu);
}

TEST_CASE("a script's say sets the stage's caption until the next one; reset clears it",
          "[session]") {
  session_config cfg;
  cfg.table.capacity = 1u << 12;
  cfg.workload.batch_size = 256;
  session s(cfg);
  s.queue({{script_step::say, 0, 0, "first stage"},
           {script_step::fill, 0.2, 0},
           {script_step::pause, 0, 0},
           {script_step::say, 0, 0, "second stage"},
           {script_step::fill, 0.4, 0}});
  s.wait_idle();
  CHECK(s.status().caption == "first stage");
  CHECK(s.status().script_held);
  s.continue_script();
  s.wait_idle();
  CHECK(s.status().caption == "second stage");
  CHECK(s.status().live == static_cast<std::uint64_t>(0.4 * 4096));
  s.reset();
  CHECK(s.status().caption.empty());
}
