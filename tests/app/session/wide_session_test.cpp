// Sessions of 64-bit keys (the linear family's key-bits 64): the workload draws keys from the whole
// 64-bit range for every distribution, a fill's keys and values are exactly the streams' first
// ones, the live count stays exact, and typed keys step as traced operations. The [gpu] cases run
// the same sessions on the GPU and compare them with the CPU model's.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/session/session.hpp"
#include "core/table/family_registry.hpp"
#include "core/workload/workload.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;

namespace {

session_config wide_config(backend b, workload::distribution d) {
  session_config c;
  c.table.backend = b;
  c.table.capacity = b == backend::gpu ? 1u << 18 : 1u << 13;
  c.table.width = key_width::bits64;
  c.workload.batch_size = b == backend::gpu ? 1u << 13 : 1u << 10;
  c.workload.keys.dist = d;
  c.workload.keys.seed = 77;
  c.workload.keys.universe = 1u << 16;
  c.workload.keys.start = std::uint64_t{1} << 40;  // sequential keys past 32 bits
  return c;
}

using pairs = std::map<std::uint64_t, std::uint64_t>;

pairs contents(table& t) {
  const std::uint64_t n = t.stats({}).live;
  std::vector<wide_key> keys(n);
  std::vector<wide_value> values(n);
  buffer<wide_key> dk(t.space(), n);
  buffer<wide_value> dv(t.space(), n);
  REQUIRE(t.retrieve_all(dk.span(), dv.span(), {}) == n);
  keys = dk.download(n);
  values = dv.download(n);
  pairs out;
  for (std::uint64_t i = 0; i < n; ++i) out[keys[i]] = values[i];
  REQUIRE(out.size() == n);  // each key once
  return out;
}

// The keys the workload's insert stream draws first, j in [first, end), with their values.
pairs stream_pairs(const workload::workload_spec& w, std::uint64_t first, std::uint64_t end) {
  const workload::zipf_sampler zipf(w.keys.zipf_s, w.keys.universe);
  pairs out;
  for (std::uint64_t j = first; j < end; ++j)
    out[workload::stream_key<wide_key>(w.keys, j, &zipf)] =
        workload::stream_value<wide_value>(w.keys, j);
  return out;
}

void check_session(session& s) {
  const session_status st = s.status();
  INFO(st.note);
  CHECK_FALSE(st.error);
  CHECK(st.live == s.tbl().stats({}).live);
  CHECK(describe(family::linear).check_invariants(s.tbl(), {}).empty());
}

}  // namespace

TEST_CASE("a 64-bit session fills with the stream's first keys and drains the oldest",
          "[session][wide]") {
  const auto dist = GENERATE(workload::distribution::uniform_unique,
                             workload::distribution::sequential, workload::distribution::clustered);
  const session_config cfg = wide_config(backend::cpu, dist);
  const std::uint64_t cap = cfg.table.capacity;
  session s(cfg);
  s.fill_to(0.5);
  s.wait_idle();
  check_session(s);
  CHECK(s.status().live == cap / 2);
  pairs now = contents(s.tbl());
  CHECK(now == stream_pairs(cfg.workload, 0, cap / 2));
  // Keys of 64 bits: nearly every random key, and every sequential one from 2^40, is past 32.
  const auto wide = std::count_if(now.begin(), now.end(), [](auto& p) { return p.first >> 32; });
  CHECK(wide >= static_cast<long>(now.size() * 9 / 10));
  s.fill_to(0.2);  // erases retire the oldest keys
  s.wait_idle();
  check_session(s);
  CHECK(contents(s.tbl()) == stream_pairs(cfg.workload, cap / 2 - cap / 5, cap / 2));
}

TEST_CASE("64-bit sessions of repeating keys keep the live count exact in mixed batches",
          "[session][wide]") {
  const auto dist =
      GENERATE(workload::distribution::uniform_dup, workload::distribution::zipf,
               workload::distribution::uniform_unique, workload::distribution::sequential);
  session_config cfg = wide_config(backend::cpu, dist);
  cfg.workload.mix = {0.4, 0.3, 0.1, 0.2};
  session s(cfg);
  s.queue({{script_step::fill, 0.3, 0}, {script_step::run, 0, 10}});
  s.wait_idle();
  check_session(s);
  CHECK(s.status().batches >= 10);
  // Every live key is one the stream can draw: from the universe's permuted indices.
  const workload::zipf_sampler zipf(cfg.workload.keys.zipf_s, cfg.workload.keys.universe);
  std::map<std::uint64_t, bool> drawable;
  for (std::uint64_t j = 0; j < 1u << 15; ++j)
    drawable[workload::stream_key<wide_key>(cfg.workload.keys, j, &zipf)] = true;
  for (const auto& [k, v] : contents(s.tbl())) {
    CHECK(drawable.count(k));
    CHECK(v >> 32);  // 64-bit values too, a handful excepted by chance
    if (!(v >> 32)) break;
  }
}

