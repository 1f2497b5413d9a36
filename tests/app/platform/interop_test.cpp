// [gpu] CUDA-GL interop end to end in a headless EGL context: the heatmap coloured by CUDA
// straight into the GL buffer equals the same pixels coloured on the host.
#include <catch2/catch_test_macros.hpp>

#include "app/platform/headless_platform.hpp"
#include "core/common/error.hpp"
#include "tests/support/gpu_support.hpp"
#include "tests/support/table_support.hpp"
#include "visualizers/gl/gl_resources.hpp"
#include "visualizers/heatmap_image.hpp"

using namespace hs;

TEST_CASE("interop colours match host colouring exactly", "[gpu][interop]") {
  test::require_gpu();
  app::headless_platform gl(14.f);
  INFO(gl.description());
  auto t = test::make(backend::gpu, 1u << 20);
  const auto keys = test::random_keys(700000, 81);
  test::insert(*t, keys, test::random_values(keys.size(), 82));
  test::erase(*t, std::vector<key_type>(keys.begin(), keys.begin() + 90000));
  const int w = 640, h = 400;
  buffer<occupancy_pixel> px(memory_space::device, std::uint64_t{w} * h);
  inspect_request req;
  req.occupancy = occupancy_query{0, 1u << 20, w, h, px.data()};
  inspect_result res;
  t->inspect(req, res, {});
  const vis::colormap cmap = vis::load_colormap("viridis");
  const vis::heatmap_style style;

  vis::heatmap_image image(true);
  image.update(px.data(), memory_space::device, w, h, cmap, style, {});
  INFO(image.path());
  REQUIRE(image.uses_interop());
  const auto via_cuda = gl::read_texture_rgba(image.texture(), w, h);

  const auto host_px = px.download();
  std::vector<std::uint8_t> expected;
  for (const auto& p : host_px) {
    const vis::rgba8 c = vis::heatmap_color(p, cmap.lut.data(), style);
    expected.insert(expected.end(), {c.r, c.g, c.b, c.a});
  }
  CHECK(via_cuda == expected);
  std::size_t erased_pixels = 0;
  for (const auto& p : host_px) erased_pixels += p.erased > 0;
  CHECK(erased_pixels > 0);  // the image shows deletions, not just fill
}
