// A sharded table as a whole: regpus keeps every pair and moves about half from 2 to 4 devices;
// a workload whose keys all belong to one device fills that shard and then reports failed_full,
// losing and doubling nothing; states and table files keep their meaning, and a state or a rehash
// one device refuses changes none; bad requests are refused with what is wrong.
#include <filesystem>

#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/common/device.hpp"
#include "core/common/error.hpp"
#include "core/shard/sharded_view.hpp"
#include "core/table/table_file.hpp"
#include "core/table/table_state.hpp"
#include "tests/core/shard/sharded_support.hpp"

using namespace hs;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("sharded: regpus moves whole virtual shards and keeps every pair", "[shard]") {
  for (const table_config& base : test::shard_variants(backend::cpu, std::uint64_t{1} << 14)) {
    if (base.width != key_width::bits32) continue;
    INFO(describe_config(base));
    table_config cfg = base;
    cfg.devices = 2;
    auto t = make_table(cfg);
    const auto keys = test::random_keys(4000, 21);
    test::insert(*t, keys, test::random_values(4000, 22));
    const auto before = test::contents(*t);
    const regpus_result up = as_sharded(*t)->regpus(4, {});
    CHECK(up.from == 2);
    CHECK(up.to == 4);
    CHECK(up.virtual_shards_moved == 128);
    CHECK(up.keys == 4000);
    CHECK(up.keys_moved > 1700);  // about half
    CHECK(up.keys_moved < 2300);
    CHECK(up.bytes_moved == up.keys_moved * 8);
    CHECK(t->stats({}).failed_full == 0);
    CHECK(t->config().devices == 4);
    CHECK(t->capacity() >= cfg.capacity);
    CHECK(test::contents(*t) == before);
    const regpus_result down = as_sharded(*t)->regpus(2, {});
    CHECK(down.keys_moved == up.keys_moved);  // the same shards go back
    CHECK(test::contents(*t) == before);
    CHECK(test::find(*t, keys).status == std::vector<op_status>(4000, op_status::found));
  }
}

TEST_CASE("sharded: keys of one owner fill its shard, then fail full, nothing lost", "[shard]") {
  table_config cfg = test::shard_config("linear", backend::cpu, 1 << 12);
  cfg.devices = 4;
  auto t = make_table(cfg);
  const shard_map& m = as_sharded(*t)->map();
  std::vector<key_type> mine;
  for (const key_type k : test::random_keys(20000, 8))
    if (owner_of(m, k) == 2) mine.push_back(k);
  REQUIRE(mine.size() > 1024 + 100);  // more than device 2's 1024 slots
  const auto status = test::insert(*t, mine, std::vector<value_type>(mine.size(), 7));
  std::size_t inserted = 0, full = 0;
  for (const op_status s : status) {
    inserted += s == op_status::inserted;
    full += s == op_status::failed_full;
  }
  CHECK(inserted == 1024);
  CHECK(full == mine.size() - 1024);
  const table_stats st = t->stats({});
  CHECK(st.live == 1024);
  CHECK(st.failed_full == full);
  const auto found = test::find(*t, mine);
  for (std::size_t i = 0; i < mine.size(); ++i)
    CHECK((found.status[i] == op_status::found) == (status[i] == op_status::inserted));
  CHECK(as_sharded(*t)->shard(2).stats({}).live == 1024);
  CHECK(as_sharded(*t)->shard(0).stats({}).live == 0);
}

TEST_CASE("sharded: a rehash one skewed shard refuses leaves every shard its size", "[shard]") {
  table_config cfg = test::shard_config("linear", backend::cpu, 1 << 13);
  cfg.devices = 4;
  auto t = make_table(cfg);
  sharded_view& v = *as_sharded(*t);
  std::vector<key_type> mine, others;
  for (const key_type k : test::random_keys(20000, 9))
    (owner_of(v.map(), k) == 2 ? mine : others).push_back(k);
  mine.resize(1500);  // more than a quarter of 4096 slots, fewer than device 2's 2048
  others.resize(300);
  test::insert(*t, mine, mine);
  test::insert(*t, others, others);
  const auto before = test::contents<key_type, value_type>(*t);
  // Devices 0 and 1 shrink to 1024 slots before device 2 finds its 1500 keys do not fit.
  CHECK_THROWS_WITH(t->rehash(4096, {}), ContainsSubstring("device 2 cannot rehash") &&
                                             ContainsSubstring("every device keeps"));
  for (std::uint32_t d = 0; d < 4; ++d) CHECK(v.shard(d).capacity() == 2048);
  CHECK(t->config().capacity == 8192);
  CHECK(test::contents<key_type, value_type>(*t) == before);
  t->rehash(16384, {});  // a rehash that fits still runs
  CHECK(v.shard(2).capacity() == 4096);
  CHECK(test::contents<key_type, value_type>(*t) == before);
}

namespace {
/// Runs body(table, config, key) on a table of every variant over 4 simulated devices.
template <class Body>
void over_four_devices(Body body) {
  for (const table_config& base : test::shard_variants(backend::cpu, std::uint64_t{1} << 13)) {
    INFO(describe_config(base));
    table_config cfg = base;
    cfg.devices = 4;
    auto t = make_table(cfg);
    with_key_width(cfg.width, [&](auto key) { body(*t, cfg, key); });
  }
}

/// n keys `step` apart from `from`.
template <class K>
std::vector<K> spaced_keys(std::size_t n, std::uint64_t step, std::uint64_t from) {
  std::vector<K> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<K>(i * step + from);
  return keys;
}
}  // namespace

