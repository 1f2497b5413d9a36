// Tables of 64-bit keys and values (key-bits 64): the CPU model's semantics with keys that differ
// only in their high 32 bits, the reserved keys at the top of the 64-bit range, the calls of the
// other width refused, and the option, the capacity and the states.
#include <algorithm>
#include <map>

#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/common/error.hpp"
#include "core/common/hash.hpp"
#include "core/linear/linear_invariants.hpp"
#include "core/linear/linear_layout.hpp"
#include "core/linear/linear_model.hpp"
#include "core/linear/linear_slots.hpp"
#include "core/table/family_option.hpp"
#include "core/table/family_registry.hpp"
#include "core/table/table_state.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using namespace hs::linear;
using Catch::Matchers::ContainsSubstring;

namespace {
table_config wide_config(std::uint64_t capacity, hash_kind h = hash_kind::murmur3,
                         linear_delete_mode mode = linear_delete_mode::value,
                         probe_policy probe = probe_policy::linear) {
  table_config cfg;
  cfg.capacity = capacity;
  cfg.hash = h;
  cfg.width = key_width::bits64;
  cfg.linear.deletes = mode;
  cfg.linear.probe = probe;
  return cfg;
}
constexpr wide_key k_high = wide_key{1} << 32;
}  // namespace

TEST_CASE("64-bit keys that differ only in their high half are different keys",
          "[linear][model][wide]") {
  // The identity hash homes every one of them in slot 4 (the first slot of slot 5's 64-byte
  // line): they probe past one another.
  wide_linear_model m(wide_config(16, hash_kind::identity));
  for (wide_key j = 0; j < 4; ++j)
    CHECK(m.insert_one(5 + j * k_high, 100 + j) == op_status::inserted);
  for (wide_key j = 0; j < 4; ++j) {
    CHECK(slot_key(m.slots()[4 + j]) == 5 + j * k_high);
    wide_value v = 0;
    CHECK(m.find_one(5 + j * k_high, v) == op_status::found);
    CHECK(v == 100 + j);
  }
  CHECK(m.erase_one(5 + 2 * k_high) == op_status::erased);
  wide_value v = 0;
  CHECK(m.find_one(5 + 2 * k_high, v) == op_status::missing);
  CHECK(m.find_one(5 + 3 * k_high, v) == op_status::found);  // behind the erased key
  CHECK(v == 103);
  CHECK(m.find_one(5 + 7 * k_high, v) == op_status::missing);
  const table_stats st = m.stats({});
  CHECK(st.live == 3);
  CHECK(st.bytes == 16 * sizeof(wide_slot));
  CHECK(st.max_displacement == 3);
  CHECK(check_invariants(m.slots(), hash_kind::identity, &st).ok());
}

TEST_CASE("values use all 64 bits", "[linear][model][wide]") {
  wide_linear_model m(wide_config(64));
  const wide_value big = 0xfedcba9876543210ull;
  CHECK(m.insert_one(7, big) == op_status::inserted);
  wide_value v = 0;
  CHECK(m.find_one(7, v) == op_status::found);
  CHECK(v == big);
  CHECK(m.insert_one(7, big >> 8) == op_status::replaced);
}

TEST_CASE("a 64-bit table reserves the top two 64-bit keys, not the 32-bit ones",
          "[linear][model][wide]") {
  auto t = make_table(wide_config(64));
  const std::vector<wide_key> keys = {~0ull, ~0ull - 1, 0xffffffffull, 0xfffffffeull, ~0ull - 2};
  const std::vector<wide_value> values = {1, 2, 3, 4, ~0ull};
  CHECK(test::insert(*t, keys, values) ==
        std::vector<op_status>{op_status::rejected_key, op_status::rejected_key,
                               op_status::inserted, op_status::inserted,
                               op_status::rejected_value});
  const auto found = test::find(*t, keys);
  CHECK(found.status == std::vector<op_status>{op_status::rejected_key, op_status::rejected_key,
                                               op_status::found, op_status::found,
                                               op_status::missing});
  CHECK(found.values[2] == 3);
  CHECK(t->stats({}).rejected[int(op_kind::insert)] == 3);
  CHECK(t->stats({}).rejected[int(op_kind::find)] == 2);
}

TEST_CASE("a table refuses the batch calls of the other key width", "[linear][model][wide]") {
  auto wide = make_table(wide_config(64));
  CHECK(bits_of(wide->width()) == 64);
  const std::vector<key_type> k32 = {1, 2};
  const std::vector<value_type> v32 = {1, 2};
  CHECK_THROWS_WITH(test::insert(*wide, k32, v32),
                    ContainsSubstring("32-bit keys given to a table of 64-bit keys"));
  CHECK_THROWS_AS(test::find(*wide, k32), user_error);
  CHECK_THROWS_AS(test::contents(*wide), user_error);
  auto narrow = test::make(backend::cpu, 64);
  CHECK(bits_of(narrow->width()) == 32);
  const std::vector<wide_key> k64 = {1, 2};
  const std::vector<wide_value> v64 = {1, 2};
  CHECK_THROWS_WITH(test::insert(*narrow, k64, v64),
                    ContainsSubstring("64-bit keys given to a table of 32-bit keys"));
  CHECK_THROWS_AS(test::erase(*narrow, k64), user_error);
  CHECK(wide->stats({}).live == 0);
  CHECK(narrow->stats({}).live == 0);
}

