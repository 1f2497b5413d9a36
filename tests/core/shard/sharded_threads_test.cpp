// A table across processes, played by threads on simulated devices (threaded_ranks.hpp): each
// rank runs its share of every batch, and the shares' answers are one CPU model's; the ranks agree
// on a batch's terms, refuse together, gather their counters; a rehash that one rank's skewed
// shard refuses leaves every rank at its size (two refusing: every rank names the first), and a
// shard that fails inside a batch stops every rank with its reason, none left waiting. The same
// calls across real processes need two GPUs (sharded_ranks_test.cpp); these run in CI.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/table/table_state.hpp"
#include "tests/core/shard/sharded_support.hpp"
#include "tests/core/shard/threaded_ranks.hpp"
#include "tests/support/forwarding_table.hpp"

using namespace hs;
using Catch::Matchers::ContainsSubstring;

namespace {

constexpr std::chrono::milliseconds k_wait{20000};  // a lost rank fails the test, not hangs it

/// What one rank saw of the calls every rank made together.
template <class K>
struct rank_seen {
  std::vector<test::bulk_out<K>> rounds;  ///< its share's answers, a batch a round
  std::vector<std::uint64_t> sent;        ///< keys it sent, a round (its row of the matrix)
  std::vector<op_status> found, erased;   ///< its share of the finds and erases
  std::string refused, save_refused;      ///< what the mismatched batch and save_state threw
  std::uint64_t live = 0;                 ///< every rank's live keys, gathered
  std::vector<std::pair<K, K>> contents;  ///< its own shard's pairs
};

constexpr int k_rounds = 5;

/// A shard whose inserts fail as a lost device's would: what a rank meets inside a batch.
class failing_shard final : public test::forwarding_table {
 public:
  using forwarding_table::forwarding_table;
  void insert(std::span<const key_type>, std::span<const value_type>, std::span<op_status>,
              stream_view) override {
    throw gpu_error("device lost (a test's failing shard)");
  }
};

std::string thrown_by(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

/// Rank r's side: the rounds of mixed batches on its share, then finds, a batch rank 1 gets
/// wrong, erases, the gathered counters and its own shard.
template <class K>
void play_rank(sharded_table<K, K>& t, std::uint32_t r, std::uint32_t n, std::uint64_t seed,
               rank_seen<K>& seen) {
  t.set_chunk_keys(256 + 128 * r);  // each takes rank 0's, or the ranks' steps would not meet
  const std::vector<K> pool = test::key_pool<K>(3000, seed);
  for (int round = 0; round < k_rounds; ++round) {
    const auto b = test::random_mix<K>(pool, 2000, seed * 31 + round, true);
    seen.rounds.push_back(test::apply<K, K>(t, test::share_of(b.kinds, r, n),
                                            test::share_of(b.keys, r, n),
                                            test::share_of(b.values, r, n)));
    const batch_exchange x = t.last_exchange();
    std::uint64_t sent = 0;
    for (std::uint32_t j = 0; j < n; ++j) sent += x.keys_from_to(r, j);
    seen.sent.push_back(sent);
  }
  const std::vector<K> some =
      test::share_of(std::vector<K>(pool.begin(), pool.begin() + 500), r, n);
  seen.found = test::find<K>(t, some).status;
  table& whole = t;
  const auto k = test::to_space(memory_space::host, some);  // simulated devices' memory
  const auto v = test::to_space(memory_space::host, std::vector<K>(some.size() - (r == 1), 7));
  seen.refused = thrown_by([&] { whole.insert(k.cspan(), v.cspan(), {}, {}); });
  seen.erased = test::erase<K>(t, some);
  seen.live = t.stats({}).live;
  seen.contents = test::contents<K, K>(t);
  seen.save_refused = thrown_by([&] { t.save_state({}); });
}

/// The model plays every rank's keys in one batch a round; each rank's answers must be its share.
template <class K>
void ranks_answer_as_model(const table_config& cfg, std::uint32_t n, std::uint64_t seed) {
  const auto meet = std::make_shared<test::rank_rendezvous>(n, k_wait);
  std::vector<rank_seen<K>> seen(n);
  const auto escaped = test::on_rank_threads(n, [&](std::uint32_t r) {
    auto t = test::threaded_rank_table<K>(cfg, meet, r);
    play_rank<K>(*t, r, n, seed, seen[r]);
  });
  table_config model_cfg = cfg;
  model_cfg.devices = 1;
  auto model = make_table(model_cfg);
  const std::vector<K> pool = test::key_pool<K>(3000, seed);
  std::vector<test::bulk_out<K>> want;
  for (int round = 0; round < k_rounds; ++round) {
    const auto b = test::random_mix<K>(pool, 2000, seed * 31 + round, true);
    want.push_back(test::apply<K, K>(*model, b.kinds, b.keys, b.values));
  }
  const std::vector<K> first(pool.begin(), pool.begin() + 500);
  const auto found = test::find<K>(*model, first).status;
  const auto erased = test::erase<K>(*model, first);
  const std::uint64_t live = model->stats({}).live;
  const shard_map map = shard_map::spread(cfg.owner, cfg.hash, n);
  for (std::uint32_t r = 0; r < n; ++r) {
    INFO("rank " << r << " of " << n);
    REQUIRE(escaped[r].empty());
    for (int round = 0; round < k_rounds; ++round) {
      INFO("round " << round);
      CHECK(seen[r].rounds[round].status == test::share_of(want[round].status, r, n));
      CHECK(seen[r].rounds[round].values == test::share_of(want[round].values, r, n));
      CHECK(seen[r].sent[round] == test::share_of(want[round].status, r, n).size());
    }
    CHECK(seen[r].found == test::share_of(found, r, n));
    CHECK(seen[r].erased == test::share_of(erased, r, n));
    CHECK_THAT(seen[r].refused, ContainsSubstring("rank 1 refused this batch, so no rank ran it"));
    CHECK(seen[r].live == live);
    CHECK(live > 500);                   // the comparison ran on a table with keys in it
    std::vector<std::pair<K, K>> owned;  // the model's pairs rank r owns: its shard's contents
    for (const auto& pair : test::contents<K, K>(*model))
      if (owner_of(map, pair.first) == r) owned.push_back(pair);
    CHECK(seen[r].contents == owned);
    CHECK_THAT(seen[r].save_refused, ContainsSubstring("needs every shard in one process"));
  }
}

}  // namespace

TEST_CASE("sharded across simulated processes: every rank's share answers as one model",
          "[shard][ranks]") {
  std::uint64_t seed = 900;
  for (const std::uint32_t n : {2u, 4u})
    for (table_config cfg : test::shard_variants(backend::cpu, std::uint64_t{1} << 14)) {
      cfg.devices = n;
      INFO(describe_config(cfg) << " over " << n << " threads");
      with_key_width(cfg.width,
                     [&](auto key) { ranks_answer_as_model<decltype(key)>(cfg, n, ++seed); });
    }
}

namespace {

/// A shard whose first rehash fails as a device out of memory would.
class rehash_failing_shard final : public test::forwarding_table {
 public:
  using forwarding_table::forwarding_table;
  void rehash(std::uint64_t capacity, stream_view s) override {
    if (!std::exchange(failed_, true)) throw gpu_error("out of memory (a test's failing shard)");
    forwarding_table::rehash(capacity, s);
  }

