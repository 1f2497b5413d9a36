// Paper figures written by a process killed at every step of their writes (each file flushed to
// disk, renamed into place, its folder flushed): each of the PNG, the PDF and the SVG is the old
// file or a whole new one (a PNG that decodes at the page's size, a PDF that ends, an SVG that
// closes), the new one once its rename is done, never a torn one.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <stb_image.h>
#include <catch2/catch_test_macros.hpp>

#include "core/common/atomic_file.hpp"
#include "tests/support/file_support.hpp"
#include "tests/support/kill_at_step.hpp"
#include "visualizers/figure/figure.hpp"

using namespace hs;
namespace fs = std::filesystem;

namespace {

using test::read_bytes;
using test::write_plain;

fig::figure small_figure() {
  fig::figure f;
  fig::panel p;
  p.title = "Probe lengths";
  p.x = {"probe length (slots)"};
  p.y = {"keys"};
  fig::series s;
  s.kind = fig::series::bars;
  s.name = "murmur3";
  for (int i = 0; i < 16; ++i) s.x.push_back(i), s.y.push_back(5000.0 / (1 + i * i));
  p.data.push_back(s);
  f.panels = {p};
  f.caption = "Load 0.7";
  return f;
}

// A whole file of its kind, as write_figure finishes them.
bool whole(const std::string& ext, const std::string& bytes) {
  if (ext == ".png") {
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load_from_memory(reinterpret_cast<const unsigned char*>(bytes.data()),
                                              static_cast<int>(bytes.size()), &w, &h, &n, 3);
    if (!px) return false;
    stbi_image_free(px);
    return w == 525 && h == 360;  // 3.5 x 2.4 in at 150 dpi
  }
  if (ext == ".pdf") {
    const std::size_t eof = bytes.rfind("%%EOF");
    return bytes.rfind("%PDF-", 0) == 0 && eof != std::string::npos && eof + 8 >= bytes.size();
  }
  const std::size_t end = bytes.rfind("</svg>");
  return bytes.find("<svg") != std::string::npos && end != std::string::npos &&
         end + 8 >= bytes.size() && bytes.find("murmur3") != std::string::npos;
}

}  // namespace

TEST_CASE("figures written by a process killed at any step are each the old file or a whole one",
          "[figure][file]") {
  const fs::path dir = fs::temp_directory_path() / "hs-figure-crash-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string base = (dir / "probe").string();
  const fig::page pg{3.5, 2.4, 150, 8};
  const fig::figure f = small_figure();
  const auto write_new = [&] { fig::write_figure(f, pg, base); };
  const std::vector<std::string> order = {".png", ".pdf", ".svg"};  // as write_figure makes them
  const auto old_text = [](const std::string& ext) { return "the old " + ext + " figure\n"; };
  const auto start_old = [&] {
    for (const std::string& ext : order) write_plain(base + ext, old_text(ext));
  };

  start_old();
  const std::vector<int> steps = test::write_steps(write_new);
  for (const std::string& ext : order) {
    INFO(ext);
    CHECK(whole(ext, read_bytes(base + ext)));
  }
  // Each file: flushed, renamed, its folder flushed.
  REQUIRE(steps.size() == 3 * order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    CHECK(steps[3 * i] == hs::detail::k_step_file_synced);
    CHECK(steps[3 * i + 1] == hs::detail::k_step_renamed);
    CHECK(steps[3 * i + 2] == hs::detail::k_step_folder_synced);
  }

  for (int k = 0; k < static_cast<int>(steps.size()); ++k) {
    start_old();
    REQUIRE(test::killed_at_step(k, write_new));
    for (std::size_t i = 0; i < order.size(); ++i) {
      const std::string& ext = order[i];
      const bool renamed = k >= static_cast<int>(3 * i + 1);
      const std::string now = read_bytes(base + ext);
      INFO("killed at step " << k << ": " << ext << (renamed ? " (renamed)" : " (not renamed)"));
      if (renamed)
        CHECK(whole(ext, now));
      else
        CHECK(now == old_text(ext));
    }
  }
}
