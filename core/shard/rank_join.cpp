#include "core/shard/rank_join.hpp"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"
#include "core/table/table.hpp"

namespace hs {
namespace {

using clock_type = std::chrono::steady_clock;

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

std::uint64_t env_number(const char* name, const std::string& text, std::uint64_t most) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (errno || end == text.c_str() || *end || v > most || text.front() == '-')
    throw user_error(std::string(name) + "=" + text + " is not a whole number from 0 to " +
                     std::to_string(most));
  return v;
}

struct rank_source {
  const char* name;
  const char* rank;
  const char* size;
  const char* local_rank;
};
// HashScope's own first: they say what the user meant even inside an MPI job.
constexpr rank_source k_sources[] = {
    {"HS_RANK", "HS_RANK", "HS_RANKS", nullptr},
    {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"MPICH", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
    {"Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
};

struct split_address {
  std::string host, port;
};

split_address split(const std::string& address) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size())
    throw user_error("HS_NCCL_ID_ADDRESS=" + address + " is not host:port");
  env_number("the port of HS_NCCL_ID_ADDRESS", address.substr(colon + 1), 65535);
  return {address.substr(0, colon), address.substr(colon + 1)};
}

addrinfo* resolve(const std::string& address, bool listening) {
  const split_address a = split(address);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = listening ? AI_PASSIVE : 0;
  addrinfo* found = nullptr;
  if (const int rc = getaddrinfo(a.host.c_str(), a.port.c_str(), &hints, &found); rc != 0)
    throw user_error("cannot resolve " + address + " (HS_NCCL_ID_ADDRESS): " + gai_strerror(rc));
  return found;
}

double seconds_since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

}  // namespace

double wait_from_environment() {
  const auto w = env("HS_JOIN_WAIT_S");
  if (!w) return 120;
  const auto s = env_number("HS_JOIN_WAIT_S", *w, 86400);
  if (s == 0) throw user_error("HS_JOIN_WAIT_S must be at least 1 second");
  return double(s);
}

std::optional<rank_join> rank_join_from_environment(int gpus) {
  const rank_source* from = nullptr;
  for (const rank_source& s : k_sources)
    if (env(s.rank)) {
      from = &s;
      break;
    }
  if (!from) return std::nullopt;
  rank_join j;
  j.source = from->name;
  const auto size = env(from->size);
  if (!size)
    throw user_error(std::string(from->rank) + " is set but " + from->size +
                     " is not: a rank needs to know how many ranks there are");
  j.ranks = static_cast<std::uint32_t>(env_number(from->size, *size, k_max_devices));
  // One task of srun or mpirun is a plain process; HS_RANKS=1 is asked for, so it stays a join.
  if (j.ranks == 1 && from != &k_sources[0]) return std::nullopt;
  j.rank = static_cast<std::uint32_t>(env_number(from->rank, *env(from->rank), k_max_devices));
  if (j.ranks == 0 || j.rank >= j.ranks)
    throw user_error(std::string(from->rank) + "=" + std::to_string(j.rank) + " is not a rank of " +
                     from->size + "=" + std::to_string(j.ranks));
  std::uint64_t local = j.rank;
  if (from->local_rank && env(from->local_rank))
    local = env_number(from->local_rank, *env(from->local_rank), k_max_devices);
  j.device = static_cast<int>(gpus > 0 ? local % static_cast<std::uint64_t>(gpus) : 0);
  if (const auto d = env("HS_DEVICE"))
    j.device = static_cast<int>(env_number("HS_DEVICE", *d, 1024));
  j.wait_s = wait_from_environment();
  j.id_file = env("HS_NCCL_ID_FILE").value_or("");
  j.id_address = env("HS_NCCL_ID_ADDRESS").value_or("");
  if (!j.id_address.empty()) split(j.id_address);
  if (j.ranks > 1 && j.id_file.empty() == j.id_address.empty())
    throw user_error("rank " + std::to_string(j.rank) + " of " + std::to_string(j.ranks) + " (" +
                     j.source + "): set one of HS_NCCL_ID_FILE (a fresh path every rank can " +
                     "read) or HS_NCCL_ID_ADDRESS (host:port of rank 0), for NCCL's unique id");
  return j;
}

rank_join nth_join(rank_join j, unsigned n) {
  if (!j.id_file.empty()) j.id_file.append("-").append(std::to_string(n));
  return j;
}

/// Rank 0's side of the port: accepts one connection a rank and writes it the id, until every
/// other rank was served or the wait ran out.
struct id_handover::server {
  int listener = -1;
  std::vector<char> id;
  std::uint32_t wanted = 0;
  std::atomic<std::uint32_t> served{0};
  std::atomic<bool> stop{false};
  std::string failure;  // written by the thread, read after join
  std::thread thread;