 private:
  bool failed_ = false;
};

/// What a rank saw of a rehash that device 2 (skewed: its keys do not fit a quarter of the new
/// size) refuses, and device 1 too where `device_1_fails`; then of a rehash that fits.
struct rehash_seen {
  std::string refused;
  bool user = false;  ///< the refusal was an hs::user_error
  std::uint64_t size_after = 0, size_later = 0;
  std::vector<std::pair<key_type, value_type>> before, after;
};

std::vector<rehash_seen> refused_rehash(std::uint32_t n, bool device_1_fails) {
  table_config cfg = test::shard_config("linear", backend::cpu, 1 << 13);
  cfg.devices = n;
  const shard_map map = shard_map::spread(cfg.owner, cfg.hash, n);
  std::vector<key_type> skewed, others;
  for (const key_type k : test::random_keys(20000, 9))
    (owner_of(map, k) == 2 ? skewed : others).push_back(k);
  skewed.resize(1500);  // more than a quarter of 4096 slots, fewer than device 2's 2048
  others.resize(300);
  std::vector<rehash_seen> seen(n);
  const auto meet = std::make_shared<test::rank_rendezvous>(n, k_wait);
  const auto escaped = test::on_rank_threads(n, [&](std::uint32_t r) {
    const auto make = [&](const table_config& one) -> std::unique_ptr<table> {
      if (device_1_fails && r == 1) return std::make_unique<rehash_failing_shard>(make_table(one));
      return make_table(one);
    };
    auto t = test::threaded_rank_table<key_type>(cfg, meet, r, make);
    test::insert(*t, test::share_of(skewed, r, n), test::share_of(skewed, r, n));
    test::insert(*t, test::share_of(others, r, n), test::share_of(others, r, n));
    seen[r].before = test::contents(*t);
    try {  // devices 0, 1 and 3 could shrink to 1024 slots; device 2's 1500 keys cannot
      t->rehash(4096, {});
    } catch (const std::exception& e) {
      seen[r].refused = e.what();
      seen[r].user = dynamic_cast<const user_error*>(&e) != nullptr;
    }
    seen[r].size_after = t->shard(r).capacity();
    seen[r].after = test::contents(*t);
    t->rehash(16384, {});  // a rehash that fits still runs, on every rank
    seen[r].size_later = t->shard(r).capacity();
  });
  for (std::uint32_t r = 0; r < n; ++r) {
    INFO("rank " << r);
    REQUIRE(escaped[r].empty());
    CHECK_THAT(seen[r].refused, ContainsSubstring("every device keeps its keys and its size"));
    CHECK(seen[r].size_after == 2048);
    CHECK(seen[r].after == seen[r].before);
    CHECK(seen[r].before.size() > 50);
    CHECK(seen[r].size_later == 4096);
  }
  return seen;
}

}  // namespace

TEST_CASE(
    "sharded across simulated processes: a rehash one rank refuses leaves every rank its size",
    "[shard][ranks]") {
  const std::vector<rehash_seen> seen = refused_rehash(4, false);
  for (std::uint32_t r = 0; r < seen.size(); ++r) {
    INFO("rank " << r);
    CHECK_THAT(seen[r].refused, ContainsSubstring("device 2 cannot rehash to 1,024 slots"));
    CHECK(seen[r].user);  // the keys do not fit: the user's request, on every rank alike
  }
  CHECK_THAT(seen[1].refused, ContainsSubstring("its process says why"));
  CHECK_THAT(seen[2].refused, !ContainsSubstring("its process says why"));
}

TEST_CASE("sharded across simulated processes: two ranks refuse a rehash, all name the first",
          "[shard][ranks]") {
  // Device 1 fails (out of memory) and device 2 refuses (its keys do not fit): every rank names
  // device 1 with its kind of error, so that no two ranks tell the caller different things.
  const std::vector<rehash_seen> seen = refused_rehash(4, true);
  for (std::uint32_t r = 0; r < seen.size(); ++r) {
    INFO("rank " << r);
    CHECK_THAT(seen[r].refused, ContainsSubstring("device 1 cannot rehash to 1,024 slots"));
    CHECK_FALSE(seen[r].user);
  }
  CHECK_THAT(seen[1].refused, ContainsSubstring("out of memory (a test's failing shard)"));
  CHECK_THAT(seen[2].refused, ContainsSubstring("its process says why"));
}

TEST_CASE("sharded across simulated processes: a shard that fails inside a batch stops every rank",
          "[shard][ranks]") {
  constexpr std::uint32_t n = 2;
  table_config cfg = test::shard_config("linear", backend::cpu, 1 << 12);
  cfg.devices = n;
  std::vector<std::string> first(n), later(n);
  const auto meet = std::make_shared<test::rank_rendezvous>(n, k_wait);
  const auto escaped = test::on_rank_threads(n, [&](std::uint32_t r) {
    const auto make = [r](const table_config& one) -> std::unique_ptr<table> {
      if (r == 1) return std::make_unique<failing_shard>(make_table(one));
      return make_table(one);
    };
    auto t = test::threaded_rank_table<key_type>(cfg, meet, r, make);
    const auto keys = test::share_of(test::random_keys(3000, 5), r, n);
    // Rank 0 waits in the return step for rank 1, whose shard throws: it must hear why at once
    // (rank 1 abandons the exchange), not wait out its bound.
    first[r] = thrown_by([&] { test::insert(*t, keys, keys); });
    later[r] = thrown_by([&] { test::find(*t, keys); });
  });
  for (std::uint32_t r = 0; r < n; ++r) {
    INFO("rank " << r);
    REQUIRE(escaped[r].empty());
    CHECK_THAT(first[r], ContainsSubstring("device lost (a test's failing shard)"));
    CHECK_THAT(later[r], ContainsSubstring("exchange stopped"));
  }
}
