// [gpu] Inspection kernels against the model: occupancy images, the probe histogram, slot dumps
// and retrieve_all.
#include <catch2/catch_approx.hpp>
#include <catch2/generators/catch_generators.hpp>

#include "tests/core/linear/gpu_support_linear.hpp"

using namespace hs;

namespace {
std::vector<occupancy_pixel> occupancy(table& t, occupancy_query q) {
  buffer<occupancy_pixel> px(t.space(), std::uint64_t{q.width} * q.height);
  q.out = px.data();
  inspect_request req;
  req.occupancy = q;
  inspect_result res;
  t.inspect(req, res, {});
  return px.download();
}
bool same(const occupancy_pixel& a, const occupancy_pixel& b) {
  return a.live == b.live && a.erased == b.erased && a.tombstone == b.tombstone &&
         a.mean_displacement == b.mean_displacement;
}
}  // namespace

TEST_CASE("inspection agrees with the model", "[gpu][linear][inspect]") {
  test::require_gpu();
  const hash_kind hash = GENERATE(hash_kind::murmur3, hash_kind::identity);
  const std::uint64_t capacity = 1u << 16;
  test::linear_pair p(capacity, hash, 1);
  const auto keys = test::random_keys(static_cast<std::size_t>(capacity * 0.85), 51);
  const auto values = test::random_values(keys.size(), 52);
  test::insert(*p.gpu, keys, values);
  test::insert(p.model, keys, values);
  std::vector<key_type> gone(keys.begin(), keys.begin() + 5000);
  test::erase(*p.gpu, gone);
  test::erase(p.model, gone);
  // Which key sits in which slot depends on the order of concurrent inserts: give the model the
  // GPU's exact layout, so that every inspected number must agree.
  p.model.load_slots(linear::copy_slots(*p.gpu));

  SECTION("occupancy images, from the whole table down to single slots") {
    const occupancy_query queries[] = {
        {0, capacity, 128, 64, nullptr},         // 8 slots per pixel
        {1000, 37, 16, 8, nullptr},              // less than one slot per pixel
        {capacity - 100, 300, 10, 10, nullptr},  // wraps around the end
    };
    for (const occupancy_query& q : queries) {
      const auto g = occupancy(*p.gpu, q), m = occupancy(p.model, q);
      std::size_t differ = 0;
      for (std::size_t i = 0; i < g.size(); ++i) differ += !same(g[i], m[i]);
      CHECK(differ == 0);
    }
    // Live fraction over the whole table equals the load factor.
    const auto whole = occupancy(*p.gpu, {0, capacity, 64, 32, nullptr});
    double live = 0;
    for (const auto& px : whole) live += px.live;
    CHECK(live / whole.size() == Catch::Approx(double(keys.size() - gone.size()) / capacity));
  }
  SECTION("the probe-length histogram") {
    inspect_request req;
    req.probe_histogram = true;
    inspect_result g, m;
    p.gpu->inspect(req, g, {});
    p.model.inspect(req, m, {});
    CHECK(g.histogram.counts == m.histogram.counts);
    CHECK(g.histogram.total == keys.size());
    CHECK(g.histogram.sum == m.histogram.sum);
    CHECK(g.histogram.max == m.histogram.max);
    CHECK(g.histogram.max == p.gpu->stats({}).max_displacement);
  }
  SECTION("slot dumps, wrapping around the end") {
    inspect_request req;
    req.dump_first = capacity - 3;
    req.dump_count = 9;
    inspect_result g, m;
    p.gpu->inspect(req, g, {});
    p.model.inspect(req, m, {});
    REQUIRE(g.slots.size() == 9);
    for (std::size_t i = 0; i < 9; ++i) {
      CHECK(g.slots[i].slot == m.slots[i].slot);
      CHECK(g.slots[i].key == m.slots[i].key);
      CHECK(g.slots[i].value == m.slots[i].value);
      CHECK(g.slots[i].displacement == m.slots[i].displacement);
      CHECK(g.slots[i].state == m.slots[i].state);
    }
  }
  SECTION("retrieve_all returns every live pair and the count") {
    CHECK(test::contents(*p.gpu) == test::contents(p.model));
    buffer<key_type> k(memory_space::device, 10);
    buffer<value_type> v(memory_space::device, 10);
    CHECK(p.gpu->retrieve_all(k.span(), v.span(), {}) == keys.size() - gone.size());
  }
}
