// Saving a session as a scenario: what a user did in the window (fills, runs paused by hand,
// traced steps, rehashes, workload changes in between) is written as a scenario that parses and,
// played back on a new table, makes the same table: the same capacity and the same pairs.
#include <algorithm>
#include <thread>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/scenario/scenario.hpp"
#include "app/scenario/scenario_writer.hpp"
#include "app/session/session.hpp"
#include "app/ui/family_views/family_ui.hpp"

using namespace hs;
using namespace hs::app;

namespace {

std::vector<std::pair<key_type, value_type>> pairs_of(session& s) {
  table& t = s.tbl();
  const std::uint64_t n = t.retrieve_all(std::span<key_type>{}, std::span<value_type>{}, {});
  std::vector<key_type> k(n);
  std::vector<value_type> v(n);
  t.retrieve_all(k, v, {});
  std::vector<std::pair<key_type, value_type>> out;
  for (std::uint64_t i = 0; i < n; ++i) out.emplace_back(k[i], v[i]);
  std::sort(out.begin(), out.end());
  return out;
}

// Plays a scenario's script to its end, stage after stage.
void play(session& s, const scenario& sc) {
  s.queue(sc.script());
  for (int stages = 0; stages < 1000; ++stages) {
    s.wait_idle();
    if (!s.status().script_held) return;
    s.continue_script();
  }
}

session_to_save to_save(const session& s, backend_choice b) {
  session_to_save out;
  out.journal = s.journal();
  out.workload = s.workload();
  out.maintenance = s.maintenance();
  out.backend = b;
  out.title = "what I did";
  return out;
}

}  // namespace

TEST_CASE("a session saved as a scenario plays back to the same table", "[scenario][save]") {
  session_config cfg;
  cfg.table.capacity = 1u << 13;
  cfg.table.linear.deletes = linear_delete_mode::tombstone;
  cfg.workload.batch_size = 512;
  cfg.workload.keys.seed = 5;
  cfg.workload.mix = {1, 0, 0, 0};
  const auto made = make_session(cfg);
  session& s = *made;
  s.fill_to(0.3);
  s.wait_idle();
  workload::workload_spec churn = s.workload();
  churn.mix = {0.5, 0.3, 0, 0.2};
  s.set_workload(churn);
  s.run();  // paused by hand after some batches, however many the worker got to
  while (s.status().batches < 12) std::this_thread::yield();
  s.pause();
  s.wait_idle();
  s.step(16);  // a traced step
  s.wait_idle();
  s.step(0);  // one batch of the mix
  s.wait_idle();
  s.rehash(1u << 14);
  s.wait_idle();
  s.fill_to(0.2);  // a drain: the load is above 0.2 by now
  s.wait_idle();
  REQUIRE(s.status().live > 0);

  const std::string text = scenario_text(to_save(s, backend_choice::cpu));
  INFO(text);
  CHECK_THAT(text, Catch::Matchers::ContainsSubstring("delete tombstone"));
  CHECK_THAT(text, Catch::Matchers::ContainsSubstring("step 16"));
  CHECK_THAT(text, Catch::Matchers::ContainsSubstring("rehash 2^14"));
  CHECK_THAT(text, Catch::Matchers::ContainsSubstring("# the settings from here on"));
  const scenario sc = parse_scenario(text, "saved.scn");
  CHECK(sc.title == "what I did");
  CHECK(sc.config.table.capacity ==
        (1u << 13));                         // the capacity it started from, not the rehashed one
  CHECK(sc.config.workload.mix.erase == 0);  // the workload it started with

  const auto again = make_session(sc.config);
  play(*again, sc);
  INFO("played back: " << again->status().note << ", script left " << again->status().script_left);
  CHECK(again->capacity() == s.capacity());
  CHECK(again->status().live == s.status().live);
  CHECK(again->status().batches == s.status().batches);
  CHECK(pairs_of(*again) == pairs_of(s));
}

