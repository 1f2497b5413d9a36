// A traced step's replay (core/hive/hive_trace.hpp) against the table that ran it: each
// operation's candidate buckets are read before the step (the family's trace_before), the step
// runs, and the replay must agree with every status the table reported; on the CPU model, which
// applies operations in batch order as the replay does, each insert must sit in the slot the
// replay says and each hit return the value the replay read. The GPU table runs a step's
// operations at once, so there the steps hold distinct keys and the key is checked in its bucket.
#include <algorithm>
#include <random>

#include <catch2/catch_test_macros.hpp>

#include "core/hive/hive_trace.hpp"
#include "core/table/family_registry.hpp"
#include "tests/core/hive/hive_test_support.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;

namespace {

struct replayed {
  step_trace step;
  std::vector<hive::op_trace> ops;
};

replayed run_step(table& t, const table_config& cfg, const std::vector<op_kind>& kinds,
                  const std::vector<key_type>& keys, const std::vector<value_type>& values) {
  replayed r;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    stepped_op op;
    op.kind = kinds[i];
    op.key = keys[i];
    op.value = values[i];
    describe(family::hive).trace_before(t, cfg, t.capacity(), op, {});
    r.step.ops.push_back(std::move(op));
  }
  const test::bulk_out out = test::apply(t, kinds, keys, values);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    r.step.ops[i].status = out.status[i];
    r.step.ops[i].result = out.values[i];
  }
  r.ops = hive::replay_step(r.step, test::hive_of(t).recent_paths({}));
  return r;
}

// Every status agrees; inserts sit where the replay put them (in that slot when `exact`).
void check(table& t, const replayed& r, bool exact) {
  const hive::hive_image img = test::hive_of(t).snapshot({});
  bool evicted = false;
  for (const hive::op_trace& o : r.ops) evicted |= o.path.has_value();
  for (std::size_t i = 0; i < r.ops.size(); ++i) {
    const stepped_op& op = r.step.ops[i];
    const hive::op_trace& o = r.ops[i];
    CAPTURE(i, op.key, to_string(op.kind), to_string(op.status), hive::to_string(o.pass));
    REQUIRE(op.hive_before);
    CHECK(o.agrees);
    CHECK(!o.reads.empty());
    if (op.kind == op_kind::find && op.status == op_status::found && !o.stash_position) {
      REQUIRE(o.decided >= 0);
      CHECK(op.result == hive::value_of(o.reads[static_cast<std::size_t>(o.decided)]
                                            .words[static_cast<std::size_t>(o.slot)]));
    }
    const bool placed = o.step == hive::insert_step::claim || o.step == hive::insert_step::replace;
    if (op.kind == op_kind::insert && placed && !o.stash_position && !evicted) {
      const auto b = hive::decided_bucket(o);
      REQUIRE(b);
      const hive::word_type* words = img.bucket(*b);
      CAPTURE(*b, o.slot, o.placement, o.reads.size());
      if (exact)
        CHECK(hive::key_of(words[o.slot]) == op.key);
      else
        CHECK(std::any_of(words, words + img.slots,
                          [&](hive::word_type w) { return hive::key_of(w) == op.key; }));
    }
  }
}

// A table half full, then steps of every kind: new keys, present keys (replaced, found, erased),
// absent keys; then nearly full, a step of new keys (evictions).
void exercise(backend b, bool exact) {
  table_config cfg = test::hive_config(b, 1u << 12, 16, 4, {}, 8);
  cfg.hive.auto_resize = false;  // a resize inside a step moves keys the replay cannot follow
  cfg.hive.instrument = true;    // the eviction paths (the app always records them)
  auto t = describe(family::hive).make(cfg);
  const auto keys = test::random_keys(4000, 7);
  const auto values = test::random_values(4000, 8);
  std::vector<key_type> first(keys.begin(), keys.begin() + 2048);
  test::insert(*t, first, std::vector<value_type>(values.begin(), values.begin() + 2048));
  std::vector<op_kind> kinds;
  std::vector<key_type> step_keys;
  std::vector<value_type> step_values;
  const auto add = [&](op_kind k, key_type key, value_type v) {
    kinds.push_back(k), step_keys.push_back(key), step_values.push_back(v);
  };
  for (int i = 0; i < 16; ++i) add(op_kind::insert, keys[3000 + i], values[3000 + i]);
  for (int i = 0; i < 8; ++i) add(op_kind::insert, keys[i], 77u + i);  // replaced
  for (int i = 0; i < 16; ++i) add(op_kind::find, keys[100 + i], k_empty);
  for (int i = 0; i < 8; ++i) add(op_kind::find, keys[3500 + i], k_empty);  // absent
  for (int i = 0; i < 16; ++i) add(op_kind::erase, keys[200 + i], k_empty);
  const replayed r = run_step(*t, cfg, kinds, step_keys, step_values);
  check(*t, r, exact);
  std::set<hive::kernel_pass> passes;
  for (const auto& o : r.ops) passes.insert(o.pass);
  CHECK(passes.count(hive::kernel_pass::first));  // every kind's common case

  // Nearly full: steps of new keys until one evicts.
  std::vector<key_type> more(keys.begin() + 2048, keys.begin() + 2048 + 1750);
  test::insert(*t, more, std::vector<value_type>(more.size(), 5u));
  bool evicted = false;
  for (int s = 0; s < 6 && !evicted; ++s) {
    std::vector<key_type> nk;
    for (int i = 0; i < 32; ++i) nk.push_back(keys[3700 + 32 * s + i] ^ 0x5a5a5a5au);
    nk.erase(std::remove_if(nk.begin(), nk.end(), is_reserved_key), nk.end());
    const replayed e = run_step(*t, cfg, std::vector<op_kind>(nk.size(), op_kind::insert), nk,
                                std::vector<value_type>(nk.size(), 9u));
    check(*t, e, exact);
    for (const auto& o : e.ops) evicted |= o.path.has_value();
  }
  CHECK(evicted);
}

}  // namespace

TEST_CASE("hive: a traced step's replay agrees with the CPU model, slot for slot",
          "[hive][trace]") {
  exercise(backend::cpu, true);
}

TEST_CASE("hive: a traced step's replay agrees with the GPU table", "[gpu][hive][trace]") {
  test::require_gpu();
  exercise(backend::gpu, false);
}
