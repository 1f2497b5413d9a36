// The slab invariant checker finds each kind of damage in an otherwise valid image.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>

#include "tests/core/slab/slab_test_support.hpp"

using namespace hs;

namespace {
slab::slab_image sample_image(slab_mode mode) {
  slab::slab_model m(test::slab_config(backend::cpu, 2, mode));
  const auto keys = test::random_keys(100, 21);
  test::insert(m, keys, test::random_values(100, 22));
  test::erase(m, std::vector<key_type>(keys.begin(), keys.begin() + 5));
  return m.image();
}
// The first chained slab of bucket b.
std::uint32_t* second_slab(slab::slab_image& img, std::uint32_t b) {
  return img.pool_slab(img.base_slab(b)[slab::k_next_word]);
}
}  // namespace

TEST_CASE("a valid image passes", "[slab][invariants]") {
  CHECK(slab::check_invariants(sample_image(slab_mode::unique)).ok());
  CHECK(slab::check_invariants(sample_image(slab_mode::multi)).ok());
}

TEST_CASE("each kind of damage is reported", "[slab][invariants]") {
  slab::slab_image img = sample_image(slab_mode::unique);
  const std::string what = GENERATE("wrong bucket", "leak", "shared slab", "cycle", "duplicate",
                                    "after empty", "freed slab", "bad pointer");
  CAPTURE(what);
  std::uint32_t* s = second_slab(img, 0);
  if (what == "wrong bucket") {
    // Move a live pair of bucket 1 into bucket 0's list.
    std::uint32_t* o = img.base_slab(1);
    int p = 0;
    while (!slab::is_live_key(o[2 * p])) ++p;
    s[28] = o[2 * p];
    s[29] = o[2 * p + 1];
  } else if (what == "leak") {
    img.bitmaps[0].back() |= 0x80000000u;
  } else if (what == "shared slab") {
    img.base_slab(1)[slab::k_next_word] = img.base_slab(0)[slab::k_next_word];
  } else if (what == "cycle") {
    std::uint32_t* last = s;
    while (last[slab::k_next_word] != slab::k_null_address)
      last = img.pool_slab(last[slab::k_next_word]);
    last[slab::k_next_word] = img.base_slab(0)[slab::k_next_word];
  } else if (what == "duplicate") {
    img.base_slab(0)[2] = img.base_slab(0)[6];  // pair 1 takes pair 3's key
  } else if (what == "after empty") {
    img.base_slab(0)[0] = k_empty;
    img.base_slab(0)[1] = k_empty;
  } else if (what == "freed slab") {
    const std::uint32_t a = img.base_slab(0)[slab::k_next_word];
    img.bitmaps[slab::super_of(a)][slab::index_in_super(a) / 32] &=
        ~(1u << (slab::index_in_super(a) % 32));
  } else {
    s[slab::k_next_word] = slab::make_address(200, 0, 0);
  }
  const auto r = slab::check_invariants(img);
  INFO(r.describe());
  CHECK(r.violations > 0);
}

TEST_CASE("multi mode rejects tombstones and FLUSH expects minimal lists", "[slab][invariants]") {
  slab::slab_image img = sample_image(slab_mode::multi);
  CHECK(slab::check_invariants(img).ok());
  slab::invariant_options flushed;
  flushed.flushed = true;
  CHECK_FALSE(slab::check_invariants(img, flushed).ok());  // deleted pairs still take room
  img.base_slab(0)[0] = k_tombstone;
  img.base_slab(0)[1] = k_empty;
  CHECK_FALSE(slab::check_invariants(img).ok());
}