TEST_CASE("sharded: a state and a table file bring the same table back", "[shard]") {
  over_four_devices([](table& t, const table_config& cfg, auto key) {
    using K = decltype(key);
    const std::vector<K> keys = spaced_keys<K>(1500, 7919, 3);
    test::insert<K, K>(t, keys, keys);
    const auto before = test::contents<K, K>(t);
    const table_state st = t.save_state({});
    t.clear({});
    CHECK(t.stats({}).live == 0);
    t.restore_state(st, {});
    CHECK(test::contents<K, K>(t) == before);
    const auto path = std::filesystem::temp_directory_path() /
                      ("hs_sharded_" + std::to_string(::getpid()) + ".hstable");
    save_table(t, path.string(), {});
    auto back = open_table(path.string(), backend::cpu, {});
    std::filesystem::remove(path);
    CHECK(back->config().devices == 4);
    CHECK(test::contents<K, K>(*back) == before);
    table_config other = cfg;
    other.devices = 2;
    auto two = make_table(other);
    CHECK_THROWS_WITH(two->restore_state(t.save_state({}), {}), ContainsSubstring("4 devices"));
  });
}

TEST_CASE("sharded: a state one device refuses leaves every device's table as it was", "[shard]") {
  over_four_devices([](table& t, const table_config&, auto key) {
    using K = decltype(key);
    const std::vector<K> first = spaced_keys<K>(900, 7919, 3), later = spaced_keys<K>(600, 6151, 5);
    test::insert<K, K>(t, first, first);
    table_state st = t.save_state({});
    test::insert<K, K>(t, later, later);
    const auto now = test::contents<K, K>(t);
    // Device 2's parts go missing: devices 0 and 1 take theirs before it refuses.
    for (state_part& part : st.parts)
      if (part.name.starts_with("shard2.")) part.name.insert(7, "lost-");
    CHECK_THROWS_WITH(
        t.restore_state(st, {}),
        ContainsSubstring("device 2") && ContainsSubstring("every device keeps the table it had"));
    CHECK(test::contents<K, K>(t) == now);
    CHECK(t.stats({}).live == now.size());
  });
}

TEST_CASE("sharded: impossible requests are refused with what is wrong", "[shard]") {
  table_config cfg = test::shard_config("linear", backend::cpu, 1 << 12);
  cfg.devices = 3;
  CHECK_THROWS_WITH(make_table(cfg), ContainsSubstring("do not split into 3 equal shards"));
  cfg.devices = 65;
  CHECK_THROWS_WITH(make_table(cfg), ContainsSubstring("1 to 64 devices"));
#if HS_WITH_CUDA
  cfg.devices = 8;
  cfg.backend = backend::gpu;
  if (gpu_count() < 8)
    CHECK_THROWS_WITH(make_table(cfg), ContainsSubstring("asked for 8 GPUs; this machine has"));
#endif
}

TEST_CASE("sharded: the occupancy grid over every shard adds up to the table's keys", "[shard]") {
  table_config cfg = test::shard_config("linear", backend::cpu, 1 << 12);
  cfg.devices = 4;
  auto t = make_table(cfg);
  test::insert(*t, test::random_keys(1500, 41), test::random_values(1500, 42));
  const auto grid = [&](std::uint64_t first, std::uint64_t count, std::uint32_t w,
                        std::uint32_t h) {
    std::vector<occupancy_pixel> px(std::size_t{w} * h);
    inspect_request req;
    req.occupancy = occupancy_query{first, count, w, h, px.data()};
    inspect_result out;
    t->inspect(req, out, {});
    double live = 0;
    for (std::uint64_t p = 0; p < px.size(); ++p) {
      std::uint64_t lo, hi;
      pixel_slot_range(*req.occupancy, p, lo, hi);
      if (px[p].mean_displacement != k_no_slot)
        live += px[p].live * double(std::min<std::uint64_t>(hi, 4096) - lo);
    }
    return std::pair{live, px};
  };
  // 185 pixels of about 22 slots, their edges nowhere near the shards' edges: a pixel across two
  // shards shows the first one's part of it, so the sum is within a few keys.
  CHECK(std::abs(grid(0, 4096, 37, 5).first - 1500) < 15);
  // Zoomed over the end of shard 2 and the start of shard 3, with pixels to spare past the end.
  const auto [live, px] = grid(3000, 200, 20, 12);
  CHECK(live > 40);
  CHECK(px.back().mean_displacement == k_no_slot);
}

TEST_CASE("sharded: a refused regpus leaves the table, low-bits owners restore", "[shard]") {
  table_config cfg = test::shard_config("linear", backend::cpu, 1 << 12);
  cfg.devices = 4;
  cfg.owner = owner_bits::low_bits;
  auto t = make_table(cfg);
  test::insert(*t, test::random_keys(800, 61), test::random_values(800, 62));
  const auto before = test::contents(*t);
  CHECK_THROWS_WITH(as_sharded(*t)->regpus(3, {}), ContainsSubstring("3 equal shards"));
  CHECK_THROWS_WITH(as_sharded(*t)->regpus(512, {}), ContainsSubstring("1 to 64 devices"));
  CHECK(t->config().devices == 4);
  CHECK(test::contents(*t) == before);
  // A grown table moves at its new capacity, not the one it was made with.
  t->rehash(1 << 13, {});
  const regpus_result r = as_sharded(*t)->regpus(2, {});
  CHECK(t->stats({}).failed_full == 0);
  CHECK(t->capacity() == (1u << 13));
  CHECK(test::contents(*t) == before);
  const table_state st = t->save_state({});
  t->clear({});
  t->restore_state(st, {});  // the shards keep the whole's owner rule out of their own configs
  CHECK(test::contents(*t) == before);
  CHECK(t->retrieve_all(std::span<key_type>{}, std::span<value_type>{}, {}) == 800);
}
