// Crash-safe writes (core/common/atomic_file.hpp): a writer killed by SIGKILL at every numbered
// step of a write (each chunk written, the flush, the rename, the folder's flush) leaves the file
// holding exactly the old bytes or exactly the new ones, the new ones once it got past the
// rename; the same for table files, which read_table_file then opens. A file that cannot be
// written is refused with its path and why, and no temporary file is left behind.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"
#include "core/table/table_file.hpp"
#include "tests/support/file_support.hpp"
#include "tests/support/kill_at_step.hpp"
#include "tests/support/table_support.hpp"

using namespace hs;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

using test::read_bytes;
using test::write_plain;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Bytes no two seeds share, so that a file mixing two writes is never either of them.
std::string random_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string out(n, '\0');
  for (char& c : out) c = static_cast<char>(rng() & 0xff);
  return out;
}

// The files of a folder whose names say they are temporary.
std::vector<std::string> temp_files(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp-") != std::string::npos)
      out.push_back(e.path().filename().string());
  return out;
}

// Where the rename is among the steps of a write: a kill from there on leaves the new file.
int rename_step(const std::vector<int>& steps) {
  return static_cast<int>(std::find(steps.begin(), steps.end(), hs::detail::k_step_renamed) -
                          steps.begin());
}

}  // namespace

TEST_CASE("a write killed at any of its steps leaves the old file or the new one, never a mix",
          "[file]") {
  const fs::path dir = fresh_dir("hs-atomic-file-kill");
  const fs::path target = dir / "data.bin";
  const std::string old_bytes = random_bytes(300u << 10, 1);
  const std::string new_bytes = random_bytes((333u << 10) + 17, 2);  // 6 chunks of 64 KiB
  REQUIRE(old_bytes != new_bytes);
  const auto write_new = [&] { write_file_atomically(target, new_bytes); };

  write_plain(target, old_bytes);
  const std::vector<int> steps = test::write_steps(write_new);
  REQUIRE(read_bytes(target) == new_bytes);
  REQUIRE(std::count(steps.begin(), steps.end(), hs::detail::k_step_chunk_written) == 6);
  REQUIRE(steps.size() == 9);  // then the flush, the rename and the folder's flush, in order
  CHECK(steps[6] == hs::detail::k_step_file_synced);
  CHECK(steps[7] == hs::detail::k_step_renamed);
  CHECK(steps[8] == hs::detail::k_step_folder_synced);
  const int renamed = rename_step(steps);

  for (int k = 0; k < static_cast<int>(steps.size()); ++k) {
    INFO("killed at step " << k << " of " << steps.size());
    write_plain(target, old_bytes);
    REQUIRE(read_bytes(target) == old_bytes);
    REQUIRE(test::killed_at_step(k, write_new));
    const std::string now = read_bytes(target);
    CHECK((now == old_bytes || now == new_bytes));
    CHECK(now == (k >= renamed ? new_bytes : old_bytes));
  }
}

TEST_CASE("a table file written by a process killed at any step opens as the old table or the new",
          "[file][table]") {
  const fs::path dir = fresh_dir("hs-atomic-table-kill");
  const std::string path = (dir / "t.hstable").string();
  table_config cfg;
  cfg.family = family::linear;
  cfg.backend = backend::cpu;
  cfg.capacity = 1u << 12;
  auto t = make_table(cfg);
  const auto first = test::random_keys(1500, 21);
  test::insert(*t, first, test::random_values(first.size(), 22));
  const auto old_contents = test::contents(*t);
  write_table_file(path, t->save_state({}), {});
  const std::string old_file = read_bytes(path);
  const auto more = test::random_keys(900, 23);
  test::insert(*t, more, test::random_values(more.size(), 24));
  const auto new_contents = test::contents(*t);
  REQUIRE(old_contents.size() > 1000);
  REQUIRE(new_contents != old_contents);
  const table_state next = t->save_state({});
  const auto write_new = [&] { write_table_file(path, next, {}); };

  const std::vector<int> steps = test::write_steps(write_new);
  REQUIRE(test::contents(*open_table(path, backend::cpu, {})) == new_contents);
  // The parts and the checksum, each a point a kill can come between, then the commit.
  REQUIRE(std::count(steps.begin(), steps.end(), hs::detail::k_step_chunk_written) >= 2);
  REQUIRE(steps.size() >= 5);
  CHECK(steps.back() == hs::detail::k_step_folder_synced);
  const int renamed = rename_step(steps);
  REQUIRE(renamed < static_cast<int>(steps.size()));

  for (int k = 0; k < static_cast<int>(steps.size()); ++k) {
    INFO("killed at step " << k << " of " << steps.size());
    write_plain(path, old_file);
    REQUIRE(test::killed_at_step(k, write_new));
    const auto now = test::contents(*open_table(path, backend::cpu, {}));  // refuses a torn file
    CHECK((now == old_contents || now == new_contents));
    CHECK(now == (k >= renamed ? new_contents : old_contents));
  }
}