TEST_CASE(
    "a saved hive session keeps its options on the hive line; a reset starts the journal anew",
    "[scenario][save]") {
  session_config cfg;
  cfg.table.family = family::hive;
  cfg.table.capacity = 1u << 12;
  cfg.table.hive.bucket_slots = 32;
  cfg.table.hive.eviction_depth = 4;
  cfg.table.hive.instrument = true;
  cfg.workload.batch_size = 256;
  const auto made = make_session(cfg);
  session& s = *made;
  s.fill_to(0.9);
  s.wait_idle();
  s.reset();
  CHECK(s.journal().entries.empty());
  s.fill_to(0.5);
  s.wait_idle();
  const std::string text = scenario_text(to_save(s, backend_choice::cpu));
  INFO(text);
  CHECK_THAT(text, Catch::Matchers::ContainsSubstring("hive slots=32 depth=4"));
  CHECK_THAT(text, !Catch::Matchers::ContainsSubstring("fill 0.9"));
  const scenario sc = parse_scenario(text, "saved.scn");
  CHECK(sc.config.table.hive.bucket_slots == 32);
  CHECK(sc.config.table.hive.eviction_depth == 4);
  const auto again = make_session(sc.config);
  play(*again, sc);
  CHECK(again->status().live == s.status().live);
  CHECK(pairs_of(*again) == pairs_of(s));
}

TEST_CASE("workload lines after a step change the workload from that step on", "[scenario]") {
  const scenario sc = parse_scenario(
      "mix insert:1\nbatch 1k\nfill 0.5\nmix find-hit:1\nbatch 2k\nrun 3\ncapture stats\n",
      "w.scn");
  CHECK(sc.config.workload.mix.insert == 1);
  CHECK(sc.config.workload.batch_size == 1024);
  REQUIRE(sc.steps.size() == 4);
  CHECK(sc.steps[1].kind == scenario_step::configure);
  REQUIRE(sc.steps[1].configure_to);
  CHECK(sc.steps[1].configure_to->workload.mix.find_hit == 1);
  CHECK(sc.steps[1].configure_to->workload.batch_size == 2048);
  CHECK_THROWS_WITH(parse_scenario("fill 0.5\nbatch 0\ncapture stats\n", "w.scn"),
                    Catch::Matchers::ContainsSubstring("w.scn"));
}

TEST_CASE("every shipped scenario prints as lines that parse back to the same scenario",
          "[scenario]") {
  for (const std::string& name : shipped_scenarios()) {
    INFO(name);
    const scenario sc = load_scenario(name);
    const std::string text = print_scenario(sc);
    INFO(text);
    const scenario again = parse_scenario(text, name + ".scn");
    CHECK(print_scenario(again) == text);
    CHECK(again.steps.size() == sc.steps.size());
    CHECK(again.compare.size() == sc.compare.size());
    CHECK(again.config.table.capacity == sc.config.table.capacity);
    CHECK(again.config.workload.batch_size == sc.config.workload.batch_size);
    for (std::size_t i = 0; i < sc.steps.size() && i < again.steps.size(); ++i) {
      CHECK(again.steps[i].kind == sc.steps[i].kind);
      CHECK(again.steps[i].load == sc.steps[i].load);
      CHECK(again.steps[i].views == sc.steps[i].views);
    }
  }
}

TEST_CASE("a slab scenario's capacity need not be a power of two; open addressing's must",
          "[scenario]") {
  CHECK(parse_scenario("table slab\ncapacity 1000\ncapture chains\n", "s.scn")
            .config.table.capacity == 1000);
  CHECK_THROWS_WITH(
      parse_scenario("capacity 1000\ncapture heatmap\n", "s.scn"),
      Catch::Matchers::ContainsSubstring("s.scn:1: capacity 1,000 is not a power of two"));
  // Captures are for render: the window plays a scenario without them.
  CHECK_FALSE(parse_scenario("seed 3\nfill 0.5\n", "s.scn").captures());
  CHECK_THROWS_WITH(parse_scenario("batch 0\ncapture heatmap\n", "s.scn"),
                    Catch::Matchers::StartsWith("s.scn:1: "));
}
