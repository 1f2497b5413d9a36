// [gpu][multi] A table across processes, one GPU each (ncclCommInitRank): this test binary starts
// itself once a rank, running the hidden case "[rank-child]" with HS_RANK, HS_RANKS and the id's
// file or port set, as a user's launcher or mpirun would. Each rank runs its share of every batch
// and checks its answers against one CPU model of all the ranks' keys; the parent waits a bounded
// time and reads every rank's exit status and log. Skips, saying why, below two GPUs.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "core/common/device.hpp"
#include "core/shard/rank_table.hpp"
#include "core/table/table_state.hpp"
#include "tests/core/shard/sharded_support.hpp"

extern char** environ;

using namespace hs;
using Catch::Matchers::ContainsSubstring;

namespace {

struct rank_run {
  int exit_code = -1;  ///< -1: killed at the time limit
  std::string log;
};

std::filesystem::path fresh_dir() {
  const auto d = std::filesystem::temp_directory_path() /
                 ("hs-ranks-" + std::to_string(getpid()) + "-" +
                  std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::filesystem::create_directories(d);
  return d;
}

/// Starts this binary's "[rank-child]" case once a rank with `vars` added to the environment, and
/// waits at most limit_s for all of them (killing the rest then).
std::vector<rank_run> run_ranks(std::uint32_t n, std::map<std::string, std::string> vars,
                                const std::filesystem::path& dir, int limit_s) {
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  std::vector<pid_t> pids(n, -1);
  std::vector<rank_run> runs(n);
  vars["HS_RANKS"] = std::to_string(n);
  vars["NCCL_NVLS_ENABLE"] = "0";  // never NVLink multicast on the shared hosts
  for (std::uint32_t r = 0; r < n; ++r) {
    vars["HS_RANK"] = std::to_string(r);
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
      const std::string one = *e;
      if (!vars.count(one.substr(0, one.find('=')))) env.push_back(one);
    }
    for (const auto& [k, v] : vars) env.push_back(k + "=" + v);
    std::vector<char*> envp;
    for (std::string& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::string spec = "[rank-child]";
    char* argv[] = {const_cast<char*>(self.c_str()), spec.data(), nullptr};
    const std::string log = (dir / ("rank" + std::to_string(r) + ".log")).string();
    posix_spawn_file_actions_t io;
    posix_spawn_file_actions_init(&io);
    posix_spawn_file_actions_addopen(&io, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&io, 1, 2);
    REQUIRE(posix_spawn(&pids[r], self.c_str(), &io, nullptr, argv, envp.data()) == 0);
    posix_spawn_file_actions_destroy(&io);
  }
  const auto start = std::chrono::steady_clock::now();
  std::uint32_t left = n;
  while (left > 0) {
    for (std::uint32_t r = 0; r < n; ++r) {
      int status = 0;
      if (pids[r] < 0 || waitpid(pids[r], &status, WNOHANG) != pids[r]) continue;
      runs[r].exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      pids[r] = -1;
      --left;
    }
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(limit_s)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (std::uint32_t r = 0; r < n; ++r) {
    if (pids[r] >= 0) {  // still running at the limit: a hang, which the test reports
      kill(pids[r], SIGKILL);
      waitpid(pids[r], nullptr, 0);
    }
    std::ifstream in(dir / ("rank" + std::to_string(r) + ".log"));
    std::ostringstream text;
    text << in.rdbuf();
    runs[r].log = text.str();
  }
  return runs;
}

void require_gpus(int n) {
  const int have = gpu_count();
  if (have < n)
    SKIP("needs " + std::to_string(n) + " GPUs; this machine has " + std::to_string(have));
}

void check_all_passed(const std::vector<rank_run>& runs) {
  for (std::size_t r = 0; r < runs.size(); ++r) {
    INFO("rank " << r << " exited " << runs[r].exit_code << "; its log:\n" << runs[r].log);
    CHECK(runs[r].exit_code == 0);
    CHECK_THAT(runs[r].log, ContainsSubstring("All tests passed"));
  }
}

bool mine(std::size_t i, const rank_join& j) { return test::rank_owns(i, j.rank, j.ranks); }

template <class T>
std::vector<T> share_of(const std::vector<T>& all, const rank_join& j) {
  return test::share_of(all, j.rank, j.ranks);
}

/// One rank's side of compare_with_model (sharded_support.hpp): every rank plays every batch on
/// the model and its own share on the table, and checks its share's answers.
template <class K>
void compare_rank_with_model(const table_config& cfg, const rank_join& join, std::uint64_t seed) {
  table_config model_cfg = cfg;
  model_cfg.backend = backend::cpu;
  auto model = make_table(model_cfg);
  auto t = make_rank_table(cfg, join);
  as_sharded(*t)->set_chunk_keys(256 + 128 * join.rank);  // the ranks take rank 0's
  const std::vector<K> pool = test::key_pool<K>(3000, seed);
  for (int round = 0; round < 6; ++round) {
    const auto b = test::random_mix<K>(pool, 2000, seed * 31 + round, true);
    const auto want = test::apply<K, K>(*model, b.kinds, b.keys, b.values);
    const auto got = test::apply<K, K>(*t, share_of(b.kinds, join), share_of(b.keys, join),
                                       share_of(b.values, join));
    INFO("round " << round);
    REQUIRE(got.status == share_of(want.status, join));
    REQUIRE(got.values == share_of(want.values, join));
    // This rank's row of the exchange matrix holds its share, and its phases were timed.
    const batch_exchange x = as_sharded(*t)->last_exchange();
    std::uint64_t sent = 0;
    for (std::uint32_t j = 0; j < join.ranks; ++j) sent += x.keys_from_to(join.rank, j);
    CHECK(sent == share_of(b.keys, join).size());
    const auto& ms = x.phase_ms[join.rank];
    CHECK(ms[static_cast<int>(shard_phase::partition)] > 0);
    CHECK(ms[static_cast<int>(shard_phase::table)] > 0);
  }
  const std::vector<K> first(pool.begin(), pool.begin() + 500);
  const std::vector<K> some = share_of(first, join);
  std::vector<K> others;  // the other ranks' share of the erases, which the model plays too
  for (std::size_t i = 0; i < first.size(); ++i)
    if (!mine(i, join)) others.push_back(first[i]);
  CHECK(test::find<K>(*t, some).status == test::find<K>(*model, some).status);
  const std::vector<K> only_rank_0 = join.rank == 0 ? some : std::vector<K>{};  // others: none
  CHECK(test::find<K>(*t, only_rank_0).status == test::find<K>(*model, only_rank_0).status);
  {  // rank 1's spans do not match: every rank refuses the batch, and the table goes on
    const auto k = test::to_space(t->space(), some);
    const auto v = test::to_space(t->space(), std::vector<K>(some.size() - (join.rank == 1), 7));
    CHECK_THROWS_WITH(t->insert(k.cspan(), v.cspan(), {}, {}),
                      ContainsSubstring("rank 1 refused this batch, so no rank ran it"));
  }
  CHECK(test::erase<K>(*t, some) == test::erase<K>(*model, some));
  test::erase<K>(*model, others);
  const table_stats a = t->stats({}), m = model->stats({});  // every rank's shard, gathered
  CHECK(a.live == m.live);
  CHECK(a.live > 500);
  std::vector<std::pair<K, K>> owned;  // the model's pairs this rank owns: its shard's contents
  for (const auto& pair : test::contents<K, K>(*model))
    if (owner_of(as_sharded(*t)->map(), pair.first) == join.rank) owned.push_back(pair);
  CHECK(test::contents<K, K>(*t) == owned);
  CHECK_THROWS_WITH(t->save_state({}), ContainsSubstring("needs every shard in one process"));
}

}  // namespace

TEST_CASE("one rank of a table across processes (started by the cases below)", "[.][rank-child]") {
  const auto join = rank_join_from_environment(gpu_count());
  REQUIRE(join);
  const device_scope on(join->device);  // this rank's keys live on its GPU
  const std::string mode = std::getenv("HS_RANK_TEST") ? std::getenv("HS_RANK_TEST") : "";
  if (mode == "die") {
    auto t = make_rank_table(test::shard_config("linear", backend::gpu, 1 << 16), *join);
    if (join->rank == 1) std::_Exit(3);  // as a crash would: no goodbye to the others
    const auto keys = test::random_keys(1 << 14, 9);
    const auto values = test::random_values(1 << 14, 10);
    CHECK_THROWS_WITH(test::insert(*t, keys, values),
                      ContainsSubstring("NCCL exchange stopped: rank 0 (GPU"));
    CHECK_THROWS_WITH(test::insert(*t, keys, values), ContainsSubstring("runs no more batches"));
    return;
  }
  std::uint64_t seed = 700;
  for (const table_config& cfg : test::shard_variants(backend::gpu, std::uint64_t{1} << 16)) {
    INFO(describe_config(cfg) << " as rank " << join->rank << " of " << join->ranks);
    with_key_width(cfg.width,
                   [&](auto key) { compare_rank_with_model<decltype(key)>(cfg, *join, ++seed); });
  }
}

TEST_CASE("sharded GPUs across processes: 2 and 4 ranks answer as one model",
          "[gpu][multi][shard][ranks]") {
  require_gpus(2);
  for (const std::uint32_t n : {2u, 4u}) {
    if (gpu_count() < static_cast<int>(n)) continue;
    INFO(n << " ranks, the id in a file");
    const auto dir = fresh_dir();
    check_all_passed(run_ranks(n, {{"HS_NCCL_ID_FILE", (dir / "id").string()}}, dir, 600));
    std::filesystem::remove_all(dir);
  }
}

TEST_CASE("sharded GPUs across processes: the id through a port, NCCL over sockets",
          "[gpu][multi][shard][ranks]") {
  require_gpus(2);
  const auto dir = fresh_dir();
  const int port = 20000 + getpid() % 20000;
  const auto runs = run_ranks(2,
                              {{"HS_NCCL_ID_ADDRESS", "127.0.0.1:" + std::to_string(port)},
                               {"NCCL_P2P_DISABLE", "1"},
                               {"NCCL_SHM_DISABLE", "1"},
                               {"NCCL_SOCKET_IFNAME", "lo"},
                               {"NCCL_DEBUG", "INFO"}},
                              dir, 600);
  check_all_passed(runs);
  CHECK_THAT(runs[0].log, ContainsSubstring("via NET/Socket"));  // the network's stand-in ran
  std::filesystem::remove_all(dir);
}

TEST_CASE("sharded GPUs across processes: a rank that dies stops the others, bounded and named",
          "[gpu][multi][shard][ranks]") {
  require_gpus(2);
  const auto dir = fresh_dir();
  const auto runs = run_ranks(2,
                              {{"HS_NCCL_ID_FILE", (dir / "id").string()},
                               {"HS_RANK_TEST", "die"},
                               {"HS_JOIN_WAIT_S", "10"}},
                              dir, 180);
  INFO("rank 0's log:\n" << runs[0].log);
  CHECK(runs[1].exit_code == 3);
  CHECK(runs[0].exit_code == 0);
  CHECK_THAT(runs[0].log, ContainsSubstring("All tests passed"));
  std::filesystem::remove_all(dir);
}
