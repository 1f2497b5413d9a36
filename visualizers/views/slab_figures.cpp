// The slab family's paper figures, from the samples its window draws.
#include "visualizers/views/slab_figures.hpp"

#include <algorithm>

#include "core/common/format.hpp"
#include "core/slab/slab_layout.hpp"

namespace hs::vis {

namespace {

// A slab list as an image: cells of `cell` pixels with a one-pixel grid, so each pair stays a
// cell at any print size.
fig::panel list_panel(const slab_chain& chain, std::uint32_t longest,
                      const std::vector<key_type>& outlined) {
  constexpr int cell = 24;
  const int rows = static_cast<int>(std::max<std::size_t>(chain.slabs.size(), 1));
  fig::image_panel im;
  im.width = slab::k_slab_pairs * cell + 1, im.height = rows * cell + 1;
  im.rgba.assign(std::size_t(im.width) * im.height * 4, 255);
  const auto fill = [&](int cx, int cy, fig::rgb c) {
    for (int y = 1; y < cell; ++y)
      for (int x = 1; x < cell; ++x) {
        std::uint8_t* px = &im.rgba[(std::size_t(cy * cell + y) * im.width + cx * cell + x) * 4];
        px[0] = std::uint8_t(c.r * 255), px[1] = std::uint8_t(c.g * 255),
        px[2] = std::uint8_t(c.b * 255);
      }
  };
  for (int x = 0; x < im.width; ++x)  // the grid: light grey lines between cells
    for (int y = 0; y < im.height; ++y)
      if (x % cell == 0 || y % cell == 0) {
        std::uint8_t* px = &im.rgba[(std::size_t(y) * im.width + x) * 4];
        px[0] = px[1] = px[2] = 190;
      }
  const auto outline = [&](int cx, int cy) {  // a black frame inside the cell
    for (int y = 1; y < cell; ++y)
      for (int x = 1; x < cell; ++x)
        if (x <= 3 || y <= 3 || x >= cell - 3 || y >= cell - 3) {
          std::uint8_t* px = &im.rgba[(std::size_t(cy * cell + y) * im.width + cx * cell + x) * 4];
          px[0] = px[1] = px[2] = 0;
        }
  };
  std::uint64_t live = 0, marked = 0;
  for (std::size_t r = 0; r < chain.slabs.size(); ++r)
    for (int i = 0; i < slab::k_slab_pairs; ++i) {
      const std::uint32_t k = chain.slabs[r].words[2 * i];
      if (slab::is_live_key(k))
        fill(i, int(r), fig::series_rgb(0)), ++live;
      else if (k == k_tombstone)
        fill(i, int(r), fig::series_rgb(1));
      if (slab::is_live_key(k) && std::find(outlined.begin(), outlined.end(), k) != outlined.end())
        outline(i, int(r)), ++marked;
    }
  im.x_label =
      marked ? "15 pairs a slab, base on top: blue live, orange tombstone; framed: the step's keys"
             : "15 pairs a slab, base on top: blue live, orange tombstone, white empty";
  fig::panel p;
  p.image = std::move(im);
  p.title = strprintf("Bucket %s: %s slabs%s, %s live pairs", format_count(chain.bucket).c_str(),
                      format_count(chain.total).c_str(),
                      chain.total == longest && longest > 1 ? " (the longest)" : "",
                      format_count(live).c_str());
  if (chain.slabs.size() < chain.total)
    p.title += strprintf(" (first %zu shown)", chain.slabs.size());
  return p;
}

}  // namespace

fig::figure slab_lists_figure(const slab_chain& chain, const probe_histogram& h,
                              const std::vector<key_type>& outlined) {
  fig::panel p;
  p.title = strprintf("Slab lists: mean %.3f, longest %u slabs", h.mean(), h.max);
  p.x = {"slabs in the list (base included)"};
  p.y = {"buckets", 0, 1, true};
  fig::series s;
  s.kind = fig::series::bars;
  for (std::uint32_t i = 1; i <= std::min<std::uint32_t>(std::max<std::uint32_t>(h.max, 1), 64);
       ++i)
    s.x.push_back(i), s.y.push_back(double(h.counts[probe_bin(i)]));
  p.data.push_back(s);
  p.legend = false;
  return {{list_panel(chain, h.max, outlined), p}, {}};
}

fig::figure slab_allocator_figure(const allocator_image& a) {
  fig::panel p;
  p.title = strprintf("SlabAlloc: %u super blocks of %u memory blocks", a.super_blocks,
                      a.blocks_per_super);
  p.x = {"memory block (in super-block order)"};
  p.y = {"slabs allocated (of 1,024)", 0, 1024, false, false};
  fig::series s;
  s.kind = fig::series::bars;
  for (std::size_t i = 0; i < a.block_fill.size(); ++i)
    s.x.push_back(double(i)), s.y.push_back(a.block_fill[i]);
  p.data.push_back(s);
  p.legend = false;
  return {{p}, {}};
}

}  // namespace hs::vis
