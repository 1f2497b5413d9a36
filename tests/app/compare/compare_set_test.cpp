// Compare mode's tables: entries with their options, clear refusals, the memory check before any
// table is made, and every command reaching every table.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/compare/compare_set.hpp"
#include "app/scenario/scenario.hpp"
#include "app/ui/state/compare_view.hpp"
#include "core/common/error.hpp"
#include "core/table/family_registry.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("compare entries: a family with :name=value options of its own", "[compare]") {
  table_config base;
  base.capacity = 1u << 12;
  const compare_entry a = parse_compare_entry("linear:hash=identity:delete=tombstone", base);
  CHECK(a.label == "linear:hash=identity:delete=tombstone");
  CHECK(a.table.family == family::linear);
  CHECK(a.table.hash == hash_kind::identity);
  CHECK(a.table.linear.deletes == linear_delete_mode::tombstone);
  const compare_entry h = parse_compare_entry("hive:slots=32:depth=4:capacity=2^14", base);
  CHECK(h.table.hive.bucket_slots == 32);
  CHECK(h.table.hive.eviction_depth == 4);
  CHECK(h.table.capacity == (1u << 14));
  CHECK(h.table.hive.instrument);  // as the hive's views want it
  CHECK(parse_compare_entry("slab:mode=multi", base).table.slab.mode == slab_mode::multi);
  CHECK_THROWS_WITH(parse_compare_entry("robin", base),
                    ContainsSubstring("unknown table family 'robin'"));
  CHECK(parse_compare_entry("linear:probe=double", base).table.linear.probe ==
        probe_policy::double_hash);
  CHECK_THROWS_WITH(parse_compare_entry("linear:slots=16", base),
                    ContainsSubstring("no option 'slots'"));
  CHECK_THROWS_WITH(parse_compare_entry("hive:probe=double", base),
                    ContainsSubstring("the hive family has no option 'probe'"));
  CHECK_THROWS_WITH(parse_compare_entry("hive:slots=12", base),
                    ContainsSubstring("unknown slots per bucket '12' (8, 16, 32)"));
  CHECK_THROWS_WITH(parse_compare_entry("hive:depth=40", base),
                    ContainsSubstring("eviction depth must be a whole number from 0 to 32"));
  CHECK_THROWS_WITH(parse_compare_entry("slab:mode", base),
                    ContainsSubstring("should be name=value"));
}

TEST_CASE(
    "a compare entry takes the scenario's table settings of its own family and ignores another's",
    "[compare]") {
  table_config base;  // a scenario's table line: linear with double hashing, tombstones
  base.capacity = 1u << 12;
  base.linear.probe = probe_policy::double_hash;
  base.linear.deletes = linear_delete_mode::tombstone;
  const compare_entry lin = parse_compare_entry("linear", base);
  CHECK(lin.table.linear.probe == probe_policy::double_hash);  // the scenario's, for its own family
  CHECK(parse_compare_entry("linear:probe=linear", base).table.linear.probe ==
        probe_policy::linear);  // the entry's own wins
  const compare_entry hive = parse_compare_entry("hive", base);
  CHECK(hive.table.family == family::hive);
  CHECK(make_table(hive.table)->config().family ==
        family::hive);  // the linear options are not the hive's business
  CHECK(make_table(parse_compare_entry("slab", base).table)->config().family == family::slab);
}

TEST_CASE("a compare entry prints back to the text that makes it", "[compare]") {
  table_config base;
  base.capacity = 1u << 12;
  for (const char* text :
       {"linear", "linear:hash=identity:delete=tombstone", "linear:probe=double:group=auto",
        "hive:slots=32:depth=4", "hive:hashes=murmur3+city:resize=auto", "slab:mode=multi:tile=8",
        "linear:capacity=2^14", "slab:capacity=1000"}) {
    const compare_entry e = parse_compare_entry(text, base);
    const std::string back = format_compare_entry(e.table, base);
    INFO(text << " -> " << back);
    const compare_entry again = parse_compare_entry(back, base);
    CHECK(format_compare_entry(again.table, base) == back);
    for (const family_option& o : describe(e.table.family).options)
      CHECK(o.get(again.table) == o.get(e.table));
    CHECK(again.table.capacity == e.table.capacity);
    CHECK(again.table.hash == e.table.hash);
  }
  CHECK(format_compare_entry(parse_compare_entry("linear:probe=double", base).table, base) ==
        "linear:probe=double");
  CHECK(format_compare_entry(parse_compare_entry("hive", base).table, base) == "hive");
}

TEST_CASE(
    "tables that do not fit in GPU memory together are refused before any is made, saying how much "
    "is missing",
    "[compare]") {
  table_config base;
  base.backend = backend::gpu;
  base.capacity = 1u << 27;  // 1 GiB of linear slots, and 8 MiB of reach words
  const std::vector<compare_entry> two{parse_compare_entry("linear", base),
                                       parse_compare_entry("linear:hash=knuth", base)};
  CHECK_NOTHROW(check_fits_together(two, 4ull << 30));
  CHECK_THROWS_WITH(
      check_fits_together(two, 2ull << 30),
      ContainsSubstring("the 2 tables need about 2.02 GiB together, the GPU has 2.00 GiB free") &&
          ContainsSubstring("220.80 MiB missing"));
}