  // Serves until finish() stops it (a retried connection may count twice, so the count alone
  // cannot say every rank is in), or until the wait runs out.
  void serve(double wait_s) {
    const auto start = clock_type::now();
    while (!stop) {
      if (seconds_since(start) > wait_s) {
        failure = std::to_string(served.load()) + " of " + std::to_string(wanted) +
                  " ranks took NCCL's id within " + std::to_string(int(wait_s)) + " s";
        return;
      }
      pollfd p{listener, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      const int peer = accept(listener, nullptr, nullptr);
      if (peer < 0) continue;
      std::size_t sent = 0;
      while (sent < id.size()) {
        const ssize_t n = send(peer, id.data() + sent, id.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;
        sent += static_cast<std::size_t>(n);
      }
      close(peer);
      if (sent == id.size()) ++served;
    }
  }
  ~server() {
    stop = true;
    if (thread.joinable()) thread.join();
    if (listener >= 0) close(listener);
  }
};

id_handover::id_handover(rank_join join) : join_(std::move(join)) {}
id_handover::~id_handover() = default;

void id_handover::publish(std::span<const char> id) {
  if (!join_.id_file.empty()) {  // written whole, then renamed: a rank never reads half an id
    try {
      write_file_atomically(join_.id_file, std::string_view(id.data(), id.size()));
    } catch (const std::exception& e) {
      throw user_error("cannot write NCCL's id to " + join_.id_file +
                       " (HS_NCCL_ID_FILE): " + e.what());
    }
    return;
  }
  auto s = std::make_unique<server>();
  s->id.assign(id.begin(), id.end());
  s->wanted = join_.ranks - 1;
  addrinfo* where = resolve(join_.id_address, true);
  std::string why = "no address";
  for (addrinfo* a = where; a && s->listener < 0; a = a->ai_next) {
    const int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd < 0) continue;
    const int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 64) == 0) {
      s->listener = fd;
    } else {
      why = std::strerror(errno);
      close(fd);
    }
  }
  freeaddrinfo(where);
  if (s->listener < 0)
    throw user_error("rank 0 cannot listen on " + join_.id_address +
                     " (HS_NCCL_ID_ADDRESS): " + why);
  s->thread = std::thread([raw = s.get(), wait = join_.wait_s] { raw->serve(wait); });
  server_ = std::move(s);
}

std::vector<char> id_handover::take(std::size_t bytes) {
  const auto start = clock_type::now();
  const std::string who =
      "rank " + std::to_string(join_.rank) + " of " + std::to_string(join_.ranks);
  std::vector<char> id(bytes);
  std::string last = "nothing there yet";
  while (seconds_since(start) < join_.wait_s) {
    if (!join_.id_file.empty()) {
      std::error_code ec;
      if (std::filesystem::file_size(join_.id_file, ec) == bytes && !ec) {
        std::ifstream in(join_.id_file, std::ios::binary);
        if (in.read(id.data(), static_cast<std::streamsize>(bytes))) return id;
      }
    } else {
      addrinfo* where = resolve(join_.id_address, false);
      for (addrinfo* a = where; a; a = a->ai_next) {
        const int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0) continue;
        std::size_t got = 0;
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
          pollfd p{fd, POLLIN, 0};
          while (got < bytes && poll(&p, 1, 1000) > 0) {
            const ssize_t n = recv(fd, id.data() + got, bytes - got, 0);
            if (n <= 0) break;
            got += static_cast<std::size_t>(n);
          }
        } else {
          last = std::strerror(errno);
        }
        close(fd);
        if (got == bytes) {
          freeaddrinfo(where);
          return id;
        }
      }
      freeaddrinfo(where);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  throw user_error(who + " waited " + std::to_string(int(join_.wait_s)) +
                   " s for rank 0's NCCL id " +
                   (join_.id_file.empty() ? "at " + join_.id_address + " (" + last + ")"
                                          : "in " + join_.id_file) +
                   ": is rank 0 running? (HS_JOIN_WAIT_S sets the wait)");
}

void id_handover::finish() {
  // The file: every rank joined with it, so it goes (a later run with the same path never reads
  // this one's id).
  if (join_.rank == 0 && !join_.id_file.empty()) std::filesystem::remove(join_.id_file);
  if (!server_) return;
  const auto start = clock_type::now();
  while (server_->served < server_->wanted && server_->failure.empty() &&
         seconds_since(start) < join_.wait_s)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  server_->stop = true;
  if (server_->thread.joinable()) server_->thread.join();
  std::string failure = server_->failure;
  if (failure.empty() && server_->served < server_->wanted)
    failure = std::to_string(server_->served.load()) + " of " + std::to_string(server_->wanted) +
              " ranks took NCCL's id within " + std::to_string(int(join_.wait_s)) + " s";
  server_.reset();
  if (!failure.empty())
    throw user_error("rank 0 of " + std::to_string(join_.ranks) + ": " + failure);
}

}  // namespace hs
