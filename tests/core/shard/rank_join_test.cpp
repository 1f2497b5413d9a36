// How a process learns its rank and gets rank 0's NCCL id (core/shard/rank_join.hpp): the
// environment of HashScope's own variables and of mpirun and Slurm, with clear errors for bad
// ones; the id through a file and through a port, to every rank; and bounded waits that say what
// they waited for. No GPU needed: the id is bytes.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <thread>

#include "core/common/error.hpp"
#include "core/shard/rank_join.hpp"

using namespace hs;
using Catch::Matchers::ContainsSubstring;

namespace {

const char* const k_variables[] = {"HS_RANK",
                                   "HS_RANKS",
                                   "OMPI_COMM_WORLD_RANK",
                                   "OMPI_COMM_WORLD_SIZE",
                                   "OMPI_COMM_WORLD_LOCAL_RANK",
                                   "PMI_RANK",
                                   "PMI_SIZE",
                                   "MPI_LOCALRANKID",
                                   "SLURM_PROCID",
                                   "SLURM_NTASKS",
                                   "SLURM_LOCALID",
                                   "HS_NCCL_ID_FILE",
                                   "HS_NCCL_ID_ADDRESS",
                                   "HS_DEVICE",
                                   "HS_JOIN_WAIT_S"};

/// Sets exactly `vars` among the join's variables for its lifetime, then puts back what was there.
class environment {
 public:
  explicit environment(const std::map<std::string, std::string>& vars) {
    for (const char* name : k_variables) {
      if (const char* v = std::getenv(name)) before_[name] = v;
      unsetenv(name);
    }
    for (const auto& [name, value] : vars) setenv(name.c_str(), value.c_str(), 1);
  }
  ~environment() {
    for (const char* name : k_variables) unsetenv(name);
    for (const auto& [name, value] : before_) setenv(name.c_str(), value.c_str(), 1);
  }

 private:
  std::map<std::string, std::string> before_;
};

std::vector<char> some_id() {
  std::vector<char> id(128);
  for (std::size_t i = 0; i < id.size(); ++i) id[i] = static_cast<char>(i * 7 + 3);
  return id;
}

/// A port on localhost that nothing listens on now.
int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

std::string fresh_path(const std::string& name) {
  const auto p =
      std::filesystem::temp_directory_path() / ("hs-join-" + std::to_string(getpid()) + "-" + name);
  std::filesystem::remove(p);
  return p.string();
}

}  // namespace

TEST_CASE("rank join: no rank variable, no join", "[shard][ranks]") {
  const environment env({});
  CHECK_FALSE(rank_join_from_environment(4));
}

TEST_CASE("rank join: HashScope's variables, mpirun's and Slurm's", "[shard][ranks]") {
  SECTION("HS_RANK and a file") {
    const environment env({{"HS_RANK", "2"}, {"HS_RANKS", "4"}, {"HS_NCCL_ID_FILE", "/tmp/x"}});
    const auto j = rank_join_from_environment(4);
    REQUIRE(j);
    CHECK(j->rank == 2);
    CHECK(j->ranks == 4);
    CHECK(j->device == 2);
    CHECK(j->id_file == "/tmp/x");
    CHECK(j->source == "HS_RANK");
  }
  SECTION("Open MPI's local rank picks the GPU among those the process sees") {
    const environment env({{"OMPI_COMM_WORLD_RANK", "5"},
                           {"OMPI_COMM_WORLD_SIZE", "8"},
                           {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                           {"HS_NCCL_ID_ADDRESS", "node0:29500"},
                           {"HS_JOIN_WAIT_S", "9"}});
    const auto j = rank_join_from_environment(4);
    REQUIRE(j);
    CHECK(j->rank == 5);
    CHECK(j->device == 1);
    CHECK(j->id_address == "node0:29500");
    CHECK(j->wait_s == 9);
    CHECK(j->source == "Open MPI");
  }
  SECTION("MPICH without a local rank, two GPUs: rank modulo GPUs; HS_DEVICE wins") {
    const environment env({{"PMI_RANK", "3"}, {"PMI_SIZE", "4"}, {"HS_NCCL_ID_FILE", "/tmp/y"}});
    CHECK(rank_join_from_environment(2)->device == 1);
    setenv("HS_DEVICE", "0", 1);
    CHECK(rank_join_from_environment(2)->device == 0);
  }
  SECTION("one task of srun is a plain process") {
    const environment env({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "1"}});
    CHECK_FALSE(rank_join_from_environment(1));
  }
  SECTION("Slurm") {
    const environment env(
        {{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}, {"HS_NCCL_ID_FILE", "/tmp/z"}});
    CHECK(rank_join_from_environment(1)->source == "Slurm");
  }
}

