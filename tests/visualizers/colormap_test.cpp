// Colormaps: files parse (errors name the line), anchors land at the ends, luminance rises.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/common/error.hpp"
#include "visualizers/colormap.hpp"

using namespace hs;
using namespace hs::vis;

TEST_CASE("shipped colormaps interpolate their anchors into 256 entries", "[colormap]") {
  for (const auto& name : colormap_names()) {
    const colormap m = load_colormap(name);
    CAPTURE(name);
    CHECK(m.lut.size() == 256);
    SECTION("luminance rises from the first entry to the last") {
      for (std::size_t i = 8; i < m.lut.size(); i += 8)
        CHECK(luminance(m.lut[i]) > luminance(m.lut[i - 8]));
    }
  }
  const colormap v = load_colormap("viridis");
  CHECK(v.lut.front() == rgba8{0x44, 0x01, 0x54, 255});
  CHECK(v.lut.back() == rgba8{0xfd, 0xe7, 0x25, 255});
  CHECK(v.at(-1.f) == v.lut.front());
  CHECK(v.at(2.f) == v.lut.back());
}

TEST_CASE("interpolation between two anchors is linear", "[colormap]") {
  const colormap m = make_colormap("grey", {{0, 0, 0, 255}, {255, 255, 255, 255}});
  CHECK(m.lut[0].r == 0);
  CHECK(m.lut[128].r == 128);
  CHECK(m.lut[255].g == 255);
}

TEST_CASE("malformed colormap files are refused with file and line", "[colormap]") {
  using Catch::Matchers::ContainsSubstring;
  CHECK_THROWS_WITH(parse_colormap("bad", "# c\n000000\nzz1122\n", "bad.txt"),
                    ContainsSubstring("bad.txt:3"));
  CHECK_THROWS_WITH(parse_colormap("one", "ffffff\n", "one.txt"),
                    ContainsSubstring("at least two"));
  CHECK_THROWS_AS(parse_colormap("long", "0000000\nffffff\n", "long.txt"), user_error);
}
