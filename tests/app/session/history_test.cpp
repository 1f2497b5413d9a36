// Back and Forward on the session (history.hpp), every family on the CPU model (GPU twins in
// gpu_history_test.cpp): Back restores the table, the counts and the plots' records as they were
// before the commands it undoes, Forward replays them to the same table, a scenario's `back` does
// it from a script, and what cannot be undone is refused with nothing changed.
#include <filesystem>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/scenario/scenario.hpp"
#include "app/session/session.hpp"
#include "core/common/error.hpp"
#include "tests/app/session/history_check.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("Back and Forward restore and replay every family's table", "[session][history]") {
  for (family f : {family::linear, family::slab, family::hive})
    test::check_back_and_forward(f, backend::cpu);
}

TEST_CASE("Back and Forward refuse what cannot be undone, changing nothing", "[session][history]") {
  session_config c;
  c.table.backend = backend::cpu;
  c.table.capacity = 1u << 12;
  c.workload.batch_size = 512;
  session s(c);
  s.wait_idle();
  CHECK_THROWS_WITH(s.back(), ContainsSubstring("nothing to undo"));
  CHECK_THROWS_WITH(s.forward(), ContainsSubstring("nothing to redo"));
  s.fill_to(0.3);
  s.wait_idle();
  s.fill_to(0.5);
  s.wait_idle();
  const auto before = test::table_now(s);
  CHECK_THROWS_WITH(s.back(5), ContainsSubstring("only 2 commands can be undone"));
  CHECK(test::table_now(s) == before);
  s.back(2);
  CHECK_THROWS_WITH(s.forward(3), ContainsSubstring("only 2 commands"));
  CHECK(s.history().redo == 2);
  // A new command forgets what Back undid.
  s.fill_to(0.1);
  s.wait_idle();
  CHECK(s.history().redo == 0);
  CHECK_THROWS_WITH(s.forward(), ContainsSubstring("nothing to redo"));
}

TEST_CASE("A scenario's back takes the table back; back with nothing to undo is refused",
          "[session][history][scenario]") {
  const scenario sc = parse_scenario(
      "table linear\ncapacity 4096\nbackend cpu\nbatch 512\nfill 0.3\ncapture stats\n"
      "fill 0.6\nstep insert 12 76 140\nback 2\ncapture stats\n",
      "lesson.hsc");
  session_config c;
  c.table = sc.config.table;
  c.workload = sc.config.workload;
  session s(c);
  s.queue(sc.script());
  s.wait_idle();  // held at the first capture
  const auto at_first = test::table_now(s);
  s.continue_script();
  s.wait_idle();
  CHECK(test::table_now(s) == at_first);
  CHECK(s.history().redo == 2);  // the fill and the step, for Forward

  CHECK_THROWS_WITH(parse_scenario("table linear\nback\nfill 0.5\n", "early.hsc"),
                    ContainsSubstring("early.hsc:2") && ContainsSubstring("no command before"));
  CHECK_THROWS_WITH(parse_scenario("table linear\nfill 0.5\nfill 0.6\nback 5\n", "many.hsc"),
                    ContainsSubstring("many.hsc:4") && ContainsSubstring("only 2 commands"));
}

TEST_CASE("Back then Step runs the same inserts again; the CPU model's run never differs",
          "[session][history]") {
  session_config c;
  c.table.backend = backend::cpu;
  c.table.capacity = 1u << 12;
  c.table.hash = hash_kind::identity;
  session s(c);
  std::vector<given_op> racing;  // 64 keys with home slot 5
  for (key_type i = 0; i < 64; ++i) racing.push_back(typed_op(op_kind::insert, 5 + 4096 * i));
  s.step(racing);
  s.wait_idle();
  const auto first = s.last_step();
  REQUIRE(first);
  CHECK(first->run == 1);
  for (std::size_t i = 0; i < 64; ++i) {
    INFO("insert " << i);
    CHECK(first->ops[i].slot_after == std::optional<std::uint64_t>(5 + i));  // in batch order
  }
  s.back();
  s.step(racing);
  s.wait_idle();
  const auto second = s.last_step();
  CHECK(second->run == 2);
  CHECK(second->changed == 0);
  CHECK(second->ops[63].slot_last_run == std::optional<std::uint64_t>(68));
  // Other operations, or the same ones at another point, are a first run.
  s.step(racing);
  s.wait_idle();
  CHECK(s.last_step()->run == 1);
}

TEST_CASE("The history keeps what its budget holds, and says from where Back is unavailable",
          "[session][history]") {
  session_config c;
  c.table.backend = backend::cpu;
  c.table.capacity = 1u << 12;  // a state of 32 KiB
  c.workload.batch_size = 256;
  c.history_budget = 3 * (std::uint64_t{1} << 15);
  session s(c);
  for (double load : {0.1, 0.2, 0.3, 0.4}) {
    s.fill_to(load);
    s.wait_idle();
  }
  const session::history_view h = s.history();
  CHECK(h.marks.size() == 2);  // three states: the two before the last commands, and now
  CHECK_THAT(h.limit, ContainsSubstring("keeps the last 3 states"));
  CHECK_THROWS_WITH(s.back(3), ContainsSubstring("only 2 commands") &&
                                   ContainsSubstring("keeps the last 3 states"));
  s.back(2);
  CHECK(s.status().live == static_cast<std::uint64_t>(0.2 * 4096));

  c.history_budget = 1u << 14;  // less than one state: Back is off, and says so
  session small(c);
  small.fill_to(0.3);
  small.wait_idle();
  CHECK(small.history().off);
  CHECK_THROWS_WITH(small.back(), ContainsSubstring("Back is off for this table"));
  CHECK(small.status().live == static_cast<std::uint64_t>(0.3 * 4096));
}

TEST_CASE("A table opened from a file, or reset, is a state the next command can go back to",
          "[session][history]") {
  session_config c;
  c.table.backend = backend::cpu;
  c.table.capacity = 1u << 12;
  c.workload.batch_size = 256;
  session s(c);
  s.fill_to(0.4);
  s.wait_idle();
  const auto path = (std::filesystem::temp_directory_path() / "hs_history_open.hstable").string();
  s.save_table(path);
  const auto saved = test::table_now(s).pairs;
  s.reset();
  s.fill_to(0.1);  // the first command after a reset
  s.wait_idle();
  s.back();
  CHECK(s.status().live == 0);
  s.load_table(path);
  CHECK(test::table_now(s).pairs == saved);
  s.fill_to(0.7);  // the first command after the file was opened
  s.wait_idle();
  s.back();
  CHECK(test::table_now(s).pairs == saved);
}