TEST_CASE("rank join: malformed variables are named", "[shard][ranks]") {
  const auto refused = [](const std::map<std::string, std::string>& vars, const std::string& why) {
    const environment env(vars);
    CHECK_THROWS_WITH(rank_join_from_environment(4), ContainsSubstring(why));
  };
  refused({{"HS_RANK", "1"}, {"HS_NCCL_ID_FILE", "/tmp/x"}}, "HS_RANKS is not");
  refused({{"HS_RANK", "x"}, {"HS_RANKS", "2"}, {"HS_NCCL_ID_FILE", "/tmp/x"}},
          "HS_RANK=x is not a whole number");
  refused({{"HS_RANK", "2"}, {"HS_RANKS", "2"}, {"HS_NCCL_ID_FILE", "/tmp/x"}},
          "HS_RANK=2 is not a rank of HS_RANKS=2");
  refused({{"HS_RANK", "0"}, {"HS_RANKS", "65"}, {"HS_NCCL_ID_FILE", "/tmp/x"}}, "from 0 to 64");
  refused({{"HS_RANK", "0"}, {"HS_RANKS", "2"}}, "set one of HS_NCCL_ID_FILE");
  refused({{"HS_RANK", "0"}, {"HS_RANKS", "2"}, {"HS_NCCL_ID_ADDRESS", "nohost"}},
          "is not host:port");
  refused({{"HS_RANK", "0"}, {"HS_RANKS", "2"}, {"HS_NCCL_ID_ADDRESS", "h:99999"}},
          "from 0 to 65535");
  refused(
      {{"HS_RANK", "0"}, {"HS_RANKS", "2"}, {"HS_NCCL_ID_FILE", "/tmp/x"}, {"HS_JOIN_WAIT_S", "0"}},
      "at least 1 second");
}

TEST_CASE("rank join: every rank takes rank 0's id, by file and by port", "[shard][ranks]") {
  const std::vector<char> id = some_id();
  for (const bool by_port : {false, true}) {
    INFO((by_port ? "port" : "file"));
    rank_join j;
    j.ranks = 4;
    j.wait_s = 20;
    if (by_port)
      j.id_address = "127.0.0.1:" + std::to_string(free_port());
    else
      j.id_file = fresh_path("id");
    std::vector<std::vector<char>> got(4);
    std::vector<std::thread> others;
    for (std::uint32_t r = 1; r < 4; ++r)  // the others start first: they wait for rank 0
      others.emplace_back([&, r] {
        rank_join mine = j;
        mine.rank = r;
        got[r] = id_handover(mine).take(id.size());
      });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    id_handover zero(j);
    zero.publish(id);
    for (std::thread& t : others) t.join();
    zero.finish();
    for (std::uint32_t r = 1; r < 4; ++r) CHECK(got[r] == id);
    if (!by_port) std::filesystem::remove(j.id_file);
  }
}

TEST_CASE("rank join: waits are bounded and say what they waited for", "[shard][ranks]") {
  rank_join j;
  j.ranks = 3;
  j.rank = 1;
  j.wait_s = 1;
  SECTION("no id file appears") {
    j.id_file = fresh_path("never");
    CHECK_THROWS_WITH(
        id_handover(j).take(128),
        ContainsSubstring("rank 1 of 3 waited 1 s for rank 0's NCCL id in " + j.id_file));
  }
  SECTION("nobody serves the port") {
    j.id_address = "127.0.0.1:" + std::to_string(free_port());
    CHECK_THROWS_WITH(id_handover(j).take(128), ContainsSubstring("is rank 0 running?"));
  }
  SECTION("rank 0 serves, one of two others never comes") {
    j.rank = 0;
    j.id_address = "127.0.0.1:" + std::to_string(free_port());
    id_handover zero(j);
    zero.publish(some_id());
    rank_join one = j;
    one.rank = 1;
    CHECK(id_handover(one).take(128) == some_id());
    CHECK_THROWS_WITH(zero.finish(), ContainsSubstring("1 of 2 ranks took NCCL's id within 1 s"));
  }
}
