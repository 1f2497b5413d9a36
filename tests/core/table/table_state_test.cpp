// A table's state (table_state.hpp) and table files (table_file.hpp): every family, both
// backends. A state restores the exact table it was taken from after the table changed (another
// capacity included), a file brings it back on either backend part for part, and a bad file or a
// state of another table is refused with what is wrong, the table left as it was.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/common/error.hpp"
#include "core/hive/hive_family.hpp"
#include "core/table/family_registry.hpp"
#include "core/table/table_file.hpp"
#include "core/table/table_state.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using Catch::Matchers::ContainsSubstring;

namespace {

// A folder of this process's own: ctest -j and the sanitizer script run test programs side by
// side, and two of them writing "linear.hstable" at once read each other's files.
std::filesystem::path temp_file(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("hs_table_state_test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

std::vector<unsigned char> host_bytes(const state_part& p) {
  std::vector<unsigned char> out(p.bytes.size());
  copy_bytes(out.data(), memory_space::host, p.bytes.data(), p.bytes.space(), out.size(), {});
  synchronize({});
  return out;
}

// Every part both states have holds the same bytes (the GPU's linear state adds its reach words).
void check_same_parts(const table_state& a, const table_state& b) {
  for (const state_part& p : a.parts) {
    const state_part* q = b.find(p.name);
    if (!q) continue;
    INFO("part " << p.name);
    CHECK(host_bytes(p) == host_bytes(*q));
  }
  CHECK(a.find(a.parts.front().name));
}

struct stats_view {
  std::uint64_t capacity, live, erased, tombstones, occupied, failed_full, rejected_total;
  bool operator==(const stats_view&) const = default;
};
stats_view view_of(const table_stats& s) {
  return {s.capacity, s.live,        s.erased,          s.tombstones,
          s.occupied, s.failed_full, s.rejected_total()};
}

// Work that leaves every kind of mark: live keys, erased ones, refused inserts, and for the
// hive a split round.
void churn(table& t, std::uint64_t seed, std::size_t n) {
  if (auto* h = hive::as_hive(t)) h->expand(3, {});  // before the inserts: it drains the stash
  const auto keys = test::random_keys(n, seed);
  test::insert(t, keys, test::random_values(n, seed + 1));
  test::erase(t, std::vector<key_type>(keys.begin(), keys.begin() + n / 4));
  test::insert(t, {k_empty, 5}, {1, k_empty});  // refused: a reserved key, a reserved value
}

void check_round_trip(table_config cfg) {
  INFO(describe_config(cfg) << (cfg.backend == backend::gpu ? " on the GPU" : " on the CPU"));
  auto t = make_table(cfg);
  const bool to_stash = cfg.family == family::hive && cfg.hive.eviction_depth == 0;
  churn(*t, 11, to_stash ? t->capacity() * 9 / 10 : t->capacity() / 2);
  const table_state st = t->save_state({});
  const auto before = test::contents(*t);
  const stats_view stats_before = view_of(t->stats({}));
  REQUIRE(before.size() > 100);
  if (to_stash) REQUIRE(t->stats({}).hive.stash_live > 0);

  // Changed every way: more keys, and another capacity.
  churn(*t, 99, t->capacity() / 4);
  if (!hive::as_hive(*t)) t->rehash(t->capacity() * 2, {});
  REQUIRE(test::contents(*t) != before);
  t->restore_state(st, {});
  CHECK(test::contents(*t) == before);
  CHECK(view_of(t->stats({})) == stats_before);
  CHECK(describe(cfg.family).check_invariants(*t, {}).empty());

  // A file brings it back on the CPU, part for part, and it works on from there like the table.
  const auto path = temp_file(std::string(to_string(cfg.family)) + ".hstable").string();
  save_table(*t, path, {});
  auto opened = open_table(path, backend::cpu, {});
  CHECK(test::contents(*opened) == before);
  CHECK(view_of(opened->stats({})) == stats_before);
  check_same_parts(opened->save_state({}), st);
  const auto more = test::random_keys(64, 7);
  test::insert(*opened, more, test::random_values(64, 8));
  test::insert(*t, more, test::random_values(64, 8));
  CHECK(test::contents(*opened) == test::contents(*t));
}

std::vector<table_config> configs(backend b) {
  std::vector<table_config> out;
  for (family f : {family::linear, family::slab, family::hive}) {
    table_config c;
    c.family = f;
    c.backend = b;
    c.capacity = 1u << 12;
    out.push_back(c);
  }
  table_config tomb = out[0];
  tomb.linear.deletes = linear_delete_mode::tombstone;
  tomb.linear.probe = probe_policy::double_hash;
  out.push_back(tomb);
  table_config multi = out[1];
  multi.slab.mode = slab_mode::multi;
  out.push_back(multi);
  table_config full_hive = out[2];  // small buckets, no evictions: the stash takes keys too
  full_hive.hive.bucket_slots = 8;
  full_hive.hive.eviction_depth = 0;
  out.push_back(full_hive);
  return out;
}

void write_bytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}
std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("A state restores the table it was taken from; a file opens it on the CPU",
          "[table][state]") {
  for (const table_config& c : configs(backend::cpu)) check_round_trip(c);
}

TEST_CASE("GPU tables restore their states and open on the CPU part for part", "[table][gpu]") {
  test::require_gpu();
  for (const table_config& c : configs(backend::gpu)) check_round_trip(c);
}

TEST_CASE("A CPU model's file opens as a GPU table with every slot the same", "[table][gpu]") {
  test::require_gpu();
  for (table_config c : configs(backend::cpu)) {
    INFO(describe_config(c));
    auto model = make_table(c);
    churn(*model, 5, model->capacity() / 2);
    const auto path = temp_file("from-cpu.hstable").string();
    save_table(*model, path, {});
    auto gpu = open_table(path, backend::gpu, {});
    CHECK(test::contents(*gpu) == test::contents(*model));
    check_same_parts(model->save_state({}), gpu->save_state({}));
    CHECK(describe(c.family).check_invariants(*gpu, {}).empty());
  }
}

TEST_CASE("Bad table files and other tables' states are refused, the table unchanged",
          "[table][state]") {
  table_config cfg;
  cfg.family = family::linear;
  cfg.capacity = 1u << 10;
  auto t = make_table(cfg);
  churn(*t, 3, 300);
  const auto path = temp_file("good.hstable").string();
  save_table(*t, path, {});
  const std::vector<char> good = read_bytes(path);
  const auto before = test::contents(*t);
  const auto refused = [&](const std::vector<char>& bytes, const std::string& why) {
    const auto bad = temp_file("bad.hstable").string();
    write_bytes(bad, bytes);
    CHECK_THROWS_WITH(open_table(bad, backend::cpu, {}),
                      ContainsSubstring(bad) && ContainsSubstring(why));
  };
  refused(std::vector<char>(good.begin(), good.begin() + long(good.size()) / 2), "truncated");
  std::vector<char> flipped = good;
  flipped[good.size() - 100] ^= 0x10;
  refused(flipped, "checksum");
  std::string text(good.begin(), good.end());
  text.replace(text.find("version 1"), 9, "version 7");
  refused({text.begin(), text.end()}, "format version 7");
  refused({'n', 'o', 't', ' ', 'a', ' ', 't', 'a', 'b', 'l', 'e'}, "not a HashScope table file");
  const std::string huge =
      "HSTABLE\nversion 1\nfamily linear\npart slots 18446744073709551615\n"
      "part reach 8\n\n";  // sizes whose sum wraps
  refused({huge.begin(), huge.end()}, "truncated");
  CHECK_THROWS_WITH(open_table(temp_file("missing.hstable").string(), backend::cpu, {}),
                    ContainsSubstring("cannot open"));

  // Another family's, or another delete mode's, state: refused before anything changes.
  table_config hive_cfg = cfg;
  hive_cfg.family = family::hive;
  auto other = make_table(hive_cfg);
  CHECK_THROWS_WITH(t->restore_state(other->save_state({}), {}),
                    ContainsSubstring("hive") && ContainsSubstring("linear"));
  table_config tomb = cfg;
  tomb.linear.deletes = linear_delete_mode::tombstone;
  CHECK_THROWS_WITH(t->restore_state(make_table(tomb)->save_state({}), {}),
                    ContainsSubstring("delete=tombstone"));
  CHECK(test::contents(*t) == before);

  // A slab table's pool has the shape of the size it was made at: a state of one made smaller
  // is refused by a larger one, saying why.
  table_config slab_small;
  slab_small.family = family::slab;
  slab_small.capacity = 1u << 12;
  table_config slab_large = slab_small;
  slab_large.capacity = 1u << 20;
  CHECK_THROWS_WITH(
      make_table(slab_large)->restore_state(make_table(slab_small)->save_state({}), {}),
      ContainsSubstring("made at another size"));
}