TEST_CASE("typed 64-bit keys step as traced operations; a 32-bit table refuses them",
          "[session][wide]") {
  session s(wide_config(backend::cpu, workload::distribution::uniform_unique));
  s.fill_to(0.3);
  s.wait_idle();
  const std::uint64_t k = 0x1234567890abcdefull, twin = 0x2234567890abcdefull;  // low halves equal
  s.step({typed_op(op_kind::insert, k), typed_op(op_kind::insert, twin)});
  s.wait_idle();
  auto t = s.last_step();
  REQUIRE(t);
  REQUIRE(t->ops.size() == 2);
  for (const stepped_op& op : t->ops) {
    CHECK(op.status == op_status::inserted);
    REQUIRE(op.slot_after);
    const table_config c = s.tbl().config();
    inspect_request ir;  // the slot the step says it landed in holds the whole key
    ir.dump_first = *op.slot_after;
    ir.dump_count = 1;
    inspect_result r;
    s.tbl().inspect(ir, r, {});
    REQUIRE(r.slots.size() == 1);
    CHECK(r.slots[0].key == op.key);
    CHECK(r.slots[0].value == op.value);
    CHECK(bits_of(c.width) == 64);
  }
  s.step({typed_op(op_kind::find, twin)});
  s.wait_idle();
  t = s.last_step();
  REQUIRE(t);
  REQUIRE(t->ops.size() == 1);
  CHECK(t->ops[0].key == twin);
  CHECK(t->ops[0].status == op_status::found);
  CHECK(t->ops[0].result == typed_op(op_kind::insert, twin).value);
  REQUIRE_FALSE(t->ops[0].probe_before.empty());
  CHECK(t->ops[0].probe_before.back().key == twin);  // the walk ends at the key
  CHECK(contents(s.tbl()).count(k));
  CHECK_THROWS_WITH(s.step({typed_op(op_kind::insert, key_limits<wide_key>::tombstone)}),
                    ContainsSubstring("is a reserved key"));

  session_config narrow = wide_config(backend::cpu, workload::distribution::uniform_unique);
  narrow.table.width = key_width::bits32;
  narrow.workload.keys.start = 0;
  session n(narrow);
  CHECK_THROWS_WITH(n.step({typed_op(op_kind::insert, k)}),
                    ContainsSubstring("it holds 32-bit keys"));
  CHECK(n.status().operations == 0);
}

TEST_CASE("a 64-bit GPU session matches the CPU model's", "[gpu][session][wide]") {
  test::require_gpu();
  const auto dist =
      GENERATE(workload::distribution::uniform_unique, workload::distribution::clustered,
               workload::distribution::uniform_dup);
  const auto deletes = GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  std::map<backend, pairs> got;
  for (const backend b : {backend::gpu, backend::cpu}) {
    session_config cfg = wide_config(backend::gpu, dist);
    cfg.table.backend = b;
    cfg.table.linear.deletes = deletes;
    cfg.workload.mix = {0.4, 0.3, 0.1, 0.2};
    session s(cfg);
    // Unique keys decide the same in any order: fresh inserts, erases of earlier batches' keys.
    s.queue({{script_step::fill, 0.4, 0}, {script_step::run, 0, 6}, {script_step::fill, 0.2, 0}});
    s.wait_idle();
    check_session(s);
    got[b] = contents(s.tbl());
  }
  // Repeating keys may end otherwise: batches in flight race for the same keys, and a fill plans
  // its batches from what has retired; check_session held each to its invariants and live count.
  if (dist != workload::distribution::uniform_dup) CHECK(got[backend::gpu] == got[backend::cpu]);
}

TEST_CASE(
    "a 64-bit session takes a key file's 64-bit keys in file order; a 32-bit one refuses "
    "the file read for 64 bits",
    "[session][wide][keys]") {
  const auto path = std::filesystem::temp_directory_path() / "hs_wide_session_keys.txt";
  {
    std::ofstream out(path);
    for (std::uint64_t i = 0; i < 4096; ++i)
      out << "0x" << std::hex << (0xabc0000000000ull + i * 0x100000001ull) << "\n";
  }
  workload::key_file_spec spec{path.string()};
  spec.width = key_width::bits64;
  session_config cfg = wide_config(backend::cpu, workload::distribution::file);
  cfg.workload.key_file = workload::load_key_file(spec);
  session s(cfg);
  s.fill_to(0.25);
  s.wait_idle();
  check_session(s);
  const pairs now = contents(s.tbl());
  REQUIRE(now.size() == cfg.table.capacity / 4);
  for (std::uint64_t i = 0; i < now.size(); ++i)
    CHECK(now.count(0xabc0000000000ull + i * 0x100000001ull));
  cfg.table.width = key_width::bits32;
  cfg.workload.keys.start = 0;
  CHECK_THROWS_WITH(session(cfg), ContainsSubstring("was read for 64-bit keys, and this table "
                                                    "holds 32-bit keys"));
  std::filesystem::remove(path);
}
