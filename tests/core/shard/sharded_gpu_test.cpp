// [gpu][multi] A table sharded over this machine's GPUs (2, and 4 where there are four) through
// NCCL in one process, against one CPU model of all its keys: every family and linear variant,
// both widths; then regpus and a table file. Skips, saying why, below two GPUs.
#include <string>

#include <catch2/catch_test_macros.hpp>

#include "core/common/device.hpp"
#include "core/table/table_state.hpp"
#include "tests/core/shard/sharded_support.hpp"

using namespace hs;

namespace {
void require_gpus(int n) {
  const int have = gpu_count();
  if (have < n)
    SKIP("needs " + std::to_string(n) + " GPUs; this machine has " + std::to_string(have));
}
}  // namespace

TEST_CASE("sharded GPUs: NCCL-sharded tables answer as one model", "[gpu][multi][shard]") {
  require_gpus(2);
  std::uint64_t seed = 101;
  for (const std::uint32_t devices : {2u, 4u}) {
    if (gpu_count() < static_cast<int>(devices)) continue;
    for (const table_config& cfg : test::shard_variants(backend::gpu, std::uint64_t{1} << 16)) {
      INFO(describe_config(cfg) << " over " << devices << " GPUs");
      with_key_width(cfg.width, [&](auto key) {
        test::compare_with_model<decltype(key)>(cfg, devices, ++seed, true, 512);
      });
    }
  }
}

TEST_CASE("sharded GPUs: regpus and a large batch keep every pair", "[gpu][multi][shard]") {
  require_gpus(2);
  table_config cfg = test::shard_config("linear", backend::gpu, std::uint64_t{1} << 22);
  cfg.devices = 2;
  auto t = make_table(cfg);
  as_sharded(*t)->set_chunk_keys(1 << 18);  // eight chunks a batch, pipelined
  const auto keys = test::random_keys(1 << 21, 77);
  const auto values = test::random_values(1 << 21, 78);
  const auto status = test::insert(*t, keys, values);
  CHECK(std::count(status.begin(), status.end(), op_status::inserted) == (1 << 21));
  const auto found = test::find(*t, keys);
  CHECK(found.values == values);
  if (gpu_count() >= 4) {
    const regpus_result r = as_sharded(*t)->regpus(4, {});
    CHECK(r.keys == (1u << 21));
    CHECK(r.keys_moved > (1u << 19));
    CHECK(test::find(*t, keys).values == values);
  }
  test::check_owners<key_type>(*t);
}
