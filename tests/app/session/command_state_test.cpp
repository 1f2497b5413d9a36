// The session's command state machine on its own: what it plans for fills, drains, steps, runs
// and scripts, when a command ends and with what note. No table: progress is fed by hand.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/session/command_state.hpp"
#include "app/session/records.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;

namespace {
workload::workload_spec spec_of(std::uint64_t batch) {
  workload::workload_spec s;
  s.batch_size = batch;
  s.mix = {0.5, 0.3, 0.1, 0.1};
  return s;
}
}  // namespace

TEST_CASE(
    "a fill plans insert-only batches up to its target and ends with a note once nothing is in "
    "flight",
    "[session][commands]") {
  command_state c(spec_of(1000));
  table_progress p{0, 0, 0, 10000, false};
  c.fill_to(0.25, p, 1.0);
  CHECK(c.act() == activity::filling);
  CHECK(c.target_load() == 0.25);
  std::string note;
  std::uint64_t planned = 0;
  while (auto b = c.next(p, note)) {
    CHECK(kind_of(b->plan) == batch_kind::insert);
    CHECK(b->plan.only(op_kind::insert));
    CHECK_FALSE(b->traced);
    planned += b->plan.size;
    p.pending_inserts += b->plan.inserts;
    p.in_flight = true;
  }
  CHECK(planned == 2500);
  CHECK(c.act() == activity::filling);  // still in flight: not done yet
  CHECK(note.empty());
  p = {2500, 0, 0, 10000, false};
  CHECK_FALSE(c.next(p, note));
  CHECK(c.act() == activity::idle);
  CHECK(note == "filled to load 0.250");
}

TEST_CASE("a drain erases only what the workload inserted, down to its target",
          "[session][commands]") {
  command_state c(spec_of(1000));
  table_progress p{0, 0, 0, 10000, false};
  std::string note;
  c.fill_to(0.3, p, 1.0);
  while (auto b = c.next(p, note)) p.live += b->plan.inserts;
  c.fill_to(0.1, p, 1.0);
  CHECK(c.act() == activity::draining);
  std::uint64_t erased = 0;
  while (auto b = c.next(p, note)) {
    CHECK(kind_of(b->plan) == batch_kind::erase);
    CHECK(b->plan.only(op_kind::erase));
    erased += b->plan.erases;
    p.live -= b->plan.erases;
  }
  CHECK(erased == 2000);
  CHECK(note == "drained to load 0.100");
  // Past what the workload inserted, a drain stops and says why.
  c.fill_to(0.0, p, 1.0);
  p.live = 5000;  // keys someone else put there
  while (auto b = c.next(p, note)) p.live -= b->plan.erases;
  CHECK_THAT(note, ContainsSubstring("every key this workload inserted is erased"));
}

TEST_CASE("a fill target is clamped to the family's highest load", "[session][commands]") {
  command_state c(spec_of(1000));
  c.fill_to(9.0, {0, 0, 0, 1000, false}, 4.0);
  CHECK(c.target_load() == 4.0);
  c.fill_to(-1.0, {10, 0, 0, 1000, false}, 4.0);
  CHECK(c.target_load() == 0.0);
  CHECK(c.act() == activity::draining);
}

TEST_CASE("a step of at most 64 operations is one traced batch; a larger one is not traced",
          "[session][commands]") {
  command_state c(spec_of(1000));
  std::string note;
  const table_progress p{0, 0, 0, 10000, false};
  c.step(5);
  auto b = c.next(p, note);
  REQUIRE(b);
  CHECK(b->traced);
  CHECK(b->plan.size == 5);
  CHECK(c.act() == activity::idle);
  CHECK_FALSE(c.next(p, note));
  c.step(65);
  b = c.next(p, note);
  REQUIRE(b);
  CHECK_FALSE(b->traced);
  c.step(0);  // one batch of the mix
  CHECK(c.next(p, note)->plan.size == 1000);
}

TEST_CASE("run plans batches of the mix until paused", "[session][commands]") {
  command_state c(spec_of(1000));
  std::string note;
  const table_progress p{0, 0, 0, 10000, false};
  c.run();
  for (int i = 0; i < 5; ++i) {
    const auto b = c.next(p, note);
    REQUIRE(b);
    CHECK(kind_of(b->plan) == batch_kind::mixed);
    CHECK(b->plan.size == 1000);
    CHECK(b->plan.inserts > 0);
    CHECK(b->plan.inserts < b->plan.size);
  }
  c.pause();
  CHECK_FALSE(c.next(p, note));
  CHECK(c.resting());
}

