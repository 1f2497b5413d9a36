// The hive CPU model: the four insert steps, lookups and deletes in buckets and stash, a stash
// that fills, linear-hashing expansion and contraction, automatic resizing and config errors.
#include <algorithm>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/common/error.hpp"
#include "core/hive/hive_model.hpp"
#include "tests/core/hive/hive_test_support.hpp"

using namespace hs;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("hive model: insert, replace, find, erase and reserved keys", "[hive]") {
  hive::hive_model m(test::hive_config(backend::cpu, 1024));
  CHECK(m.insert_one(7, 70) == op_status::inserted);
  CHECK(m.insert_one(7, 71) == op_status::replaced);
  value_type v = 0;
  CHECK(m.find_one(7, v) == op_status::found);
  CHECK(v == 71);
  CHECK(m.find_one(8, v) == op_status::missing);
  CHECK(m.erase_one(7) == op_status::erased);
  CHECK(m.erase_one(7) == op_status::missing);
  CHECK(m.insert_one(k_empty, 1) == op_status::rejected_key);
  CHECK(m.insert_one(k_tombstone, 1) == op_status::rejected_key);
  CHECK(m.insert_one(5, k_empty) == op_status::rejected_value);
  CHECK(hive::check_invariants(m.image()).ok());
}

TEST_CASE("hive model: filled to 0.97 every key is found and each insert's step is counted",
          "[hive]") {
  for (int slots : {8, 16, 32}) {
    auto cfg = test::hive_config(backend::cpu, 1u << 14, slots);
    cfg.hive.instrument = true;
    hive::hive_model m(cfg);
    const std::size_t n = static_cast<std::size_t>(0.97 * (1u << 14));
    const auto keys = test::random_keys(n, 3 + slots);
    const auto values = test::random_values(n, 4);
    const auto st = test::insert(m, keys, values);
    CHECK(std::count(st.begin(), st.end(), op_status::inserted) == static_cast<long>(n));
    const auto f = test::find(m, keys);
    CHECK(std::count(f.status.begin(), f.status.end(), op_status::found) == static_cast<long>(n));
    CHECK(f.values == values);
    const table_stats s = m.stats({});
    const auto& h = s.hive;
    CHECK(h.steps[0] + h.steps[1] + h.steps[2] + h.steps[3] == n);
    CHECK(h.steps[2] > 0);  // evictions happen at this load
    std::uint64_t paths = 0;
    for (auto c : h.path_lengths) paths += c;
    CHECK(paths == h.steps[2]);
    const auto r = hive::check_invariants(m.image(), &s);
    INFO(r.describe());
    CHECK(r.ok());
    CHECK(!m.recent_paths({}).empty());
  }
}

TEST_CASE("hive model: keys sharing one bucket pair fill it, then the stash, then are refused",
          "[hive]") {
  hive::hive_model m(test::hive_config(backend::cpu, 1024, 16, 0, {}, 16, 0.0));  // stash: 64 slots
  const auto keys = test::keys_on_pair(m.image(), 2 * 16 + 64 + 10, 5);
  const auto values = test::random_values(keys.size(), 6);
  const auto st = test::insert(m, keys, values);
  CHECK(std::count(st.begin(), st.end(), op_status::inserted) == 2 * 16 + 64);
  CHECK(std::count(st.begin(), st.end(), op_status::failed_full) == 10);
  const table_stats s = m.stats({});
  CHECK(s.hive.stash_live == 64);
  CHECK(s.failed_full == 10);
  CHECK(s.failed_full == 10);
  // Everything that was accepted is found, in buckets or stash; deletes reach the stash too.
  const std::vector<key_type> kept(keys.begin(), keys.begin() + 96);
  const auto f = test::find(m, kept);
  CHECK(std::count(f.status.begin(), f.status.end(), op_status::found) == 96);
  const std::vector<key_type> stashed(keys.begin() + 80, keys.begin() + 96);
  const auto e = test::erase(m, stashed);
  CHECK(std::count(e.begin(), e.end(), op_status::erased) == 16);
  const auto r = hive::check_invariants(m.image(), nullptr);
  INFO(r.describe());
  CHECK(r.ok());
}

