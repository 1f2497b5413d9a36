// What the hive views are given: occupancy pixels (live share, mean candidate index), the
// candidate-index and bucket-fill histograms, the bucket strip, slot dumps and the stash's words.
// The CPU model's answers are checked against counts made here from its image; the GPU's against
// the host definitions applied to a snapshot of the same GPU table.
#include <algorithm>

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include "core/common/memory.hpp"
#include "core/hive/hive_image_inspect.hpp"
#include "tests/core/hive/hive_test_support.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;

namespace {

// 3000 random keys and 37 on one bucket pair: the pair overflows, 5 keys go to the stash.
std::unique_ptr<table> filled(backend b) {
  auto t = make_table(test::hive_config(b, 4096, 16, 4, {}, 16, 0.02));
  const auto pile = test::keys_on_pair(test::hive_of(*t).snapshot({}), 2 * 16 + 5, 71);
  auto keys = test::random_keys(3000, 72);
  keys.erase(std::remove_if(
                 keys.begin(), keys.end(),
                 [&](key_type k) { return std::find(pile.begin(), pile.end(), k) != pile.end(); }),
             keys.end());
  test::insert(*t, pile, test::random_values(pile.size(), 73));
  test::insert(*t, keys, test::random_values(keys.size(), 74));
  return t;
}

struct sampled {
  inspect_result r;
  std::vector<occupancy_pixel> pixels;
};

// One pixel per bucket, the strip over every bucket, a dump of the first pile bucket, the stash.
sampled sample(table& t, std::uint64_t buckets, std::uint64_t dump_first) {
  buffer<occupancy_pixel> px(t.space(), buckets);
  inspect_request q;
  q.occupancy = occupancy_query{0, buckets * 16, static_cast<std::uint32_t>(buckets), 1, px.data()};
  q.probe_histogram = q.hive.bucket_fill = q.hive.stash = true;
  q.strip = bucket_strip_query{0, buckets, static_cast<std::uint32_t>(buckets / 4)};
  q.dump_first = dump_first;
  q.dump_count = 16;
  sampled s;
  t.inspect(q, s.r, {});
  s.pixels = px.download(buckets);
  return s;
}

}  // namespace

TEST_CASE("hive: the model's inspection agrees with counts made from its image",
          "[hive][inspect]") {
  auto t = filled(backend::cpu);
  const hive::hive_image img = test::hive_of(*t).snapshot({});
  const std::uint64_t buckets = img.geo.buckets();
  const auto pile = test::keys_on_pair(img, 2 * 16 + 5, 71);
  const std::uint64_t pile_bucket = img.candidates_of(pile[0]).b[0];
  const sampled s = sample(*t, buckets, pile_bucket * 16);
  std::uint64_t live = 0, second = 0;
  for (std::uint64_t b = 0; b < buckets; ++b) {
    int fill = 0;
    for (int j = 0; j < 16; ++j) {
      const hive::word_type w = img.bucket(b)[j];
      if (w == hive::k_empty_word) continue;
      ++fill;
      second += hive::candidate_index(img.candidates_of(hive::key_of(w)), b) == 1;
    }
    live += fill;
    CHECK(s.pixels[b].live * 16 == Catch::Approx(fill));
  }
  REQUIRE(live > 2900);
  CHECK(s.r.histogram.total == live);
  CHECK(s.r.histogram.counts[1] == second);
  CHECK(second > 0);
  CHECK(s.r.hive.bucket_fill.total == buckets);
  CHECK(s.r.hive.bucket_fill.sum == live);
  CHECK(s.r.hive.bucket_fill.counts[16] >= 2);  // the pile's pair is full
  REQUIRE(s.r.hive.stash.size() == 5);
  for (const stash_entry& e : s.r.hive.stash)
    CHECK(std::count(pile.begin(), pile.end(), e.key) == 1);
  REQUIRE(s.r.slots.size() == 16);
  for (const slot_record& r : s.r.slots) {
    CHECK(r.state == slot_state::live);
    CHECK(img.candidates_of(r.key).b[r.displacement] == pile_bucket);
    CHECK(r.home == img.candidates_of(r.key).b[0] * 16);
  }
  REQUIRE(s.r.strip.size() == buckets / 4);
  float fullest = 0;
  for (const strip_pixel& p : s.r.strip) fullest = std::max(fullest, p.max_chain);
  CHECK(fullest == 16);
}

TEST_CASE("hive: the GPU inspection kernels agree with the host definitions",
          "[gpu][hive][inspect]") {
  test::require_gpu();
  auto t = filled(backend::gpu);
  const hive::hive_image img = test::hive_of(*t).snapshot({});
  const std::uint64_t buckets = img.geo.buckets();
  const sampled s = sample(*t, buckets, 40 * 16);
  // The same requests answered on the host from the snapshot.
  std::vector<occupancy_pixel> want(buckets);
  inspect_request q;
  q.occupancy =
      occupancy_query{0, buckets * 16, static_cast<std::uint32_t>(buckets), 1, want.data()};
  q.probe_histogram = q.hive.bucket_fill = q.hive.stash = true;
  q.strip = bucket_strip_query{0, buckets, static_cast<std::uint32_t>(buckets / 4)};
  q.dump_first = 40 * 16;
  q.dump_count = 16;
  inspect_result host;
  hive::inspect_image(img, q, host);
  REQUIRE(host.histogram.total > 2900);
  for (std::uint64_t b = 0; b < buckets; ++b) {
    CHECK(s.pixels[b].live == Catch::Approx(want[b].live));
    CHECK(s.pixels[b].mean_displacement == Catch::Approx(want[b].mean_displacement));
  }
  CHECK(s.r.histogram.counts == host.histogram.counts);
  CHECK(s.r.histogram.total == host.histogram.total);
  CHECK(s.r.hive.bucket_fill.counts == host.hive.bucket_fill.counts);
  CHECK(s.r.hive.bucket_fill.sum == host.hive.bucket_fill.sum);
  REQUIRE(s.r.strip.size() == host.strip.size());
  for (std::size_t p = 0; p < host.strip.size(); ++p) {
    CHECK(s.r.strip[p].mean_chain == Catch::Approx(host.strip[p].mean_chain));
    CHECK(s.r.strip[p].max_chain == host.strip[p].max_chain);
  }
  REQUIRE(s.r.slots.size() == host.slots.size());
  for (std::size_t i = 0; i < host.slots.size(); ++i) {
    CHECK(s.r.slots[i].key == host.slots[i].key);
    CHECK(s.r.slots[i].displacement == host.slots[i].displacement);
  }
  REQUIRE(s.r.hive.stash.size() == 5);
  REQUIRE(host.hive.stash.size() == 5);
  for (std::size_t i = 0; i < 5; ++i) CHECK(s.r.hive.stash[i].key == host.hive.stash[i].key);
}
