// regpus as a session step (a scenario's `regpus N`): the sharded table moves to N simulated
// devices between batches with every pair kept, the session counts and labels it, and Back stops
// there; a table on one device refuses it, saying how to shard it; a move whose pairs would not
// fit leaves the table on its devices with every pair.
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/session/session.hpp"
#include "core/shard/shard_map.hpp"
#include "core/shard/sharded_view.hpp"
#include "core/workload/key_file.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;

namespace {
session_config sharded_config(std::uint32_t devices) {
  session_config c;
  c.table.backend = backend::cpu;
  c.table.capacity = 1u << 14;
  c.table.devices = devices;
  c.workload.batch_size = 2048;
  return c;
}
}  // namespace

TEST_CASE("regpus moves a session's table to more devices and keeps every pair",
          "[session][shard]") {
  session s(sharded_config(2));
  s.fill_to(0.5);
  s.queue({{script_step::regpus, 0, 4}});
  s.wait_idle();
  const session_status st = s.status();
  INFO(st.note);
  REQUIRE_FALSE(st.error);
  CHECK_THAT(st.note, ContainsSubstring("moved from 2 to 4 devices: 128 of 256 virtual shards"));
  CHECK(s.config().table.devices == 4);
  REQUIRE(as_sharded(s.tbl()));
  CHECK(as_sharded(s.tbl())->devices() == 4);
  CHECK(st.live == 8192);
  CHECK(s.tbl().stats({}).live == 8192);
  REQUIRE_FALSE(s.rebuilds().empty());
  CHECK(s.rebuilds().back().label == "regpus 2 -> 4");
  for (std::uint32_t d = 0; d < 4; ++d) CHECK(as_sharded(s.tbl())->shard(d).stats({}).live > 1500);
  CHECK_THAT(s.why_not_back(1), ContainsSubstring("regpus moved the table to 4 devices"));
  s.fill_to(0.75);  // and it goes on: batches over the four devices
  s.wait_idle();
  CHECK(s.status().live == s.tbl().stats({}).live);
  CHECK(s.status().live == 12288);
}

TEST_CASE("regpus on a table of one device is refused, saying how to shard it",
          "[session][shard]") {
  session s(sharded_config(1));
  s.fill_to(0.25);
  s.queue({{script_step::regpus, 0, 2}});
  s.wait_idle();
  CHECK(s.status().error);
  CHECK_THAT(s.status().note, ContainsSubstring("the table is on one device"));
  CHECK(s.status().live == 4096);
}

TEST_CASE("a regpus that cannot fit its pairs leaves the session's table on its devices",
          "[session][shard]") {
  // Keys that all stay on device 0 over four devices: 6,000 fit its 8,192 slots over two, and
  // not the 4,096 it would have over four.
  const shard_map four =
      shard_map::spread(owner_bits::independent, hash_kind::murmur3, 2).regrouped(4);
  const auto path = std::filesystem::temp_directory_path() /
                    ("hs_regpus_one_owner_keys_" + std::to_string(getpid()) + ".txt");
  {
    std::ofstream out(path);
    int written = 0;
    for (key_type k = 1; written < 6000; ++k)
      if (owner_of(four, k) == 0) out << k << "\n", ++written;
  }
  session_config cfg = sharded_config(2);
  cfg.workload.keys.dist = workload::distribution::file;
  cfg.workload.key_file = workload::load_key_file(workload::key_file_spec{path.string()});
  session s(cfg);
  s.fill_to(5000.0 / 16384);
  s.wait_idle();
  REQUIRE(s.status().live >= 5000);
  const std::uint64_t live = s.status().live, version = s.version();
  s.queue({{script_step::regpus, 0, 4}});
  s.wait_idle();
  const session_status st = s.status();
  CHECK(st.error);
  CHECK_THAT(st.note, ContainsSubstring("regpus 4: ") &&
                          ContainsSubstring("would find no room on their new devices") &&
                          ContainsSubstring("the table stays on 2 devices with every pair"));
  CHECK(s.config().table.devices == 2);
  CHECK(as_sharded(s.tbl())->devices() == 2);
  CHECK(st.live == live);
  CHECK(s.tbl().stats({}).live == live);
  CHECK(s.version() > version);  // the views sample the table put back
  std::filesystem::remove(path);
}
