// [gpu][multi] A table sharded over this machine's GPUs (2, and 4 where there are four) through
// NCCL in one process, against one CPU model of all its keys: every family and linear variant,
// both widths; then regpus and a large batch. Skips, saying why, below two GPUs. [gpu] The same
// path over one NCCL rank, on a machine of one GPU: every step of a batch, and a restore that the
// shard refuses, put back.
#include <string>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/common/device.hpp"
#include "core/shard/one_rank_table.hpp"
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

TEST_CASE("sharded GPU path over one NCCL rank: answers as one model, a refused restore put back",
          "[gpu][shard]") {
  require_gpus(1);
  if (!HS_WITH_NCCL) SKIP("this build has no NCCL: the sharded GPU path needs it");
  std::uint64_t seed = 301;
  for (const table_config& cfg : test::shard_variants(backend::gpu, std::uint64_t{1} << 16)) {
    INFO(describe_config(cfg) << " over one NCCL rank");
    with_key_width(cfg.width, [&](auto key) {
      using K = decltype(key);
      auto t = make_one_rank_table<K, value_of_key<K>>(cfg);
      t->set_chunk_keys(512);  // batches of 2000 in four pipelined chunks
      test::answer_as_model<K>(*t, cfg, ++seed, true);
      table_state st = t->save_state({});
      const auto now = test::contents<K, K>(*t);
      for (state_part& part : st.parts)
        if (part.name.starts_with("shard0.")) part.name.insert(7, "lost-");
      CHECK_THROWS_WITH(t->restore_state(st, {}),
                        Catch::Matchers::ContainsSubstring("every device keeps the table it had"));
      CHECK(test::contents<K, K>(*t) == now);
    });
  }
}
