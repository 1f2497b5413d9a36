// [gpu] The GPU slab hash against the CPU model: every operation, each tile size, random and
// adversarial input (one hot bucket, long lists, duplicate-heavy multi mode, delete everything
// then FLUSH, a pool near exhaustion, a pool that grows under inserts from several streams, mixed
// batches holding every operation kind in each warp).
// Within one batch GPU operations run in no defined order, so batches are built so that their
// outcome does not depend on it, or compared as multisets.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include "tests/core/slab/slab_test_support.hpp"

using namespace hs;

namespace {

struct slab_pair {
  std::unique_ptr<table> gpu, model;
  explicit slab_pair(const table_config& gpu_cfg) {
    gpu = make_table(gpu_cfg);
    table_config m = gpu_cfg;
    m.backend = backend::cpu;
    model = make_table(m);
  }
  void check() {
    const auto r = test::slab_check(*gpu);
    INFO(r.describe());
    CHECK(r.ok());
    CHECK(test::slab_multiset(*gpu) == test::slab_multiset(*model));
  }
};

}  // namespace

TEST_CASE("slab: bulk REPLACE, SEARCH and DELETE agree with the model", "[gpu][slab]") {
  test::require_gpu();
  const int tile = GENERATE(2, 4, 8, 16, 32);
  const hash_kind hash = GENERATE(hash_kind::universal, hash_kind::murmur3);
  const double beta = GENERATE(0.5, 3.0);
  CAPTURE(tile, to_string(hash), beta);
  const std::size_t n = 200000;
  slab_pair p(test::slab_config(backend::gpu, static_cast<std::uint64_t>(n / (15 * beta)),
                                slab_mode::unique, hash, tile));
  const auto keys = test::random_keys(n, 31 + tile);
  const auto values = test::random_values(n, 41);
  CHECK(test::insert(*p.gpu, keys, values) == test::insert(*p.model, keys, values));
  p.check();
  // Replacing half of them, and finds of present and absent keys.
  std::vector<key_type> half(keys.begin(), keys.begin() + n / 2);
  const auto v2 = test::random_values(n / 2, 42);
  const auto st = test::insert(*p.gpu, half, v2);
  CHECK(std::count(st.begin(), st.end(), op_status::replaced) == static_cast<long>(n / 2));
  test::insert(*p.model, half, v2);
  auto queries = keys;
  const auto absent = test::random_keys(n, 999);
  queries.insert(queries.end(), absent.begin(), absent.begin() + 50000);
  const auto gf = test::find(*p.gpu, queries), mf = test::find(*p.model, queries);
  CHECK(gf.status == mf.status);
  CHECK(gf.values == mf.values);
  // Deletes leave tombstones; the stats and both tables agree.
  std::vector<key_type> gone(keys.begin() + n / 4, keys.begin() + n / 2);
  CHECK(test::erase(*p.gpu, gone) == test::erase(*p.model, gone));
  CHECK(p.gpu->stats({}).tombstones == gone.size());
  p.check();
  const auto g2 = test::find(*p.gpu, keys), m2 = test::find(*p.model, keys);
  CHECK(g2.status == m2.status);
}

TEST_CASE("slab: one hot bucket builds a long list without losing a key", "[gpu][slab]") {
  test::require_gpu();
  const int tile = GENERATE(8, 32);
  slab_pair p(test::slab_config(backend::gpu, 1, slab_mode::unique, hash_kind::universal, tile));
  const auto keys = test::random_keys(30000, 51);  // 2000 slabs in one list, 30,000 racing tiles
  const auto values = test::random_values(30000, 52);
  CHECK(test::insert(*p.gpu, keys, values) == test::insert(*p.model, keys, values));
  CHECK(p.gpu->stats({}).slab.longest_chain == 2000);
  p.check();
}

TEST_CASE("slab: duplicate keys in one batch are stored once in unique mode", "[gpu][slab]") {
  test::require_gpu();
  slab_pair p(test::slab_config(backend::gpu, 64, slab_mode::unique, hash_kind::universal,
                                GENERATE(8, 32)));
  std::vector<key_type> keys;
  for (int r = 0; r < 40; ++r)
    for (key_type k = 1; k <= 500; ++k) keys.push_back(k);  // each key 40 times in one batch
  const auto values = test::random_values(keys.size(), 61);
  const auto st = test::insert(*p.gpu, keys, values);
  CHECK(std::count(st.begin(), st.end(), op_status::inserted) == 500);
  CHECK(std::count(st.begin(), st.end(), op_status::replaced) == 19500);
  const auto r = test::slab_check(*p.gpu);
  INFO(r.describe());
  CHECK(r.ok());
  CHECK(r.live == 500);
}

