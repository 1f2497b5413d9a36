// Simulated devices (CPU models behind the host stand-in for NCCL) against one CPU model of all
// the keys: every family and linear variant, both widths, 2 and 4 devices. Mixed batches with
// repeated and reserved keys give the same statuses and found values in the caller's order, the
// same contents, and every key sits on the device the map names.
#include <catch2/catch_test_macros.hpp>

#include "core/shard/sharded_view.hpp"
#include "core/table/table_state.hpp"
#include "tests/core/shard/sharded_support.hpp"

using namespace hs;

TEST_CASE("sharded: simulated devices answer as one model of all the keys", "[shard]") {
  std::uint64_t seed = 11;
  for (const table_config& cfg : test::shard_variants(backend::cpu, std::uint64_t{1} << 14))
    for (const std::uint32_t devices : {2u, 4u}) {
      INFO(describe_config(cfg) << " over " << devices << " simulated devices");
      with_key_width(cfg.width, [&](auto key) {
        test::compare_with_model<decltype(key)>(cfg, devices, ++seed, false,
                                                devices == 2 ? 300 : 1 << 22);
      });
    }
}

TEST_CASE("sharded: a batch's exchange names who sent what to whom", "[shard]") {
  table_config cfg = test::shard_config("linear", backend::cpu, 1 << 12);
  cfg.devices = 4;
  auto t = make_table(cfg);
  const auto keys = test::random_keys(1000, 5);
  test::insert(*t, keys, test::random_values(1000, 6));
  const batch_exchange& x = as_sharded(*t)->last_exchange();
  REQUIRE(x.devices == 4);
  std::uint64_t from_zero = 0;
  for (std::uint32_t j = 0; j < 4; ++j) {
    from_zero += x.keys_from_to(0, j);
    CHECK(x.keys_from_to(0, j) > 150);  // about a quarter each
    for (std::uint32_t i = 1; i < 4; ++i) CHECK(x.keys_from_to(i, j) == 0);
  }
  CHECK(from_zero == 1000);
  // Keys, values and statuses of the three quarters that left rank 0, out and back.
  CHECK(x.bytes_out == (1000 - x.keys_from_to(0, 0)) * 8);
  CHECK(x.bytes_back == (1000 - x.keys_from_to(0, 0)) * 1);
}