TEST_CASE("hive model: expansion and contraction keep every key findable at every step",
          "[hive][resize]") {
  auto cfg = test::hive_config(backend::cpu, 1u << 12, 16);
  cfg.hive.resize_batch = 16;
  hive::hive_model m(cfg);
  const std::size_t n = 3500;  // load 0.85
  const auto keys = test::random_keys(n, 8);
  const auto values = test::random_values(n, 9);
  test::insert(m, keys, values);
  const auto all_found = [&] {
    const auto f = test::find(m, keys);
    return std::count(f.status.begin(), f.status.end(), op_status::found) == static_cast<long>(n) &&
           f.values == values;
  };
  for (int step = 0; step < 24; ++step) {  // 1.5 rounds of 256 buckets, 16 at a time
    CHECK(m.expand(16, {}) == 16);
    CHECK(all_found());
    CHECK(hive::check_invariants(m.image()).ok());
  }
  CHECK(m.image().geo.round == 512);
  CHECK(m.image().geo.split == 128);
  CHECK(m.config().capacity == (512 + 128) * 16);
  // 640 buckets hold 3,500 keys; 244 buckets hold them within 90%: 396 merges, 604 refused.
  CHECK(m.contract(1000, {}) == 396);
  CHECK(m.config().capacity == 244 * 16);
  CHECK(m.stats({}).hive.merges_refused == 604);
  CHECK(m.stats({}).load_factor() <= hive::k_contract_fill);
  CHECK(all_found());
  CHECK(hive::check_invariants(m.image()).ok());
}

TEST_CASE("hive model: a contraction reaches its target although pairs do not fit one bucket",
          "[hive][resize]") {
  // 1,024 buckets at load 0.24: many pairs hold more than 16 entries between them; their
  // overflow goes to other candidates, eviction paths or the stash, and the merge goes on.
  auto cfg = test::hive_config(backend::cpu, 1u << 14, 16);
  hive::hive_model m(cfg);
  const std::size_t n = 4000;
  const auto keys = test::random_keys(n, 81);
  const auto values = test::random_values(n, 82);
  test::insert(m, keys, values);
  CHECK(m.contract(1024 - 300, {}) == 724);  // 300 buckets: load 0.83
  CHECK(m.config().capacity == 300 * 16);
  CHECK(m.stats({}).hive.merges_refused == 0);
  const auto f = test::find(m, keys);
  CHECK(std::count(f.status.begin(), f.status.end(), op_status::found) == static_cast<long>(n));
  CHECK(f.values == values);
  CHECK(m.stats({}).failed_full == 0);  // moved keys are not the user's inserts
  const table_stats s = m.stats({});
  const auto r = hive::check_invariants(m.image(), &s);
  INFO(r.describe());
  CHECK(r.ok());
  // Asked for more than the keys allow: it stops at 90% and says so.
  CHECK(m.contract(100, {}) == 300 - 278);  // ceil(4000 / 14.4) = 278 buckets
  CHECK(m.stats({}).hive.merges_refused == 78);
}

TEST_CASE("hive model: drained from 0.9 to 0.1 with resize=auto it ends between the thresholds",
          "[hive][resize]") {
  auto cfg = test::hive_config(backend::cpu, 1u << 12, 16);
  cfg.hive.auto_resize = true;
  hive::hive_model m(cfg);
  const auto keys = test::random_keys(200000, 91);
  test::insert(m, keys, test::random_values(keys.size(), 92));
  const double grown = double(m.config().capacity);
  CHECK(m.stats({}).load_factor() <= cfg.hive.grow_above);
  for (std::size_t at = 0; at < keys.size() * 8 / 9; at += 10000)
    test::erase(m, std::vector<key_type>(keys.begin() + at,
                                         keys.begin() + std::min(keys.size() * 8 / 9, at + 10000)));
  const table_stats s = m.stats({});
  CHECK(double(s.capacity) < grown / 2);
  CHECK(s.load_factor() >= cfg.hive.shrink_below);
  CHECK(s.load_factor() <= cfg.hive.grow_above);
  CHECK(hive::check_invariants(m.image(), &s).ok());
}