TEST_CASE("a script runs its steps in order, holds at a pause, and hands table work back",
          "[session][commands]") {
  command_state c(spec_of(1000));
  table_progress p{0, 0, 0, 10000, false};
  std::string note;
  c.queue({{script_step::fill, 0.1, 0},
           {script_step::pause, 0, 0},
           {script_step::run, 0, 2},
           {script_step::clear, 0, 0},
           {script_step::rehash, 0, 64},
           {script_step::flush, 0, 0}});
  CHECK_FALSE(c.take_script_step(p, 1.0, note));  // the fill started
  CHECK(c.act() == activity::filling);
  while (auto b = c.next(p, note)) p.live += b->plan.inserts;
  CHECK(c.act() == activity::idle);
  CHECK_FALSE(c.take_script_step(p, 1.0, note));  // the pause
  CHECK(c.held());
  CHECK(c.resting());
  CHECK(note == "stage finished: continue to run the next one");
  CHECK_FALSE(c.take_script_step(p, 1.0, note));  // held: nothing moves
  c.continue_script();
  CHECK_FALSE(c.take_script_step(p, 1.0, note));  // run 2 batches
  CHECK(c.act() == activity::scripted);
  CHECK(c.next(p, note));
  CHECK(c.next(p, note));
  CHECK_FALSE(c.next(p, note));
  CHECK(c.act() == activity::idle);
  const auto clear = c.take_script_step(p, 1.0, note);
  REQUIRE(clear);
  CHECK(clear->kind == script_step::clear);
  CHECK(c.cursor().inserted() == 0);  // rewound with the table
  const auto rehash = c.take_script_step(p, 1.0, note);
  REQUIRE(rehash);
  CHECK(rehash->kind == script_step::rehash);
  CHECK(rehash->batches == 64);
  CHECK(c.take_script_step(p, 1.0, note)->kind == script_step::flush);
  CHECK(c.script_left() == 0);
  CHECK(c.resting());
}

TEST_CASE("a fill stops, and its script with it, when inserts fail for room or keys only repeat",
          "[session][commands]") {
  command_state c(spec_of(1000));
  const table_progress p{400, 0, 0, 1000, false};
  std::string note;
  c.queue({{script_step::fill, 0.9, 0}, {script_step::run, 0, 3}});
  c.take_script_step(p, 1.0, note);
  c.fill_batch_done(100, true, p, "fill stopped: the table is full", note);
  CHECK(c.act() == activity::idle);
  CHECK(note == "fill stopped: the table is full");
  CHECK(c.script_left() == 0);

  c.fill_to(0.9, p, 1.0);
  c.fill_batch_done(0, false, p, "", note);
  c.fill_batch_done(0, false, p, "", note);
  CHECK(c.act() == activity::filling);
  c.fill_batch_done(0, false, p, "", note);
  CHECK(c.act() == activity::idle);
  CHECK_THAT(note, ContainsSubstring("fill stopped at load 0.400: the workload's keys repeat"));
}

TEST_CASE(
    "the occupancy guard stops a run and its script, but not a script's run that planned all its "
    "batches",
    "[session][commands]") {
  std::string note;
  const table_progress p{0, 0, 0, 10000, false};
  command_state mid(spec_of(100));
  mid.queue({{script_step::run, 0, 3}, {script_step::fill, 0.5, 0}});
  CHECK_FALSE(mid.take_script_step(p, 1.0, note));
  REQUIRE(mid.next(p, note));  // one of three batches planned
  mid.guard_stop();
  CHECK(mid.act() == activity::idle);
  CHECK(mid.script_left() == 0);  // the rest of the script goes with it

  command_state done(spec_of(100));
  done.queue({{script_step::run, 0, 2}, {script_step::fill, 0.5, 0}});
  CHECK_FALSE(done.take_script_step(p, 1.0, note));
  REQUIRE(done.next(p, note));
  REQUIRE(done.next(p, note));  // both planned: the run is done whatever the guard says
  done.guard_stop();
  CHECK(done.act() == activity::idle);
  CHECK(done.script_left() == 1);  // the fill still follows

  command_state user(spec_of(100));
  user.run();
  REQUIRE(user.next(p, note));
  user.guard_stop();
  CHECK(user.act() == activity::idle);
}

TEST_CASE(
    "the journal records each command as it ran: a run with the batches it planned, a step, a "
    "fill, the script's steps",
    "[session][commands]") {
  std::string note;
  table_progress p{0, 0, 0, 10000, false};
  command_state c(spec_of(100));
  c.fill_to(0.25, p, 1.0);
  c.run();
  for (int i = 0; i < 4; ++i) REQUIRE(c.next(p, note));
  c.pause();
  REQUIRE_FALSE(c.next(p, note));  // paused: no more batches, none counted
  c.step(16);
  REQUIRE(c.next(p, note));
  c.step(0);
  REQUIRE(c.next(p, note));
  c.queue(
      {{script_step::say, 0, 0, "hello"}, {script_step::clear, 0, 0}, {script_step::pause, 0, 0}});
  while (c.take_script_step(p, 1.0, note)) {
  }
  const auto& j = c.journal();
  REQUIRE(j.size() == 6);
  CHECK(j[0].step.kind == script_step::fill);
  CHECK(j[0].step.load == 0.25);
  CHECK(j[1].step.kind == script_step::run);
  CHECK(j[1].step.batches == 4);
  CHECK(j[2].step.kind == script_step::step);
  CHECK(j[2].step.batches == 16);
  CHECK(j[3].step.kind == script_step::run);  // a one-batch step replays as one batch
  CHECK(j[3].step.batches == 1);
  CHECK(j[4].step.kind == script_step::say);
  CHECK(j[5].step.kind == script_step::clear);  // pauses are not commands
  CHECK(j[5].settings.workload.batch_size == 100);
  c.reset();
  CHECK(c.journal().empty());
}
