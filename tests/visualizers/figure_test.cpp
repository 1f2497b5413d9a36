// The figure layer: one drawing written as PNG (of the page's size at its DPI), SVG (which parses
// and names its series and axis labels as text) and PDF (which renders back through poppler's
// pdftoppm to an image of the expected size, not blank); bad pages and folders refused, nothing
// half-written left behind.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <stb_image.h>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "core/common/error.hpp"
#include "tests/support/file_support.hpp"
#include "visualizers/figure/figure.hpp"

using namespace hs;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {
fig::figure sample_figure() {
  fig::figure f;
  fig::panel bars;
  bars.title = "Probe lengths";
  bars.x = {"probe length (slots)"};
  bars.y = {"keys", 0, 1, true};
  fig::series h;
  h.kind = fig::series::bars;
  h.name = "murmur3";
  for (int i = 0; i < 20; ++i) h.x.push_back(i), h.y.push_back(100000.0 / (1 + i * i));
  bars.data.push_back(h);
  fig::panel lines;
  lines.x = {"load factor", 0, 1, false, false};
  lines.y = {"inserts/s"};
  for (int s = 0; s < 2; ++s) {
    fig::series l;
    l.name = s ? "double hashing" : "linear probing";
    l.color = s;
    for (int i = 1; i <= 10; ++i) l.x.push_back(i / 10.0), l.y.push_back(1e10 / (i + s * 5));
    lines.data.push_back(l);
  }
  f.panels = {bars, lines};
  f.caption = "Load 0.9: <clusters> & probes";
  return f;
}
}  // namespace

TEST_CASE("a figure is written as PNG, SVG and PDF from one drawing", "[figure]") {
  const fs::path dir = fs::temp_directory_path() / "hs-figure-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fig::page pg{3.5, 2.4, 150, 8};
  const auto files = fig::write_figure(sample_figure(), pg, (dir / "probe").string());
  REQUIRE(files.size() == 3);
  for (const auto& e : fs::directory_iterator(dir))  // no temporary file left ("X.png.tmp-PID-N")
    CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);

  int w = 0, h = 0, n = 0;
  unsigned char* png = stbi_load((dir / "probe.png").string().c_str(), &w, &h, &n, 3);
  REQUIRE(png);
  CHECK(w == 525);  // 3.5 in at 150 dpi
  CHECK(h == 360);
  long dark = 0;
  for (int i = 0; i < w * h; ++i) dark += png[3 * i] < 128;
  stbi_image_free(png);
  CHECK(dark > 500);  // axes, bars and text on white

  const std::string svg = test::read_text(dir / "probe.svg");
  CHECK_THAT(svg, ContainsSubstring("<svg"));
  CHECK_THAT(svg, ContainsSubstring(">probe length (slots)</text>"));
  CHECK_THAT(svg, ContainsSubstring(">inserts/s</text>"));
  CHECK_THAT(svg, ContainsSubstring(">linear probing</text>"));
  CHECK_THAT(svg, ContainsSubstring(">double hashing</text>"));
  CHECK_THAT(svg, ContainsSubstring("&lt;clusters&gt; &amp; probes"));  // escaped
  CHECK(svg.find("</svg>") > svg.rfind("</text>"));

  if (std::system("command -v pdftoppm >/dev/null 2>&1") != 0)
    SKIP("pdftoppm (poppler-utils) is not installed");
  const std::string cmd = "pdftoppm -r 100 -png -singlefile '" + (dir / "probe.pdf").string() +
                          "' '" + (dir / "back").string() + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  unsigned char* back = stbi_load((dir / "back.png").string().c_str(), &w, &h, &n, 3);
  REQUIRE(back);
  CHECK(w == 350);
  CHECK(h == 240);
  dark = 0;
  for (int i = 0; i < w * h; ++i) dark += back[3 * i] < 128;
  stbi_image_free(back);
  CHECK(dark > 200);
  fs::remove_all(dir);
}

namespace {
/// The x of the SVG text element that shows `label`.
double text_x(const std::string& svg, const std::string& label) {
  const auto end = svg.find(">" + label + "</text>");
  REQUIRE(end != std::string::npos);
  const auto at = svg.rfind("<text x=\"", end);
  return std::stod(svg.substr(at + 9));
}
}  // namespace

TEST_CASE("the legend goes to the corner where it hides the least data", "[figure]") {
  const fs::path dir = fs::temp_directory_path() / "hs-figure-legend";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto legend_x = [&](bool rising) {
    fig::figure f;
    fig::panel pn;
    pn.x = {"load factor"};
    pn.y = {"share"};
    fig::series s;
    s.name = "claimed";
    for (int i = 0; i <= 20; ++i)
      s.x.push_back(i / 20.0), s.y.push_back(rising ? i / 20.0 : 1.0 - i / 20.0);
    pn.data.push_back(s);
    f.panels = {pn};
    fig::write_figure(f, {3.5, 2.4, 100, 8}, (dir / "legend").string());
    return text_x(test::read_text(dir / "legend.svg"), "claimed");
  };
  const double page_w = 3.5 * 72;       // SVG units are points
  CHECK(legend_x(true) < page_w / 2);   // the line ends top right: the legend moves left
  CHECK(legend_x(false) > page_w / 2);  // it starts top left: top right is free
  fs::remove_all(dir);
}

TEST_CASE("a page too large, or a folder that is not there, is refused before anything is written",
          "[figure]") {
  const fs::path dir = fs::temp_directory_path() / "hs-figure-test-bad";
  fs::remove_all(dir);
  fs::create_directories(dir);
  CHECK_THROWS_WITH(fig::write_figure(sample_figure(), {60, 40, 600, 8}, (dir / "big").string()),
                    ContainsSubstring("keep each side between 16 and 16,384"));
  CHECK_THROWS_WITH(
      fig::write_figure(sample_figure(), {3.5, 2.4, 300, 8}, (dir / "no-such" / "f").string()),
      ContainsSubstring("no folder"));
  CHECK(fs::is_empty(dir));
  const auto in = fig::parse_page_size("3.5x2.4in", 300);
  REQUIRE(in);
  CHECK(in->first == 3.5);
  const auto cm = fig::parse_page_size("9x6cm", 300);
  REQUIRE(cm);
  CHECK(std::abs(cm->first - 9 / 2.54) < 1e-9);
  CHECK(fig::parse_page_size("1600x1000px", 200)->first == 8);
  CHECK_FALSE(fig::parse_page_size("3.5in", 300));
  CHECK_FALSE(fig::parse_page_size("axbin", 300));
  fs::remove_all(dir);
}
