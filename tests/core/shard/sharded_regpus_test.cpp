// regpus that cannot finish puts the table back: when the new devices would lack room for their
// pairs, and when a new shard cannot be made (as a GPU out of memory), every pair is back on the
// old devices under the old map, the error says so, and a later move still works.
#include <memory>
#include <string>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/common/error.hpp"
#include "core/shard/host_exchange.hpp"
#include "core/shard/sharded_table.hpp"
#include "tests/core/shard/sharded_support.hpp"

using namespace hs;
using Catch::Matchers::ContainsSubstring;

namespace {
void check_unchanged(table& t, const std::vector<std::pair<key_type, value_type>>& before,
                     const shard_map& map_before) {
  CHECK(t.config().devices == map_before.devices);
  CHECK(as_sharded(t)->devices() == map_before.devices);
  CHECK(as_sharded(t)->map().device_of == map_before.device_of);
  CHECK(test::contents(t) == before);
  CHECK(t.stats({}).failed_full == 0);
  test::check_owners<key_type>(t);
}
}  // namespace

TEST_CASE("regpus to devices without room for their pairs puts every pair back", "[shard]") {
  table_config cfg = test::shard_config("linear", backend::cpu, 1 << 12);
  cfg.devices = 2;
  auto t = make_table(cfg);
  const shard_map two = as_sharded(*t)->map(), four = two.regrouped(4);
  // Keys that stay on device 0 over four devices: 1,500 of them fill 73% of its 2,048 slots now,
  // and would need 1,500 of the 1,024 it would have.
  std::vector<key_type> keys;
  for (const key_type k : test::random_keys(20000, 31))
    if (owner_of(four, k) == 0 && keys.size() < 1500) keys.push_back(k);
  REQUIRE(keys.size() == 1500);
  test::insert(*t, keys, test::random_values(keys.size(), 32));
  const auto before = test::contents(*t);
  REQUIRE(before.size() == 1500);
  CHECK_THROWS_WITH(as_sharded(*t)->regpus(4, {}),
                    ContainsSubstring("would find no room on their new devices") &&
                        ContainsSubstring("the table stays on 2 devices with every pair"));
  check_unchanged(*t, before, two);
  CHECK(test::find(*t, keys).status == std::vector<op_status>(keys.size(), op_status::found));
  test::insert(*t, test::random_keys(10, 33), test::random_values(10, 34));  // it still works
  CHECK(t->stats({}).live == 1510);
}

TEST_CASE("regpus whose new shard cannot be made puts every pair back, and moves later",
          "[shard]") {
  table_config cfg = test::shard_config("linear", backend::cpu, 1 << 12);
  cfg.devices = 2;
  auto refuse_once = std::make_shared<bool>(true);
  shard_parts parts;
  parts.make = [refuse_once](std::uint32_t device, const table_config& one) {
    if (device == 3 && *refuse_once) {
      *refuse_once = false;
      throw gpu_error("out of memory on device 3 (the test's)");
    }
    return make_table(one);
  };
  parts.exchange = [](std::uint32_t ranks) { return std::make_unique<host_exchange>(ranks); };
  sharded_table<key_type, value_type> t(cfg, parts);
  const auto keys = test::random_keys(1200, 41);
  test::insert(t, keys, test::random_values(1200, 42));
  const auto before = test::contents(t);
  const shard_map two = t.map();
  CHECK_THROWS_WITH(t.regpus(4, {}), ContainsSubstring("out of memory on device 3") &&
                                         ContainsSubstring("stays on 2 devices with every pair"));
  check_unchanged(t, before, two);
  const regpus_result r = t.regpus(4, {});  // the device has room now
  CHECK(r.keys == 1200);
  CHECK(t.devices() == 4);
  CHECK(test::contents(t) == before);
  test::check_owners<key_type>(t);
}
