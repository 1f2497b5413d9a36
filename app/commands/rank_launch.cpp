#include "app/commands/rank_launch.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/common/error.hpp"

extern char** environ;

namespace hs::app {

namespace {

/// This process's arguments as started, without --processes and its value.
std::vector<std::string> own_arguments() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  for (std::string a; std::getline(in, a, '\0');) args.push_back(a);
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--processes") {
      ++i;
      continue;
    }
    if (args[i].rfind("--processes=", 0) == 0) continue;
    kept.push_back(args[i]);
  }
  return kept;
}

pid_t start_rank(std::uint32_t rank, std::uint32_t ranks, const std::filesystem::path& dir) {
  std::vector<std::string> args = own_arguments();
  args[0] = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::map<std::string, std::string> vars = {{"HS_RANK", std::to_string(rank)},
                                                   {"HS_RANKS", std::to_string(ranks)},
                                                   {"HS_NCCL_ID_FILE", (dir / "nccl-id").string()}};
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string one = *e;
    // A rank's GPU is its rank's (HS_DEVICE would put every rank on one), its id the file's.
    if (!vars.count(one.substr(0, one.find('='))) && one.rfind("HS_NCCL_ID_ADDRESS=", 0) != 0 &&
        one.rfind("HS_DEVICE=", 0) != 0)
      env.push_back(one);
  }
  for (const auto& [k, v] : vars) env.push_back(k + "=" + v);
  std::vector<char*> argv, envp;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t io;
  posix_spawn_file_actions_init(&io);
  if (rank != 0) {  // rank 0 speaks on this terminal; the others into files
    const std::string log = (dir / ("rank" + std::to_string(rank) + ".log")).string();
    posix_spawn_file_actions_addopen(&io, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&io, 1, 2);
  }
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0], &io, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&io);
  if (rc != 0)
    throw user_error("could not start rank " + std::to_string(rank) + ": " + std::strerror(rc));
  return pid;
}

}  // namespace

int launch_ranks(std::uint32_t ranks) {
  // A new folder each launch (mkdtemp): no rank reads an id another launch left.
  std::string pattern =
      (std::filesystem::temp_directory_path() / "hashscope-ranks-XXXXXX").string();
  if (!mkdtemp(pattern.data()))
    throw user_error("cannot make a folder for the ranks' output in " +
                     std::filesystem::temp_directory_path().string() + ": " + std::strerror(errno));
  const std::filesystem::path dir = pattern;
  std::cout << "starting " << ranks << " processes, one a GPU (HS_RANK 0 to " << ranks - 1
            << "); the others' output: " << dir.string() << "\n"
            << std::flush;
  std::vector<pid_t> pids;
  for (std::uint32_t r = 0; r < ranks; ++r) pids.push_back(start_rank(r, ranks, dir));
  int first_failure = 0;
  for (std::uint32_t r = 0; r < ranks; ++r) {
    int status = 0;
    waitpid(pids[r], &status, 0);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (code == 0) continue;
    if (!first_failure) first_failure = code;
    std::cerr << "hashscope: rank " << r << " of " << ranks << " exited with " << code << "\n";
    if (r != 0) {
      std::ifstream in(dir / ("rank" + std::to_string(r) + ".log"));
      std::cerr << in.rdbuf() << "\n";
    }
  }
  if (!first_failure) std::filesystem::remove_all(dir);
  return first_failure;
}

}  // namespace hs::app