TEST_CASE("slab: multi mode keeps every duplicate; COUNT, SEARCHALL, DELETE and DELETEALL agree",
          "[gpu][slab]") {
  test::require_gpu();
  const int tile = GENERATE(2, 4, 8, 16, 32);
  slab_pair p(test::slab_config(backend::gpu, 200, slab_mode::multi, hash_kind::universal, tile));
  std::vector<key_type> keys;
  for (int i = 0; i < 30000; ++i)
    keys.push_back(1 + (i * 7919u) % 3000);  // 3000 keys, 10 copies each
  const auto values = test::random_values(keys.size(), 71);
  CHECK(test::insert(*p.gpu, keys, values) == test::insert(*p.model, keys, values));
  p.check();
  std::vector<key_type> q;
  for (key_type k = 1; k <= 3100; ++k) q.push_back(k);
  CHECK(test::slab_count(*p.gpu, q) == test::slab_count(*p.model, q));
  const auto ga = slab::search_all_host(test::slab_of(*p.gpu), q, {});
  const auto ma = slab::search_all_host(test::slab_of(*p.model), q, {});
  CHECK(ga.counts == ma.counts);
  CHECK(ga.offsets == ma.offsets);
  for (std::size_t i = 0; i < q.size(); ++i) {  // the same values per key (list order may differ)
    std::vector<value_type> a(ga.values.begin() + ga.offsets[i],
                              ga.values.begin() + ga.offsets[i + 1]);
    std::vector<value_type> b(ma.values.begin() + ma.offsets[i],
                              ma.values.begin() + ma.offsets[i + 1]);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a == b);
  }
  // One DELETE per key, then DELETEALL of a third.
  std::vector<key_type> once(q.begin(), q.begin() + 3000);
  CHECK(test::erase(*p.gpu, once) == test::erase(*p.model, once));
  std::vector<key_type> third(q.begin(), q.begin() + 1000);
  CHECK(test::slab_erase_all(*p.gpu, third) == test::slab_erase_all(*p.model, third));
  CHECK(test::slab_count(*p.gpu, q) == test::slab_count(*p.model, q));
  const auto r = test::slab_check(*p.gpu);
  INFO(r.describe());
  CHECK(r.ok());
  CHECK(r.live == 2000 * 9);
}

TEST_CASE("slab: FLUSH compacts lists and returns slabs; delete everything then FLUSH",
          "[gpu][slab]") {
  test::require_gpu();
  const slab_mode mode = GENERATE(slab_mode::unique, slab_mode::multi);
  slab_pair p(test::slab_config(backend::gpu, 3000, mode, hash_kind::universal, 16));
  const auto keys = test::random_keys(150000, 81);
  test::insert(*p.gpu, keys, test::random_values(150000, 82));
  test::insert(*p.model, keys, test::random_values(150000, 82));
  std::vector<key_type> gone;
  for (std::size_t i = 0; i < keys.size(); i += 3)
    gone.push_back(keys[i]), gone.push_back(keys[i + 1]);
  test::erase(*p.gpu, gone);
  test::erase(*p.model, gone);
  test::slab_of(*p.gpu).flush({});
  test::slab_of(*p.model).flush({});
  {
    const auto r = test::slab_check(*p.gpu, true);
    INFO(r.describe());
    CHECK(r.ok());
  }
  CHECK(test::slab_multiset(*p.gpu) == test::slab_multiset(*p.model));
  const table_stats st = p.gpu->stats({});
  CHECK(st.slab.chained_slabs ==
        p.model->stats({}).slab.chained_slabs);             // minimal lists are unique
  CHECK(st.slab.allocated_slabs == st.slab.chained_slabs);  // no slab leaked
  // What FLUSH freed is reused by later inserts.
  const auto more = test::random_keys(50000, 83);
  test::insert(*p.gpu, more, test::random_values(50000, 84));
  CHECK(test::slab_check(*p.gpu).ok());

  test::erase(*p.gpu, keys);
  test::erase(*p.gpu, more);
  test::slab_of(*p.gpu).flush({});
  const auto r = test::slab_check(*p.gpu, true);
  INFO(r.describe());
  CHECK(r.ok());
  CHECK(r.live == 0);
  CHECK(p.gpu->stats({}).slab.chained_slabs == 0);
  CHECK(slab::census(test::slab_of(*p.gpu).snapshot({})).allocated == 0);
}