TEST_CASE("a compare set runs one workload on every table, and refuses fewer than 2 or more than 3",
          "[compare]") {
  session_config base;
  base.table.capacity = 1u << 12;
  base.workload.batch_size = 512;
  const auto e = [&](const char* t) { return parse_compare_entry(t, base.table); };
  CHECK_THROWS_WITH(compare_set({e("linear")}, base), ContainsSubstring("name 2 or 3 tables"));
  CHECK_THROWS_WITH(compare_set({e("linear"), e("hive"), e("slab"), e("linear")}, base),
                    ContainsSubstring("not 4"));
  compare_set set({e("linear:hash=identity"), e("linear:hash=murmur3"), e("hive")}, base);
  REQUIRE(set.size() == 3);
  set.fill_to(0.5);
  set.wait_idle();
  for (std::size_t i = 0; i < set.size(); ++i) {
    INFO(set.label(i));
    CHECK(set.at(i).status().live == 2048);
    CHECK(set.at(i).status().batches == 4);  // the same batches
  }
  CHECK(set.at(0).config().table.hash == hash_kind::identity);
  // The tables take turns through one set of turns (batch_turns_test: one holder at a time).
  REQUIRE(set.at(0).config().turns);
  for (std::size_t i = 1; i < set.size(); ++i)
    CHECK(set.at(i).config().turns == set.at(0).config().turns);
  set.queue(
      {{script_step::fill, 0.25, 0}, {script_step::pause, 0, 0}, {script_step::fill, 0.75, 0}});
  set.wait_idle();
  CHECK(set.held());
  set.continue_script();
  set.wait_idle();
  for (std::size_t i = 0; i < set.size(); ++i) CHECK(set.at(i).status().live == 3072);
  set.reset();
  for (std::size_t i = 0; i < set.size(); ++i) CHECK(set.at(i).status().live == 0);
  CHECK(set.error().empty());
}

TEST_CASE("a compare scenario names its tables; a broken one is refused with file and line",
          "[compare][scenario]") {
  const scenario sc = parse_scenario(
      "capacity 2^12\ncompare linear:hash=identity hive\nfill 0.5\ncapture compare\n", "c.scn");
  REQUIRE(sc.compare.size() == 2);
  CHECK(sc.compare[0].table.hash == hash_kind::identity);
  CHECK(sc.compare[1].table.family == family::hive);
  CHECK(sc.compare[1].table.capacity == (1u << 12));
  CHECK_THROWS_WITH(parse_scenario("compare linear\ncapture compare\n", "c.scn"),
                    ContainsSubstring("c.scn:1: usage: compare"));
  CHECK_THROWS_WITH(parse_scenario("compare linear hive slab linear\ncapture compare\n", "c.scn"),
                    ContainsSubstring("c.scn:1: usage: compare"));
  CHECK_THROWS_WITH(parse_scenario("compare linear cuckoo\ncapture compare\n", "c.scn"),
                    ContainsSubstring("c.scn:1: compare: unknown table family 'cuckoo'"));
  CHECK_THROWS_WITH(
      parse_scenario("compare linear hive\ncapture heatmap\n", "c.scn"),
      ContainsSubstring("c.scn:2: a compare scenario captures 'compare' figures only"));
  CHECK_THROWS_WITH(parse_scenario("capture compare\n", "c.scn"),
                    ContainsSubstring("needs a 'compare TABLE TABLE' line"));
}

TEST_CASE(
    "[gpu] a compare set of GPU tables runs one workload on each, and each keeps its invariants",
    "[compare][gpu]") {
  test::require_gpu();
  session_config base;
  base.table.backend = backend::gpu;
  base.table.capacity = 1u << 20;
  base.workload.batch_size = 1u << 16;
  const auto e = [&](const char* t) { return parse_compare_entry(t, base.table); };
  compare_set set({e("linear"), e("linear:probe=double"), e("hive")}, base);
  set.fill_to(0.9);
  set.wait_idle();
  for (std::size_t i = 0; i < set.size(); ++i) {
    INFO(set.label(i));
    CHECK(set.at(i).status().live == static_cast<std::uint64_t>(0.9 * (1u << 20)));
    CHECK(set.at(i).tbl().stats({}).live == set.at(i).status().live);
    CHECK(describe(set.at(i).config().table.family).check_invariants(set.at(i).tbl(), {}) == "");
  }
  CHECK(set.error().empty());
}

TEST_CASE("a small table's compare heatmap is a grid of about square cells, a large one pixels",
          "[compare]") {
  const auto [cols, rows] = occupancy_grid(512, 680, 160);
  CHECK(std::uint64_t{cols} * rows >= 512);       // every slot a cell
  CHECK(std::uint64_t{cols} * (rows - 1) < 512);  // no empty row
  const double cell_w = 680.0 / cols, cell_h = 160.0 / rows;
  CHECK(cell_w / cell_h > 0.8);
  CHECK(cell_w / cell_h < 1.25);
  CHECK(occupancy_grid(1u << 20, 680, 160) == std::pair<std::uint32_t, std::uint32_t>{680, 160});
  CHECK(occupancy_grid(3, 680, 160).first <= 3);
}
