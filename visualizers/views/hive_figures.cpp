// The hive's paper figures: plots and images of the figure layer, from the same samples the
// window's views draw.
#include "visualizers/views/hive_figures.hpp"

#include <algorithm>
#include <cmath>

#include "core/common/format.hpp"
#include "core/common/probe_histogram.hpp"

namespace hs::vis {

fig::figure hive_buckets_figure(const probe_histogram& fill, const table_stats& st) {
  fig::panel p;
  p.legend = false;
  p.title = strprintf("Bucket fill at load %.3f", st.load_factor());
  p.x = {"live slots in the bucket"};
  p.y = {"buckets"};
  fig::series b;
  b.kind = fig::series::bars;
  for (std::uint32_t i = 0; i <= st.hive.slots_per_bucket; ++i)
    b.x.push_back(i), b.y.push_back(double(fill.counts[probe_bin(i)]));
  p.data.push_back(b);
  return {{p}, {}};
}

fig::figure hive_steps_figure(std::span<const hive_step_point> points, double bin) {
  static const char* names[] = {"1: replace", "2: claim", "3: evict", "4: stash"};
  fig::panel p;
  p.title = "Inserts completed by each step";
  p.x = {"load factor", 0, 1, false, false};
  p.y = {"share of the inserts", 0, 1, false, false};
  for (int k = 0; k < 4; ++k) {
    fig::series l;
    l.name = names[k];
    l.color = k;
    for (const auto& b : bin_steps(points, bin))
      if (b.total())
        l.x.push_back((b.load_lo + b.load_hi) / 2),
            l.y.push_back(double(b.steps[k]) / double(b.total()));
    p.data.push_back(std::move(l));
  }
  return {{p}, {}};
}

fig::figure hive_evictions_figure(const std::vector<hive::path_record>& paths,
                                  const table_stats& st, std::uint64_t first, std::uint64_t count,
                                  const hive::path_record* stepped) {
  const hive_counters& h = st.hive;
  const bool ranged = count > 0 && first < h.buckets;
  const std::uint64_t lo = ranged ? first : 0, n = ranged ? std::min(count, h.buckets - first)
                                                          : std::max<std::uint64_t>(h.buckets, 1);
  const double hi = double(lo + n);
  // A hop that leaves the range ends at the edge it leaves by, as in the window.
  const auto x_of = [&](std::uint64_t b) {
    return b < lo ? double(lo) : b >= lo + n ? hi : double(b);
  };
  fig::panel arcs;
  arcs.legend = false;
  const std::size_t shown = std::min(paths.size(), k_figure_paths);
  arcs.title = strprintf("%zu newest eviction paths, buckets %s to %s", shown,
                         format_count(lo).c_str(), format_count(lo + n).c_str());
  arcs.x = {"bucket", double(lo), hi, false, false};
  arcs.y = {"hop distance (buckets)"};
  // One series per hop: hops are separate arcs, not one line.
  const auto add_arcs = [&](const hive::path_record& p, fig::series s) {
    for (std::uint32_t d = 0; d < p.length; ++d) {
      const std::uint64_t from = p.bucket[d], to = d + 1 < p.length ? p.bucket[d + 1] : p.dest;
      const bool in_from = from >= lo && from < lo + n, in_to = to >= lo && to < lo + n;
      if (!in_from && !in_to) continue;
      const double a = x_of(from), b = x_of(to), height = std::fabs(double(to) - double(from));
      for (int k = 0; k <= 24; ++k) {  // half a sine: the arc rises to its hop's distance
        const double t = k / 24.0;
        s.x.push_back(a + (b - a) * t), s.y.push_back(height * std::sin(M_PI * t));
      }
      arcs.data.push_back(s);
      s.x.clear(), s.y.clear();
      s.name.clear();  // the legend names a path once
    }
  };
  for (std::size_t i = paths.size() - shown; i < paths.size(); ++i) {
    fig::series s;
    s.color = int(i % 6);
    s.width = 0.6;
    add_arcs(paths[i], s);
  }
  if (stepped) {
    fig::series s;
    s.color = -1;
    s.width = 2.0;
    s.name = strprintf("the step's insert of %u", stepped->newcomer);
    add_arcs(*stepped, s);
    arcs.legend = true;
  }
  fig::panel lengths;
  lengths.legend = false;
  std::uint64_t evictions = 0;
  std::uint32_t longest = 1;
  for (std::uint32_t i = 1; i <= k_max_eviction_path; ++i)
    if (h.path_lengths[i]) evictions += h.path_lengths[i], longest = i;
  lengths.title = strprintf("Path lengths (%s evictions)", format_count(evictions).c_str());
  lengths.x = {"entries moved by the eviction"};
  lengths.y = {"evictions", 0, 1, true};
  fig::series bars;
  bars.kind = fig::series::bars;
  for (std::uint32_t i = 1; i <= longest; ++i)
    bars.x.push_back(i), bars.y.push_back(double(h.path_lengths[i]));
  lengths.data.push_back(bars);
  fig::figure f{{arcs, lengths}, {}};
  if (!h.instrumented) f.caption = "Instrumentation was off: no paths were recorded.";
  return f;
}

fig::figure hive_stash_figure(const std::vector<stash_entry>& stash, const table_stats& st) {
  const hive_counters& h = st.hive;
  fig::panel p;
  p.legend = false;
  p.title = strprintf(
      "Stash: %s live of %s slots, %s handed out since the last drain%s",
      format_count(h.stash_live).c_str(), format_count(h.stash_capacity).c_str(),
      format_count(h.stash_used).c_str(),
      st.failed_full
          ? strprintf("; %s inserts refused", format_count(st.failed_full).c_str()).c_str()
          : "");
  p.x = {stash.size() < h.stash_live
             ? strprintf("ring slot (the first %zu live words)", stash.size())
             : "ring slot",
         0, double(std::max<std::uint64_t>(h.stash_capacity, 1)), false, false};
  p.y = {"live word", 0, 1, false, false};
  fig::series s;
  s.kind = fig::series::bars;
  s.bar_width =
      std::max(1.0, double(h.stash_capacity) / 300.0);  // a word stays visible in a large ring
  for (const stash_entry& e : stash) s.x.push_back(double(e.position)), s.y.push_back(1);
  p.data.push_back(s);
  return {{p}, {}};
}

fig::figure hive_resize_figure(const std::vector<strip_pixel>& strip, const table_stats& st,
                               const colormap& cmap) {
  const hive_counters& h = st.hive;
  const int columns = static_cast<int>(std::clamp<std::uint64_t>(h.round, 1, 1024));
  constexpr int row = 24, gap = 8;
  fig::image_panel im;
  im.width = columns, im.height = 2 * row + gap;
  im.rgba.assign(std::size_t(im.width) * im.height * 4, 255);
  const double slots = std::max<std::uint32_t>(h.slots_per_bucket, 1);
  const auto fill_at = [&](std::uint64_t b) {  // the strip covers the buckets in use, evenly
    if (strip.empty() || !h.buckets) return 0.0;
    const auto p = static_cast<std::size_t>(double(b) * double(strip.size()) / double(h.buckets));
    return strip[std::min(p, strip.size() - 1)].mean_chain / slots;
  };
  const auto put = [&](int x, int y, rgba8 c) {
    std::uint8_t* px = &im.rgba[(std::size_t(y) * im.width + x) * 4];
    px[0] = c.r, px[1] = c.g, px[2] = c.b, px[3] = 255;
  };
  const int split_col = h.round ? static_cast<int>(double(h.split) / double(h.round) * columns) : 0;
  for (int c = 0; c < columns; ++c) {
    const auto b = static_cast<std::uint64_t>(double(c) * double(h.round) / double(columns));
    const rgba8 top = cmap.at(float(fill_at(b)));
    const std::uint64_t partner = b + h.round;
    const rgba8 bottom =
        partner < h.buckets ? cmap.at(float(fill_at(partner))) : rgba8{40, 42, 50, 255};
    for (int y = 0; y < row; ++y) put(c, y, top), put(c, row + gap + y, bottom);
  }
  const int pointer_w = std::max(1, columns / 256);  // visible at print size
  for (int x = std::max(0, split_col - pointer_w / 2);
       x <= std::min(columns - 1, split_col + pointer_w / 2); ++x)
    for (int y = 0; y < im.height; ++y) put(x, y, rgba8{220, 30, 30, 255});
  im.x_label = strprintf("top: buckets 0-%s; bottom: partners (dark: unsplit); red: split pointer",
                         format_count(h.round).c_str());
  im.bar_label = "bucket fill (live / slots)";
  im.cmap = cmap;
  fig::panel p;
  p.image = std::move(im);
  p.title = strprintf("Linear hashing: %s buckets, split pointer at %s",
                      format_count(h.buckets).c_str(), format_count(h.split).c_str());
  fig::figure f{{p}, {}};
  f.caption = strprintf("%s splits and %s merges since creation.", format_count(h.splits).c_str(),
                        format_count(h.merges).c_str());
  if (h.merges_refused)
    f.caption += strprintf(
        " %s merges refused: the keys would have filled more than 90%% of the smaller table.",
        format_count(h.merges_refused).c_str());
  return f;
}

}  // namespace hs::vis