TEST_CASE("slab: a pool near exhaustion fails inserts with a status and never loses a key",
          "[gpu][slab]") {
  test::require_gpu();
  // At most 4096 slabs: 4 buckets can hold (4 + 4096) * 15 pairs; offer more.
  slab_pair p(test::slab_config(backend::gpu, 4, slab_mode::unique, hash_kind::universal,
                                GENERATE(8, 32), 4096, 4096));
  const auto keys = test::random_keys(90000, 91);
  const auto st = test::insert(*p.gpu, keys, test::random_values(90000, 92));
  const auto failed = std::count(st.begin(), st.end(), op_status::failed_full);
  const auto inserted = std::count(st.begin(), st.end(), op_status::inserted);
  CHECK(failed + inserted == 90000);
  CHECK(failed > 0);
  const table_stats s = p.gpu->stats({});
  CHECK(s.failed_full == static_cast<std::uint64_t>(failed));
  CHECK(s.slab.alloc_failures >= static_cast<std::uint64_t>(failed));
  CHECK(s.slab.pool_slabs == 4096);
  // Exhaustion means every slab is taken: nothing was refused while room remained.
  CHECK(slab::census(test::slab_of(*p.gpu).snapshot({})).allocated == 4096);
  const auto found = test::find(*p.gpu, keys);
  for (std::size_t i = 0; i < keys.size(); ++i)
    if ((found.status[i] == op_status::found) != (st[i] == op_status::inserted))
      FAIL("key " << keys[i] << " lost or invented");
  const auto r = test::slab_check(*p.gpu);
  INFO(r.describe());
  CHECK(r.ok());
}

// Every tile walks one list to the same tail, so nearly every allocation loses the race to link
// its slab, and the pool runs out while hundreds of tiles still allocate. A refusal must mean that
// no slab is free, whatever the schedule: repeated over fresh keys and both tile widths, and under
// compute-sanitizer's schedules (scripts/gpu-sanitize). Under racecheck it failed while a scan
// could miss a slab that a race's loser freed after the scan had passed its block.
TEST_CASE("slab: tiles racing for the last slabs of one list fail only when none is free",
          "[gpu][slab]") {
  test::require_gpu();
  const int tile = GENERATE(8, 32);
  CAPTURE(tile);
  auto t = make_table(test::slab_config(backend::gpu, 1, slab_mode::unique, hash_kind::universal,
                                        tile, 2048, 2048));
  for (std::uint64_t round = 0; round < 6; ++round) {
    CAPTURE(round);
    t->clear({});
    // (1 + 2048) * 15 pairs fit in the one list (two memory blocks); offer more.
    const auto keys = test::random_keys(32000, 500 + round);
    const auto st = test::insert(*t, keys, test::random_values(keys.size(), 600 + round));
    const auto failed = std::count(st.begin(), st.end(), op_status::failed_full);
    CHECK(failed + std::count(st.begin(), st.end(), op_status::inserted) ==
          static_cast<std::ptrdiff_t>(keys.size()));
    REQUIRE(failed > 0);
    CHECK(slab::census(test::slab_of(*t).snapshot({})).allocated == 2048);
    const auto found = test::find(*t, keys);
    for (std::size_t i = 0; i < keys.size(); ++i)
      if ((found.status[i] == op_status::found) != (st[i] == op_status::inserted))
        FAIL("key " << keys[i] << " lost or invented");
    const auto r = test::slab_check(*t);
    INFO(r.describe());
    REQUIRE(r.ok());
  }
}

