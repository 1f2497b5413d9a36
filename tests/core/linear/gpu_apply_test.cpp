// [gpu] Mixed batches (apply): inserts, finds and erases in one kernel, against the model.
#include <algorithm>

#include <catch2/generators/catch_generators.hpp>

#include "tests/core/linear/gpu_support_linear.hpp"

using namespace hs;

TEST_CASE("a mixed batch over distinct keys matches the model", "[gpu][linear]") {
  test::require_gpu();
  const int group = GENERATE(1, 4, 8);
  CAPTURE(group);
  const std::uint64_t capacity = 1u << 16;
  test::linear_pair p(capacity, hash_kind::murmur3, group);
  const auto keys = test::random_keys(60000, 31);
  const auto values = test::random_values(keys.size(), 32);
  // Half the keys go in first; the batch then touches each key at most once.
  const std::vector<key_type> base(keys.begin(), keys.begin() + 30000);
  const std::vector<value_type> base_v(values.begin(), values.begin() + 30000);
  test::insert(*p.gpu, base, base_v);
  test::insert(p.model, base, base_v);

  std::vector<op_kind> kinds;
  std::vector<key_type> k;
  std::vector<value_type> v;
  for (std::size_t i = 0; i < 24000; ++i) {
    // Interleaved, so every warp holds every kind: insert new, find present, find absent, erase.
    switch (i % 4) {
      case 0:
        kinds.push_back(op_kind::insert);
        k.push_back(keys[30000 + i / 4]);
        break;
      case 1:
        kinds.push_back(op_kind::find);
        k.push_back(base[i / 4]);
        break;
      case 2:
        kinds.push_back(op_kind::find);
        k.push_back(keys[45000 + i / 4]);
        break;
      case 3:
        kinds.push_back(op_kind::erase);
        k.push_back(base[10000 + i / 4]);
        break;
    }
    v.push_back(values[i]);
  }
  const auto g = test::apply(*p.gpu, kinds, k, v);
  const auto m = test::apply(p.model, kinds, k, v);
  CHECK(g.status == m.status);
  CHECK(g.values == m.values);
  p.check_same_contents();
}

TEST_CASE("an insert and a find of the same key in one batch see either order", "[gpu][linear]") {
  test::require_gpu();
  test::linear_pair p(1u << 12, hash_kind::murmur3, GENERATE(1, 4));
  const auto keys = test::random_keys(512, 41);
  std::vector<op_kind> kinds;
  std::vector<key_type> k;
  std::vector<value_type> v;
  for (key_type key : keys) {
    kinds.insert(kinds.end(), {op_kind::insert, op_kind::find});
    k.insert(k.end(), {key, key});
    v.insert(v.end(), {key & 0xffffu, 0});
  }
  const auto g = test::apply(*p.gpu, kinds, k, v);
  for (std::size_t i = 1; i < k.size(); i += 2) {
    const bool saw_insert = g.status[i] == op_status::found && g.values[i] == (k[i] & 0xffffu);
    const bool ran_first = g.status[i] == op_status::missing && g.values[i] == k_empty;
    CHECK((saw_insert || ran_first));
    CHECK(g.status[i - 1] == op_status::inserted);
  }
  CHECK(test::contents(*p.gpu).size() == keys.size());
}