TEST_CASE("hive model: an expansion drains the stash and inserts its keys again",
          "[hive][resize]") {
  auto cfg = test::hive_config(backend::cpu, 1024, 16, 0, {}, 16, 0.0);  // 64 buckets, stash of 64
  cfg.hive.resize_batch = 8;
  hive::hive_model m(cfg);
  const auto keys = test::keys_on_pair(m.image(), 2 * 16 + 40, 21);  // 40 of them end in the stash
  const auto values = test::random_values(keys.size(), 22);
  test::insert(m, keys, values);
  REQUIRE(m.stats({}).hive.stash_live == 40);
  CHECK(m.expand(64, {}) == 64);  // a whole round: every bucket split, its pair spread over four
  const table_stats s = m.stats({});
  CHECK(s.live == keys.size());
  CHECK(s.hive.stash_live < 40);  // the partners took some of the pile
  const auto f = test::find(m, keys);
  CHECK(std::count(f.status.begin(), f.status.end(), op_status::found) ==
        static_cast<long>(keys.size()));
  CHECK(f.values == values);
  const auto r = hive::check_invariants(m.image(), &s);
  INFO(r.describe());
  CHECK(r.ok());
}

TEST_CASE("hive model: automatic resize keeps the load under the threshold", "[hive][resize]") {
  auto cfg = test::hive_config(backend::cpu, 1u << 10, 16);
  cfg.hive.auto_resize = true;
  hive::hive_model m(cfg);
  const auto keys = test::random_keys(20000, 10);
  for (std::size_t at = 0; at < keys.size(); at += 1000) {
    const std::vector<key_type> part(keys.begin() + at, keys.begin() + at + 1000);
    test::insert(m, part, test::random_values(part.size(), at));
    const table_stats s = m.stats({});
    INFO("after " << at + 1000 << " keys: live " << s.live << ", capacity " << s.capacity);
    CHECK(s.load_factor() <= 0.9);
  }
  CHECK(m.stats({}).live == keys.size());
  test::erase(m, std::vector<key_type>(keys.begin(), keys.begin() + 19000));
  CHECK(m.stats({}).live == 1000);
  CHECK(m.stats({}).load_factor() >= 0.25 - 1e-9);
}

TEST_CASE("hive configs: impossible shapes and policies are refused with the reason", "[hive]") {
  const auto fails = [](table_config c, const std::string& what) {
    CHECK_THROWS_WITH(make_table(c), ContainsSubstring(what));
  };
  fails(test::hive_config(backend::cpu, 1000), "power of two");
  fails(test::hive_config(backend::cpu, 1024, 12), "8, 16 or 32 slots");
  fails(test::hive_config(backend::cpu, 1024, 8, 16), "wider than a bucket");
  fails(test::hive_config(backend::cpu, 1024, 16, 0, "bithash1"), "two or three");
  fails(test::hive_config(backend::cpu, 1024, 16, 0, "bithash1+sha1"), "two or three");
  fails(test::hive_config(backend::cpu, 1024, 16, 0, "city+city"), "two or three");
  fails(test::hive_config(backend::cpu, 1024, 16, 0, {}, 40), "eviction depth");
  CHECK(hive::parse_hash_policy("murmur3+city+crc32")->count == 3);
  CHECK(hive::to_string(*hive::parse_hash_policy("crc32+bithash2")) == "crc32+bithash2");
}