TEST_CASE("slab: the pool grows when the slabs in use near its size", "[gpu][slab]") {
  test::require_gpu();
  slab_pair p(
      test::slab_config(backend::gpu, 100, slab_mode::unique, hash_kind::universal, 16, 4096));
  const auto keys = test::random_keys(600000, 95);  // ~40,000 slabs: ten times the first pool
  for (std::size_t i = 0; i < keys.size(); i += 100000) {
    std::vector<key_type> k(keys.begin() + i, keys.begin() + i + 100000);
    const auto st = test::insert(*p.gpu, k, test::random_values(100000, i));
    CHECK(std::count(st.begin(), st.end(), op_status::inserted) == 100000);
  }
  const table_stats s = p.gpu->stats({});
  CHECK(s.live == 600000);
  CHECK(s.slab.super_blocks > 4);
  CHECK(test::slab_check(*p.gpu).ok());
}

TEST_CASE(
    "slab: inserts from several streams, launched without waiting, keep the pool ahead of them",
    "[gpu][slab]") {
  test::require_gpu();
  // ~40,000 slabs from a pool of 4096, in 4 streams x 6 batches launched round-robin: the bound
  // on allocated slabs is tightened by counts that come back without a wait, and each count must
  // cover the other streams' inserts in flight, or a batch would run out of slabs.
  slab_pair p(
      test::slab_config(backend::gpu, 100, slab_mode::unique, hash_kind::universal, 16, 4096));
  const int streams = 4, rounds = 6;
  const std::size_t per_batch = 25000;
  const auto keys = test::random_keys(per_batch * streams * rounds, 97);
  const auto values = test::random_values(keys.size(), 98);
  std::vector<owned_stream> ss;
  std::vector<buffer<key_type>> kb;
  std::vector<buffer<value_type>> vb;
  std::vector<buffer<op_status>> sb;
  const std::size_t part = per_batch * rounds;
  for (int i = 0; i < streams; ++i) {
    ss.emplace_back(true);
    kb.push_back(test::to_space(
        memory_space::device,
        std::vector<key_type>(keys.begin() + i * part, keys.begin() + (i + 1) * part)));
    vb.push_back(test::to_space(
        memory_space::device,
        std::vector<value_type>(values.begin() + i * part, values.begin() + (i + 1) * part)));
    sb.emplace_back(memory_space::device, part);
  }
  synchronize({});  // the uploads ran on the default stream
  for (int round = 0; round < rounds; ++round)
    for (int i = 0; i < streams; ++i)
      p.gpu->insert(kb[i].cspan().subspan(round * per_batch, per_batch),
                    vb[i].cspan().subspan(round * per_batch, per_batch),
                    sb[i].span().subspan(round * per_batch, per_batch), ss[i].view());
  std::uint64_t inserted = 0;
  for (int i = 0; i < streams; ++i) {
    synchronize(ss[i].view());
    for (op_status st : sb[i].download()) inserted += st == op_status::inserted;
  }
  CHECK(inserted == keys.size());
  test::insert(*p.model, keys, values);
  const table_stats st = p.gpu->stats({});
  CHECK(st.live == keys.size());
  CHECK(st.slab.alloc_failures == 0);
  CHECK(st.slab.super_blocks > 4);
  p.check();
}

TEST_CASE("slab: mixed batches with every operation kind in each warp", "[gpu][slab]") {
  test::require_gpu();
  const int tile = GENERATE(2, 4, 8, 16, 32);
  const slab_mode mode = GENERATE(slab_mode::unique, slab_mode::multi);
  CAPTURE(tile, to_string(mode));
  slab_pair p(test::slab_config(backend::gpu, 2000, mode, hash_kind::universal, tile));
  const auto base = test::random_keys(60000, 101);  // present before the batch
  const auto fresh = test::random_keys(200000, 102);
  std::vector<key_type> pre(base.begin(), base.begin() + 40000);
  const auto pv = test::random_values(pre.size(), 103);
  test::insert(*p.gpu, pre, pv);
  test::insert(*p.model, pre, pv);
  // Each key appears once in the batch: inserts of new keys, finds of present and absent keys,
  // erases of other present keys, interleaved so every warp holds all kinds.
  std::vector<op_kind> kinds;
  std::vector<key_type> keys;
  std::size_t ins = 0, hit = 0, miss = 0, del = 20000;
  for (std::size_t i = 0; i < 80000; ++i) {
    switch (i % 4) {
      case 0: kinds.push_back(op_kind::insert), keys.push_back(fresh[ins++]); break;
      case 1: kinds.push_back(op_kind::find), keys.push_back(pre[hit++]); break;
      case 2: kinds.push_back(op_kind::find), keys.push_back(fresh[100000 + miss++]); break;
      default: kinds.push_back(op_kind::erase), keys.push_back(pre[del++]); break;
    }
  }
  const auto values = test::random_values(keys.size(), 104);
  const auto g = test::apply(*p.gpu, kinds, keys, values);
  const auto m = test::apply(*p.model, kinds, keys, values);
  CHECK(g.status == m.status);
  CHECK(g.values == m.values);
  p.check();
}