TEST_CASE("a file that cannot be written is refused with its path and why, leaving no temporary",
          "[file]") {
  const fs::path dir = fresh_dir("hs-atomic-file-refused");
  write_plain(dir / "not-a-folder", "a file, not a folder");
  const fs::path under_a_file = dir / "not-a-folder" / "numbers.csv";
  CHECK_THROWS_WITH(write_file_atomically(under_a_file, "name,value\n"),
                    ContainsSubstring("cannot write " + under_a_file.string()) &&
                        ContainsSubstring(std::strerror(ENOTDIR)));
  const fs::path missing = dir / "no-such-folder" / "numbers.csv";
  CHECK_THROWS_WITH(
      write_file_atomically(missing, "name,value\n"),
      ContainsSubstring(missing.string()) && ContainsSubstring(std::strerror(ENOENT)));

  // A folder where the file should go: the temporary file is written, then cannot be renamed
  // over it, and is removed.
  fs::create_directories(dir / "a-folder" / "inside");
  CHECK_THROWS_WITH(
      write_file_atomically(dir / "a-folder", random_bytes(200u << 10, 3)),
      ContainsSubstring((dir / "a-folder").string()) && ContainsSubstring(std::strerror(EISDIR)));
  table_config cfg;
  cfg.capacity = 1u << 10;
  cfg.backend = backend::cpu;
  auto t = make_table(cfg);
  test::insert(*t, test::random_keys(300, 4), test::random_values(300, 5));
  CHECK_THROWS_WITH(write_table_file((dir / "a-folder").string(), t->save_state({}), {}),
                    ContainsSubstring("table file " + (dir / "a-folder").string()) &&
                        ContainsSubstring(std::strerror(EISDIR)));

  CHECK(temp_files(dir).empty());
  CHECK(temp_files(dir / "a-folder").empty());
  CHECK(fs::is_directory(dir / "a-folder" / "inside"));  // the folder as it was
  CHECK(read_bytes(dir / "not-a-folder") == "a file, not a folder");
}

TEST_CASE("temporary names lie beside their target and are never the same twice", "[file]") {
  const fs::path target = fs::temp_directory_path() / "hs-atomic-names" / "lesson.scn";
  const std::string a = temp_path_for(target), b = temp_path_for(target);
  CHECK(a != b);
  CHECK(fs::path(a).parent_path() == target.parent_path());
  CHECK(a.rfind(target.string() + ".tmp-" + std::to_string(::getpid()) + "-", 0) == 0);
}

TEST_CASE("a write never opens a file already at its temporary name, and leaves that file alone",
          "[file]") {
  const fs::path dir = fresh_dir("hs-atomic-taken-" + std::to_string(::getpid()));
  const fs::path target = dir / "figure.csv";
  // The next names, as a crashed writer of this pid (or a planted link) might have left them.
  const std::string seen = temp_path_for(target);
  const std::string prefix = seen.substr(0, seen.rfind('-') + 1);
  const auto next = std::stoull(seen.substr(prefix.size())) + 1;
  for (unsigned long long i = next; i < next + 3; ++i)
    write_plain(prefix + std::to_string(i), "left by another writer " + std::to_string(i));
  write_file_atomically(target, "load,rate\n0.5,1000\n");
  CHECK(read_bytes(target) == "load,rate\n0.5,1000\n");
  for (unsigned long long i = next; i < next + 3; ++i)
    CHECK(read_bytes(prefix + std::to_string(i)) == "left by another writer " + std::to_string(i));
}
