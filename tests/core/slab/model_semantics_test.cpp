// The slab model's sequential semantics (SlabHash): REPLACE, INSERT with duplicates, DELETE of the
// least recent match, DELETEALL, COUNT, SEARCHALL, FLUSH, lists growing slab by slab.
#include <catch2/catch_test_macros.hpp>

#include "tests/core/slab/slab_test_support.hpp"

using namespace hs;
using slab::slab_model;

TEST_CASE("unique mode replaces and grows a list slab by slab", "[slab][model]") {
  slab_model m(test::slab_config(backend::cpu, 1));  // one bucket: every key in one list
  for (key_type k = 1; k <= 40; ++k) CHECK(m.insert_one(k, k * 10) == op_status::inserted);
  CHECK(m.insert_one(7, 777) == op_status::replaced);
  value_type v = 0;
  CHECK(m.find_one(7, v) == op_status::found);
  CHECK(v == 777);
  CHECK(m.find_one(41, v) == op_status::missing);
  const table_stats st = m.stats({});
  CHECK(st.live == 40);
  CHECK(st.slab.chained_slabs == 2);  // 40 pairs: base + 2 slabs of 15
  CHECK(st.slab.longest_chain == 3);
  CHECK(st.capacity == 15);
  CHECK(st.slab.utilization == 40.0 * 8 / (3 * 128));
  CHECK(test::slab_check(m).ok());
}

TEST_CASE("unique mode deletes leave tombstones that a re-insert does not reuse", "[slab][model]") {
  slab_model m(test::slab_config(backend::cpu, 1));
  for (key_type k = 1; k <= 20; ++k) m.insert_one(k, k);
  CHECK(m.erase_one(3) == op_status::erased);
  CHECK(m.erase_one(3) == op_status::missing);
  CHECK(m.insert_one(3, 33) == op_status::inserted);
  // Pair 2 still holds the tombstone: the key went to the first empty pair after the others.
  CHECK(m.image().base_slab(0)[4] == k_tombstone);
  CHECK(m.count_one(3) == 1);
  const table_stats st = m.stats({});
  CHECK(st.tombstones == 1);
  CHECK(st.live == 20);
  CHECK(test::slab_check(m).ok());
}

TEST_CASE("multi mode keeps duplicates, deletes the least recent and reuses the emptied pair",
          "[slab][model]") {
  slab_model m(test::slab_config(backend::cpu, 1, slab_mode::multi));
  for (value_type v : {1u, 2u, 3u}) CHECK(m.insert_one(9, v) == op_status::inserted);
  CHECK(m.count_one(9) == 3);
  value_type v = 0;
  CHECK(m.find_one(9, v) == op_status::found);
  CHECK(v == 1);
  CHECK(m.erase_one(9) == op_status::erased);
  CHECK(m.find_one(9, v) == op_status::found);
  CHECK(v == 2);
  CHECK(m.image().base_slab(0)[0] == k_empty);  // multi mode empties deleted pairs
  m.insert_one(9, 4);                           // ... and the next insert takes that pair
  const std::vector<key_type> keys{9, 5};
  const auto all = slab::search_all_host(m, keys, {});
  CHECK(all.counts == std::vector<std::uint32_t>{3, 0});
  CHECK(all.values == std::vector<value_type>{4, 2, 3});
  CHECK(m.erase_all_one(9) == 3);
  CHECK(m.count_one(9) == 0);
  CHECK(test::slab_check(m).ok());
}

TEST_CASE("FLUSH packs each list into the fewest slabs and frees the rest", "[slab][model]") {
  slab_model m(test::slab_config(backend::cpu, 4));
  const auto keys = test::random_keys(600, 5);
  test::insert(m, keys, test::random_values(600, 6));
  std::vector<key_type> gone(keys.begin(), keys.begin() + 450);
  test::erase(m, gone);
  const auto before = test::contents(m);
  const table_stats st0 = m.stats({});
  m.flush({});
  CHECK(test::contents(m) == before);
  CHECK(test::slab_check(m, true).ok());
  const table_stats st = m.stats({});
  CHECK(st.tombstones == 0);
  CHECK(st.slab.chained_slabs < st0.slab.chained_slabs);
  CHECK(slab::census(m.image()).allocated == st.slab.chained_slabs);
  CHECK(st.slab.allocated_slabs == st.slab.chained_slabs);  // FLUSH returned every emptied slab

  SECTION("deleting everything leaves only empty base slabs") {
    test::erase(m, std::vector<key_type>(keys.begin() + 450, keys.end()));
    m.flush({});
    CHECK(m.stats({}).slab.chained_slabs == 0);
    CHECK(slab::census(m.image()).allocated == 0);
    CHECK(test::slab_check(m, true).ok());
  }
}

TEST_CASE("an exhausted pool fails inserts with a status and loses nothing", "[slab][model]") {
  // 4096 slabs at most: 1 bucket cannot hold 70,000 keys.
  slab_model m(
      test::slab_config(backend::cpu, 1, slab_mode::unique, hash_kind::universal, 0, 4096, 4096));
  const auto keys = test::random_keys(70000, 8);
  const auto st = test::insert(m, keys, test::random_values(70000, 9));
  const auto failed = std::count(st.begin(), st.end(), op_status::failed_full);
  CHECK(failed == 70000 - (4096 + 1) * 15);
  const auto found = test::find(m, keys);
  for (std::size_t i = 0; i < keys.size(); ++i)
    CHECK((found.status[i] == op_status::found) == (st[i] == op_status::inserted));
  CHECK(m.stats({}).failed_full == static_cast<std::uint64_t>(failed));
  CHECK(test::slab_check(m).ok());
}

TEST_CASE("reserved keys and values are rejected", "[slab][model]") {
  slab_model m(test::slab_config(backend::cpu, 8));
  CHECK(m.insert_one(k_empty, 1) == op_status::rejected_key);
  CHECK(m.insert_one(k_tombstone, 1) == op_status::rejected_key);
  CHECK(m.insert_one(1, k_empty) == op_status::rejected_value);
  CHECK(m.stats({}).rejected_total() == 0);  // batches count them
  CHECK(m.stats({}).live == 0);
}

TEST_CASE("rehash moves every pair into a new bucket count", "[slab][model]") {
  slab_model m(test::slab_config(backend::cpu, 16, slab_mode::multi));
  auto keys = test::random_keys(500, 11);
  keys.insert(keys.end(), keys.begin(), keys.begin() + 100);  // duplicates survive too
  test::insert(m, keys, test::random_values(keys.size(), 12));
  const auto before = test::slab_multiset(m);
  m.rehash(15 * 64, {});
  CHECK(m.config().slab.buckets == 64);
  CHECK(test::slab_multiset(m) == before);
  CHECK(test::slab_check(m).ok());
}
