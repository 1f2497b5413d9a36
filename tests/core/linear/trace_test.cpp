// Step mode for linear probing: the slots captured from an operation's home slot on, and the walk
// replayed on them, agree with where the table (model, and [gpu] the GPU table) put or found the
// key; in tombstone mode an insert walks past the first tombstone to its key or an empty slot.
#include <algorithm>

#include <catch2/catch_test_macros.hpp>

#include "core/linear/linear_trace.hpp"
#include "core/table/family_registry.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using namespace hs::linear;

namespace {

// Traces `op` on table t as a session's step would (the family's trace_before), then runs it.
probe_walk traced(table& t, stepped_op op) {
  const table_config cfg = t.config();
  describe(family::linear).trace_before(t, cfg, cfg.capacity, op, {});
  std::vector<op_status> st;
  if (op.kind == op_kind::insert)
    st = test::insert(t, {op.key}, {op.value});
  else if (op.kind == op_kind::find)
    st = test::find(t, {op.key}).status;
  else
    st = test::erase(t, {op.key});
  return replay_walk(op.probe_before, op.kind, op.key, st[0], t.config().linear.deletes,
                     op.probe_truncated);
}

stepped_op op_of(op_kind k, key_type key, value_type v = 1) {
  stepped_op op;
  op.kind = k;
  op.key = key;
  op.value = v;
  return op;
}

// Keys 5, 21, 37, 53 share home slot 5 of 16 under the identity hash: a run over slots 5..8.
std::unique_ptr<table> run_of_four(backend b, linear_delete_mode mode) {
  table_config cfg;
  cfg.backend = b;
  cfg.capacity = 16;
  cfg.hash = hash_kind::identity;
  cfg.linear.deletes = mode;
  auto t = make_table(cfg);
  test::insert(*t, {5, 21, 37, 53}, {50, 210, 370, 530});
  return t;
}

void value_insert_claims_first_empty(backend b) {
  auto t = run_of_four(b, linear_delete_mode::value);
  const probe_walk w = traced(*t, op_of(op_kind::insert, 69));  // home 5
  REQUIRE(w.cells.size() == 5);
  CHECK(w.cells.front().slot == 5);
  CHECK(w.cells[3].role == walk_role::passed);
  CHECK(w.cells[4].role == walk_role::claimed);
  CHECK(w.decided == 9u);
  CHECK(test::find(*t, {69}).status[0] == op_status::found);
}

void find_walks_to_key_or_empty(backend b) {
  auto t = run_of_four(b, linear_delete_mode::value);
  const probe_walk hit = traced(*t, op_of(op_kind::find, 37));
  CHECK(hit.cells.size() == 3);
  CHECK(hit.cells.back().role == walk_role::found);
  CHECK(hit.decided == 7u);
  const probe_walk miss = traced(*t, op_of(op_kind::find, 85));
  CHECK(miss.cells.size() == 5);
  CHECK(miss.cells.back().role == walk_role::stop_empty);
  CHECK_FALSE(miss.decided);
}

void tombstone_insert_overwrites_its_key(backend b) {
  auto t = run_of_four(b, linear_delete_mode::tombstone);
  test::erase(*t, {21});                                             // slot 6 becomes a tombstone
  const probe_walk w = traced(*t, op_of(op_kind::insert, 53, 999));  // 53 sits in slot 8, past it
  REQUIRE(w.cells.size() == 4);
  CHECK(w.cells[1].role == walk_role::first_free);
  CHECK(w.cells[3].role == walk_role::found);
  CHECK(w.decided == 8u);
  const auto f = test::find(*t, {53});
  CHECK(f.values[0] == 999);
  const auto all = test::contents(*t);
  CHECK(std::count_if(all.begin(), all.end(), [](const auto& kv) { return kv.first == 53; }) ==
        1);  // never twice
}

void tombstone_insert_claims_first_tombstone(backend b) {
  auto t = run_of_four(b, linear_delete_mode::tombstone);
  test::erase(*t, {21});
  const probe_walk w = traced(*t, op_of(op_kind::insert, 101, 7));  // home 5, new
  REQUIRE(w.cells.size() == 5);
  CHECK(w.cells[1].role == walk_role::claimed);
  CHECK(w.cells[4].role == walk_role::stop_empty);
  CHECK(w.decided == 6u);
  CHECK(test::find(*t, {101}).values[0] == 7);
}

void walk_wraps_around(backend b) {
  table_config cfg;
  cfg.backend = b;
  cfg.capacity = 16;
  cfg.hash = hash_kind::identity;
  auto t = make_table(cfg);
  test::insert(*t, {14, 30, 46}, {1, 2, 3});  // home 14: slots 14, 15, 0
  const probe_walk w = traced(*t, op_of(op_kind::insert, 62));
  REQUIRE(w.cells.size() == 4);
  CHECK(w.cells[2].slot == 0);
  CHECK(w.cells[3].role == walk_role::claimed);
  CHECK(w.decided == 1u);
  // A full table: a new key's walk reads every slot once, ends failed_full, and is complete.
  std::vector<key_type> fill;
  for (key_type k = 100; fill.size() < 12; ++k) fill.push_back(k);
  test::insert(*t, fill, std::vector<value_type>(fill.size(), 9));
  REQUIRE(t->stats({}).occupied == 16);
  stepped_op op = op_of(op_kind::insert, 999);
  describe(family::linear).trace_before(*t, t->config(), 16, op, {});
  CHECK(op.probe_before.size() == 16);
  CHECK_FALSE(op.probe_truncated);
  const probe_walk full = replay_walk(op.probe_before, op.kind, op.key, op_status::failed_full,
                                      t->config().linear.deletes);
  CHECK(full.cells.size() == 16);
  CHECK_FALSE(full.decided);
}

void check_walks(backend b) {
  SECTION("value mode: an insert walks the run and claims the first empty slot") {
    value_insert_claims_first_empty(b);
  }
  SECTION("a find walks to its key; a miss stops at the first empty slot") {
    find_walks_to_key_or_empty(b);
  }
  SECTION(
      "tombstone mode: an insert passes the first tombstone, reaches its key, and overwrites it "
      "there") {
    tombstone_insert_overwrites_its_key(b);
  }
  SECTION(
      "tombstone mode: a new key walks on to an empty slot, then claims the first tombstone it "
      "passed") {
    tombstone_insert_claims_first_tombstone(b);
  }
  SECTION("a walk wraps around the end of the table, each slot read once") { walk_wraps_around(b); }
  SECTION("a reserved key walks nothing") {
    auto t = run_of_four(b, linear_delete_mode::value);
    stepped_op op = op_of(op_kind::find, k_empty);
    CHECK(traced(*t, op).cells.empty());
  }
}

}  // namespace

TEST_CASE("a traced linear operation's walk matches where the model put or found its key",
          "[linear][trace]") {
  check_walks(backend::cpu);
}

TEST_CASE("[gpu] a traced linear operation's walk matches where the GPU table put or found its key",
          "[linear][trace][gpu]") {
  test::require_gpu();
  check_walks(backend::gpu);
}