TEST_CASE("slab: rehash to another bucket count keeps every pair", "[gpu][slab]") {
  test::require_gpu();
  slab_pair p(test::slab_config(backend::gpu, 500, slab_mode::multi, hash_kind::universal, 16));
  auto keys = test::random_keys(100000, 111);
  keys.insert(keys.end(), keys.begin(), keys.begin() + 20000);
  const auto values = test::random_values(keys.size(), 112);
  test::insert(*p.gpu, keys, values);
  const auto before = test::slab_multiset(*p.gpu);
  p.gpu->rehash(15 * 8000, {});
  CHECK(p.gpu->config().slab.buckets == 8000);
  CHECK(test::slab_multiset(*p.gpu) == before);
  CHECK(test::slab_check(*p.gpu).ok());
}

TEST_CASE("slab: inspection on the GPU matches the model's", "[gpu][slab]") {
  test::require_gpu();
  slab_pair p(test::slab_config(backend::gpu, 700, slab_mode::unique, hash_kind::universal, 32));
  const auto keys = test::random_keys(20000, 121);
  const auto values = test::random_values(20000, 122);
  test::insert(*p.gpu, keys, values);
  test::insert(*p.model, keys, values);
  test::erase(*p.gpu, std::vector<key_type>(keys.begin(), keys.begin() + 3000));
  test::erase(*p.model, std::vector<key_type>(keys.begin(), keys.begin() + 3000));
  // Lists may be ordered differently, but their lengths are the same on both.
  inspect_request req;
  req.slab.chain_lengths = true;
  req.strip = bucket_strip_query{0, 700, 100};
  req.slab.chain_bucket = 5;
  req.slab.allocator = true;
  inspect_result g, m;
  p.gpu->inspect(req, g, {});
  p.model->inspect(req, m, {});
  CHECK(g.slab.chains.counts == m.slab.chains.counts);
  REQUIRE(g.strip.size() == m.strip.size());
  for (std::size_t i = 0; i < g.strip.size(); ++i) {
    CHECK(g.strip[i].mean_chain == m.strip[i].mean_chain);
    CHECK(g.strip[i].max_chain == m.strip[i].max_chain);
  }
  CHECK(g.slab.chain.total == m.slab.chain.total);
  CHECK(g.slab.chain.slabs.size() == m.slab.chain.slabs.size());
  std::uint64_t gs = 0, ms = 0;
  for (auto f : g.slab.allocator.block_fill) gs += f;
  for (auto f : m.slab.allocator.block_fill) ms += f;
  CHECK(gs == ms);
  CHECK(gs == p.gpu->stats({}).slab.chained_slabs);
  const table_stats gst = p.gpu->stats({}), mst = p.model->stats({});
  CHECK(gst.live == mst.live);
  CHECK(gst.tombstones == mst.tombstones);
  CHECK(gst.slab.longest_chain == mst.slab.longest_chain);
  // retrieve_all returns exactly the live pairs.
  CHECK(test::contents(*p.gpu) == test::contents(*p.model));
}

TEST_CASE("slab: reserved keys are rejected on the GPU and counted", "[gpu][slab]") {
  test::require_gpu();
  auto t = make_table(test::slab_config(backend::gpu, 64));
  const std::vector<key_type> keys{k_empty, 5, k_tombstone, 6};
  const std::vector<value_type> values{1, k_empty, 3, 4};
  const auto st = test::insert(*t, keys, values);
  CHECK(st == std::vector<op_status>{op_status::rejected_key, op_status::rejected_value,
                                     op_status::rejected_key, op_status::inserted});
  CHECK(t->stats({}).rejected[int(op_kind::insert)] == 3);
  CHECK(t->stats({}).rejected_total() == 3);
  CHECK(t->stats({}).live == 1);
}