TEST_CASE("key-bits takes 32 or 64, and 64-bit tables may pass 2^32 slots",
          "[linear][model][wide]") {
  const family_descriptor& d = describe(family::linear);
  const family_option* o = find_option(d.options, "key-bits");
  REQUIRE(o);
  table_config cfg;
  apply_option(*o, cfg, "64");
  CHECK(bits_of(cfg.width) == 64);
  CHECK_THROWS_WITH(apply_option(*o, cfg, "48"),
                    ContainsSubstring("32") && ContainsSubstring("64"));
  CHECK(bits_of(cfg.width) == 64);
  table_config big = wide_config(std::uint64_t{1} << 41);
  CHECK_THROWS_WITH(make_table(big), ContainsSubstring("2^40"));
  big.width = key_width::bits32;
  big.capacity = std::uint64_t{1} << 33;
  CHECK_THROWS_WITH(make_table(big), ContainsSubstring("2^32") &&
                                         ContainsSubstring("key-bits 64") &&
                                         !ContainsSubstring("2^40"));
  CHECK(max_capacity(key_width::bits64) > max_capacity(key_width::bits32));
  CHECK(d.estimate_bytes(wide_config(1u << 20)) == 2 * d.estimate_bytes([] {
    table_config c;
    c.capacity = 1u << 20;
    return c;
  }()) - reach_regions(1u << 20) * sizeof(std::uint32_t));
}

TEST_CASE("64-bit tables follow the model in every mode, rehash and resize",
          "[linear][model][wide]") {
  const linear_delete_mode mode =
      GENERATE(linear_delete_mode::value, linear_delete_mode::tombstone);
  const probe_policy probe = GENERATE(probe_policy::linear, probe_policy::double_hash);
  const hash_kind hash = GENERATE(hash_kind::murmur3, hash_kind::knuth, hash_kind::universal);
  CAPTURE(to_string(mode), to_string(probe), to_string(hash));
  auto t = make_table(wide_config(1u << 12, hash, mode, probe));
  const auto keys = test::random_wide_keys(3000, 7);
  const auto values = test::random_wide_values(keys.size(), 8);
  const auto first = test::insert(*t, keys, values);
  CHECK(std::count(first.begin(), first.end(), op_status::inserted) == 3000);
  const auto again = test::insert(*t, keys, values);
  CHECK(std::count(again.begin(), again.end(), op_status::replaced) == 3000);
  const std::vector<wide_key> gone(keys.begin(), keys.begin() + 1000);
  test::erase(*t, gone);
  std::map<wide_key, wide_value> expect;
  for (std::size_t i = 1000; i < keys.size(); ++i) expect[keys[i]] = values[i];
  const auto check_all = [&] {
    const auto got = test::wide_contents(*t);
    CHECK(got == std::vector<std::pair<wide_key, wide_value>>(expect.begin(), expect.end()));
    const table_stats st = t->stats({});
    const auto r = check_invariants(copy_slots<wide_slot>(*t), hash, &st, mode, probe);
    INFO(r.describe());
    CHECK(r.ok());
  };
  check_all();
  for (std::uint64_t cap : {1u << 13, 1u << 12, 1u << 11}) {
    CAPTURE(cap);
    t->rehash(cap, {});
    check_all();
    CHECK(t->stats({}).occupied == expect.size());
  }
  const auto found = test::find(*t, gone);
  CHECK(std::count(found.status.begin(), found.status.end(), op_status::missing) == 1000);
}

TEST_CASE("a 64-bit table's state restores it, and not a 32-bit table", "[linear][model][wide]") {
  auto t = make_table(wide_config(1u << 10));
  const auto keys = test::random_wide_keys(500, 17);
  test::insert(*t, keys, test::random_wide_values(keys.size(), 18));
  const table_state st = t->save_state({});
  auto copy = make_table(wide_config(1u << 11));
  copy->restore_state(st, {});
  CHECK(test::wide_contents(*copy) == test::wide_contents(*t));
  CHECK(copy->capacity() == 1u << 10);
  auto narrow = test::make(backend::cpu, 1u << 10);
  CHECK_THROWS_WITH(narrow->restore_state(st, {}), ContainsSubstring("key-bits=64"));
  CHECK(narrow->stats({}).live == 0);
}

TEST_CASE("a 64-bit key's home is the first slot of the 64-byte line its hash falls in",
          "[linear][model][wide]") {
  // 32-bit keys start anywhere; 64-bit keys start where a line (4 slots of 16 bytes) starts, so
  // that a lookup reads no line before its key's unless the key was pushed past its own.
  const std::uint64_t mask = (std::uint64_t{1} << 20) - 1;
  std::uint64_t offsets_narrow[4] = {}, offsets_wide[4] = {};
  for (std::uint64_t i = 1; i <= 4000; ++i) {
    const auto narrow = static_cast<std::uint32_t>(i * 2654435761u);
    const wide_key wide = i * 0x9e3779b97f4a7c15ull;
    ++offsets_narrow[home_slot<murmur3_hash>(narrow, static_cast<std::uint32_t>(mask)) % 4];
    const std::uint64_t home = home_slot<murmur3_hash>(wide, mask);
    ++offsets_wide[home % 4];
    CHECK(home == (murmur3_hash{}(wide)&mask & ~std::uint64_t{3}));
  }
  for (int o = 0; o < 4; ++o) CHECK(offsets_narrow[o] > 800);  // about 1000 each
  CHECK(offsets_wide[0] == 4000);
  // The model's keys sit at or past their line's first slot, and a table of them passes the
  // checker, whose walks start there too.
  wide_linear_model m(wide_config(1024));
  for (wide_key j = 1; j <= 700; ++j)
    REQUIRE(m.insert_one(j * 0x9e3779b97f4a7c15ull, j) == op_status::inserted);
  const table_stats st = m.stats({});
  CHECK(st.live == 700);
  CHECK(check_invariants(m.slots(), hash_kind::murmur3, &st).ok());
}