TEST_CASE("hive model: keys go to their first candidate while it has room; away bits mark the rest",
          "[hive]") {
  hive::hive_model m(test::hive_config(backend::cpu, 1 << 14, 16));
  const auto keys =
      test::random_keys(7000, 21);  // load 0.43: most first candidates keep 4 free slots
  test::insert(m, keys, test::random_values(7000, 22));
  const auto count_away = [](const hive::hive_image& img) {
    std::uint64_t keys_away = 0, bits = 0;
    for (std::uint64_t b = 0; b < img.geo.buckets(); ++b) {
      bits += (img.locks[b] & hive::k_away_bit) ? 1 : 0;
      for (int s = 0; s < img.slots; ++s) {
        const hive::word_type w = img.bucket(b)[s];
        if (w != hive::k_empty_word && img.candidates_of(hive::key_of(w)).b[0] != b) ++keys_away;
      }
    }
    return std::pair{keys_away, bits};
  };
  const auto [away_low, bits_low] = count_away(m.image());
  CHECK(away_low < 7000 / 20);
  CHECK(bits_low <= away_low);
  REQUIRE(hive::check_invariants(m.image()).ok());
  const auto more =
      test::random_keys(7700, 23);  // to load 0.9 (keys are distinct with high probability)
  test::insert(m, more, test::random_values(7700, 24));
  const auto [away_high, bits_high] = count_away(m.image());
  CHECK(away_high > away_low);
  CHECK(bits_high > bits_low);
  const hive::hive_image good = m.image();
  REQUIRE(hive::check_invariants(good).ok());
  // Clearing the away bit of a bucket whose keys live elsewhere is caught.
  for (std::uint64_t b = 0; b < good.geo.buckets(); ++b)
    for (int s = 0; s < good.slots; ++s) {
      const hive::word_type w = good.bucket(b)[s];
      if (w == hive::k_empty_word) continue;
      const std::uint64_t first = good.candidates_of(hive::key_of(w)).b[0];
      if (first == b) continue;
      auto bad = good;
      bad.locks[first] &= ~hive::k_away_bit;
      CHECK_FALSE(hive::check_invariants(bad).ok());
      return;
    }
  FAIL("no key lives outside its first candidate at load 0.9");
}

TEST_CASE(
    "hive invariants: a wrong mask bit, a key twice, a key out of place and a stale hint are "
    "caught",
    "[hive]") {
  hive::hive_model m(test::hive_config(backend::cpu, 1024, 16));
  const auto keys = test::random_keys(500, 11);
  test::insert(m, keys, test::random_values(500, 12));
  const hive::hive_image good = m.image();
  REQUIRE(hive::check_invariants(good).ok());
  // The bucket holding keys[0], and a slot of it.
  std::uint64_t b = 0;
  int s = 0;
  for (std::uint64_t i = 0; i < good.words.size(); ++i)
    if (good.words[i] != hive::k_empty_word && hive::key_of(good.words[i]) == keys[0])
      b = i / 16, s = static_cast<int>(i % 16);
  auto bad = good;
  bad.masks[b] |= 1u << s;
  CHECK(hive::check_invariants(bad).violations == 1);
  bad = good;
  const int free_slot = __builtin_ctz(bad.masks[b]);
  bad.bucket(b)[free_slot] = bad.bucket(b)[s];
  bad.masks[b] &= ~(1u << free_slot);
  CHECK_FALSE(hive::check_invariants(bad).ok());
  bad = good;
  const auto c = bad.candidates_of(keys[0]);
  std::uint64_t other = 0;
  while (other == c.b[0] || other == c.b[1]) ++other;
  const int f2 = __builtin_ctz(bad.masks[other]);
  bad.bucket(other)[f2] = bad.bucket(b)[s];
  bad.masks[other] &= ~(1u << f2);
  bad.bucket(b)[s] = hive::k_empty_word;
  bad.masks[b] |= 1u << s;
  CHECK(hive::check_invariants(bad).violations == 1);
  bad = good;
  bad.locks[3] += hive::k_stash_hint_unit;
  CHECK(hive::check_invariants(bad).violations == 1);
}
