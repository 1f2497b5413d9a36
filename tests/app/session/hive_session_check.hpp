// A hive session on either backend: a fill past the starting capacity grows the table by linear
// hashing (the session follows its capacity), every insert is counted by step in the live Fig. 9
// series, the samples the hive views draw agree with the table's counts, and a drain shrinks it.
#pragma once
#include <catch2/catch_test_macros.hpp>

#include "app/families/family_hooks.hpp"
#include "app/families/hive_steps.hpp"
#include "app/session/session.hpp"
#include "app/ui/family_views/family_ui.hpp"

namespace hs::test {

inline void check_hive_session(backend b) {
  app::session_config cfg;
  cfg.table.backend = b;
  cfg.table.family = family::hive;
  cfg.table.capacity = 1u << 16;
  cfg.table.hive.auto_resize = true;
  cfg.table.hive.instrument = true;
  cfg.workload.batch_size = 8192;
  const auto made = app::make_session(cfg);
  app::session& s = *made;
  s.fill_to(1.6);
  s.wait_idle();
  const std::uint64_t want = static_cast<std::uint64_t>(1.6 * 65536);
  CHECK(s.status().live == want);
  CHECK(s.capacity() > (1u << 16));
  CHECK(s.capacity() == s.tbl().stats({}).capacity);
  // Each batch's loads count the slots it ran in, grown or not: one batch ends where the next
  // begins, and the last ends at the table's load.
  const auto points = s.throughput();
  REQUIRE(points.size() >= 2);
  for (std::size_t i = 1; i < points.size(); ++i) {
    CAPTURE(i);
    CHECK(points[i].load == points[i - 1].load_after);
    CHECK(points[i].load_after <= 1.0);
  }
  CHECK(points.back().load_after == double(want) / double(s.capacity()));
  std::uint64_t counted = 0;
  for (const auto& p : app::hive_steps(s))
    counted += p.steps[0] + p.steps[1] + p.steps[2] + p.steps[3];
  CHECK(counted == want);
  app::sample_request req;
  req.probe_histogram = req.hive.bucket_fill = req.hive.stash = req.hive.paths = true;
  req.strip = bucket_strip_query{0, s.capacity() / 16, 64};
  app::sample_result r;
  s.sample(req, r);
  CHECK(r.stats.live == want);
  CHECK(r.inspected.hive.bucket_fill.total == r.stats.hive.buckets);
  CHECK(r.inspected.histogram.total + r.stats.hive.stash_live == want);
  CHECK(r.inspected.strip.size() == 64);
  CHECK(r.inspected.hive.paths.size() <= 256);  // the hive's ring of recent paths
  const std::uint64_t grown = s.capacity();
  s.fill_to(0.1);  // a target counts from the capacity when the drain starts: the grown one
  s.wait_idle();
  CHECK(s.status().live == static_cast<std::uint64_t>(0.1 * double(grown)));
  CHECK(s.capacity() < grown);
  CHECK(s.capacity() == s.tbl().stats({}).capacity);
  CHECK(s.tbl().stats({}).live == s.status().live);
}

}  // namespace hs::test
