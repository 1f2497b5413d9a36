// Paper figures of the common views and the compare figure.
#include "app/ui/render_paper.hpp"

#include <algorithm>

#include "core/common/format.hpp"
#include "core/common/probe_histogram.hpp"
#include "visualizers/heatmap_colors.hpp"

namespace hs::app {

namespace {

// The live fraction of the slots a grid shows (a range of the table: one device's shard), each
// pixel weighed by the slots it covers.
double shown_load(const std::vector<occupancy_pixel>& px, const occupancy_query& q) {
  const std::uint64_t n = px.size();
  if (n == 0 || q.slot_count == 0) return 0;
  double live = 0;
  for (std::uint64_t p = 0; p < n; ++p) {
    const std::uint64_t slots = q.slot_count >= n
                                    ? (p + 1) * q.slot_count / n - p * q.slot_count / n
                                    : (p < q.slot_count ? 1 : 0);
    live += double(px[p].live) * double(slots);
  }
  return live / double(q.slot_count);
}

// The heatmap at a print resolution: the whole table (or the range shown), coloured on the host.
fig::figure heatmap_figure(app_frame& f) {
  f.heatmap().set_area(1024, 512);
  f.sample_now();
  const sample_result& s = f.last_sample();
  const vis::heatmap_request& req = f.last_request();
  const int w = static_cast<int>(req.occupancy.width), h = static_cast<int>(req.occupancy.height);
  std::vector<occupancy_pixel> px(static_cast<std::size_t>(w) * h);
  if (s.pixels && !px.empty())
    copy_bytes(px.data(), memory_space::host, s.pixels, s.space,
               px.size() * sizeof(occupancy_pixel), {});
  fig::panel p;
  fig::image_panel im;
  im.width = w, im.height = h;
  im.rgba.resize(px.size() * 4);
  const vis::colormap& cmap = f.heatmap().cmap();
  for (std::size_t i = 0; i < px.size(); ++i) {
    const vis::rgba8 c = vis::heatmap_color(px[i], cmap.lut.data(), f.heatmap().style());
    im.rgba[4 * i] = c.r, im.rgba[4 * i + 1] = c.g, im.rgba[4 * i + 2] = c.b,
                im.rgba[4 * i + 3] = 255;
  }
  im.x_label =
      strprintf("slots %s to %s, row by row", format_count(req.occupancy.first_slot).c_str(),
                format_count(req.occupancy.first_slot + req.occupancy.slot_count).c_str());
  im.bar_label = f.heatmap().style().mode == vis::heatmap_mode::occupancy ? "live fraction of slots"
                                                                          : "probe length (log)";
  im.cmap = cmap;
  p.image = std::move(im);
  p.title =
      f.heatmap().showing_range()
          ? strprintf("Slot occupancy of the slots shown, load %.3f", shown_load(px, req.occupancy))
          : strprintf("Slot occupancy, load %.3f", s.stats.load_factor());
  return {{p}, {}};
}

fig::figure histogram_figure(app_frame& f) {
  const probe_histogram& h = f.last_sample().inspected.histogram;
  fig::panel p;
  p.title =
      strprintf("%s: mean %.3f, max %u",
                std::string(hooks_of(f.sess().config().table.family).histogram_measure).c_str(),
                h.mean(), h.max);
  p.x = {std::string(hooks_of(f.sess().config().table.family).histogram_measure)};
  p.y = {"keys", 0, 1, true};
  fig::series s;
  s.kind = fig::series::bars;
  // The first 128 lengths, one bar each: the shape a reader takes in (the title gives the maximum).
  const std::uint32_t shown = std::min<std::uint32_t>(std::max<std::uint32_t>(h.max + 1, 2), 128);
  for (std::uint32_t i = 0; i < shown; ++i) s.x.push_back(i), s.y.push_back(double(h.counts[i]));
  p.data.push_back(s);
  p.legend = false;
  return {{p}, {}};
}

fig::figure throughput_figure(app_frame& f) {
  fig::panel p;
  p.title = "Throughput per batch";
  p.x = {"load factor before the batch", 0, 1, false, false};
  p.y = {"operations/s"};
  fig::series by_kind[4];
  for (int k = 0; k < 4; ++k)
    by_kind[k].kind = fig::series::points,
    by_kind[k].name = batch_kind_label(static_cast<batch_kind>(k)), by_kind[k].color = k;
  for (const auto& pt : f.sess().throughput()) {
    fig::series& s = by_kind[static_cast<std::size_t>(pt.kind)];
    s.x.push_back(pt.load), s.y.push_back(pt.ops_per_s);
  }
  for (auto& s : by_kind)
    if (!s.x.empty()) p.data.push_back(std::move(s));
  return {{p}, {}};
}

fig::figure timeline_figure(app_frame& f) {
  fig::panel p;
  p.title = "Churn timeline";
  p.x = {"batch"};
  p.y = {"fraction of the slots", 0, 1, false, false};
  fig::series live, tomb, erased;
  live.name = "live keys", tomb.name = "tombstones", tomb.color = 5, erased.name = "erased values",
  erased.color = 1;
  for (const auto& c : f.sess().timeline()) {
    live.x.push_back(double(c.batch)), live.y.push_back(c.load);
    tomb.x.push_back(double(c.batch)), tomb.y.push_back(c.tombstones);
    erased.x.push_back(double(c.batch)), erased.y.push_back(c.erased);
  }
  p.data = {live, tomb, erased};
  return {{p}, {}};
}

// Each device's probe lengths: the mean and the 99th percentile, side by side.
fig::panel probes_panel(const std::vector<probe_histogram>& each, const std::string& dev) {
  const double n = double(each.size());
  fig::panel p;
  p.title = "Probe lengths on each " + dev;
  p.x = {dev, -0.5, n - 0.5, false, false};
  p.y = {"probe length"};
  fig::series mean, p99;
  mean.kind = p99.kind = fig::series::bars;
  mean.bar_width = p99.bar_width = 0.35;
  mean.name = "mean", p99.name = "p99", mean.color = 0, p99.color = 1;
  for (std::size_t d = 0; d < each.size(); ++d) {
    mean.x.push_back(double(d) - 0.2), mean.y.push_back(each[d].mean());
    p99.x.push_back(double(d) + 0.2);
    p99.y.push_back(each[d].total ? each[d].percentile(0.99).value : 0.0);
  }
  p.data = {mean, p99};
  return p;
}

// A table over several devices: each device's keys and probe lengths, the last batch's exchange
// matrix (a row a sender, shaded by its share of the batch), and each device's phases with the
// critical path.
std::optional<fig::figure> gpus_figure(app_frame& f) {
  const sample_result& s = f.last_sample();
  if (!s.shards) return std::nullopt;  // one device: the screen view says so
  const shard_sample& sh = *s.shards;
  const std::uint32_t n = static_cast<std::uint32_t>(sh.devices.size());
  const std::string dev = sh.simulated ? "device" : "GPU";
  fig::panel keys;
  keys.title = "Keys on each " + dev;
  keys.x = {dev, -0.5, n - 0.5, false, false};
  keys.y = {"live keys"};
  keys.legend = false;
  fig::series live;
  live.kind = fig::series::bars, live.bar_width = 0.6;
  for (std::uint32_t d = 0; d < n; ++d)
    live.x.push_back(d), live.y.push_back(double(sh.devices[d].live));
  keys.data.push_back(live);
  fig::figure out{{keys}, sh.link + "; owners from " + std::string(to_string(sh.owner)) + " bits."};
  if (sh.histograms.size() == n) out.panels.push_back(probes_panel(sh.histograms, dev));
  const batch_exchange& x = sh.exchange;
  if (x.devices != n) return out;  // no batch yet
  std::uint64_t most = 1;
  for (const std::uint64_t k : x.keys) most = std::max(most, k);
  fig::panel matrix;
  matrix.title = "Keys sent, last batch (row: from, column: to)";
  fig::diagram_panel grid;
  const fig::rgb blue = fig::series_rgb(4);
  for (std::uint32_t i = 0; i < n; ++i) {
    fig::diagram_line row;
    row.cells.push_back({{1, 1, 1}, dev + " " + std::to_string(i), i == 0 ? "from" : "", {}});
    for (std::uint32_t j = 0; j < n; ++j) {
      const double t = 0.75 * double(x.keys_from_to(i, j)) / double(most);  // text stays legible
      row.cells.push_back({{1 - t * (1 - blue.r), 1 - t * (1 - blue.g), 1 - t * (1 - blue.b)},
                           format_count(x.keys_from_to(i, j)),
                           i == 0 ? "to " + std::to_string(j) : "",
                           {}});
    }
    grid.lines.push_back(std::move(row));
  }
  matrix.diagram = std::move(grid);
  fig::panel phases;
  const std::uint32_t slow = x.slowest();
  double slow_ms = 0;
  for (const double ms : x.phase_ms[slow]) slow_ms += ms;
  phases.title =
      strprintf("Phases (ms); %s %u is the critical path, %.2f ms", dev.c_str(), slow, slow_ms);
  phases.x = {dev, -0.5, n - 0.5, false, false};
  phases.y = {"ms"};
  const double w = 0.8 / k_shard_phases;  // a phase's bar: side by side within a device
  for (int p = 0; p < k_shard_phases; ++p) {
    fig::series b;
    b.kind = fig::series::bars, b.name = std::string(k_shard_phase_names[p]), b.color = p,
    b.bar_width = w;
    for (std::uint32_t d = 0; d < n; ++d)
      b.x.push_back(d - 0.4 + w * (p + 0.5)), b.y.push_back(x.phase_ms[d][p]);
    phases.data.push_back(std::move(b));
  }
  out.panels.push_back(std::move(matrix));
  out.panels.push_back(std::move(phases));
  out.caption += strprintf(
      " Last batch: %s out and %s back between devices, %.2f ms on the host clock (the critical "
      "path's phases: %.2f ms).",
      format_bytes(x.bytes_out).c_str(), format_bytes(x.bytes_back).c_str(), x.wall_ms, slow_ms);
  return out;
}

fig::figure compare_figure(app_frame& f) {
  compare_set& set = *f.comparing();
  fig::panel rates, reads, lines;
  rates.title = "Throughput against load";
  rates.x = {"load factor before the batch", 0, 1, false, false};
  rates.y = {"operations/s"};
  reads.title = "Reads per operation";
  reads.x = {"load factor", 0, 1, false, false};
  reads.y = {"slots, buckets or slabs read"};
  // Where a family's slots differ in size (the linear family's 8 and 16 bytes), slots walked and
  // lines read part: the lines, from the samples (the captures and what was sampled between).
  lines.title = "64-byte lines read per operation";
  lines.x = reads.x;
  lines.y = {"64-byte lines read"};
  std::size_t short_batches = 0;
  for (std::size_t i = 0; i < set.size(); ++i) {
    fig::series r;
    r.kind = fig::series::points, r.name = set.label(i), r.color = static_cast<int>(i);
    // A fill's last batch may hold a handful of keys: its rate is a launch's, not the table's
    // (3 keys at 0.18 M/s beside batches of 2^20 at 10 G/s). It stays in the numbers.
    const std::uint64_t batch = set.at(i).workload().batch_size;
    for (const auto& pt : set.at(i).throughput()) {
      if (pt.ops * 2 < batch) {
        ++short_batches;
        continue;
      }
      r.x.push_back(pt.load), r.y.push_back(pt.ops_per_s);
    }
    rates.data.push_back(std::move(r));
    fig::series c;
    c.kind = fig::series::line, c.name = set.label(i), c.color = static_cast<int>(i);
    // With the timeline recorded (`timeline on`), what each batch left: the cost after every batch;
    // else the views' samples (the captures, and what the window sampled between them).
    const std::vector<census_point> batches = set.at(i).timeline();
    if (!batches.empty()) {
      for (const census_point& b : batches) c.x.push_back(b.load), c.y.push_back(b.mean_probe + 1);
    } else {
      for (const auto& [load, cost] : f.compare_figure()->cost_points(i))
        c.x.push_back(load), c.y.push_back(cost);
    }
    reads.data.push_back(std::move(c));
    if (hooks_of(set.at(i).config().table.family).lines_read) {
      fig::series l;
      l.kind = fig::series::line, l.name = set.label(i), l.color = static_cast<int>(i);
      for (const auto& [load, n] : f.compare_figure()->line_points(i))
        l.x.push_back(load), l.y.push_back(n);
      lines.data.push_back(std::move(l));
    }
  }
  // What a reader needs to weigh the rates: the device, the tables' size and the batch size
  // (small batches on a GPU are bound by their launches, not by the tables).
  std::string tables;
  for (std::size_t i = 0; i < set.size(); ++i)
    tables += (i == 0 ? "" : i + 1 == set.size() ? " and " : ", ") + set.label(i);
  const std::string note =
      set.size() == 0 ? std::string()
                      : strprintf(
                            "%s: %s, %s slots each, one workload in batches of %s operations, the "
                            "tables taking turns.",
                            set.at(0).backend_label().c_str(), tables.c_str(),
                            format_count(set.at(0).capacity()).c_str(),
                            format_count(set.at(0).workload().batch_size).c_str());
  const std::string left_out =
      short_batches ? strprintf(
                          " Batches under half that size (%zu, a fill's last) are in the "
                          "numbers, not the throughput panel.",
                          short_batches)
                    : std::string();
  if (lines.data.empty()) return {{rates, reads}, note + left_out};
  return {{rates, reads, lines}, note + left_out};
}

// The stage's caption first; a note the figure carries itself (instrumentation off, refused
// merges) after it.
void set_caption(fig::figure& f, const std::string& caption) {
  if (caption.empty()) return;
  f.caption = f.caption.empty() ? caption : caption + " " + f.caption;
}

}  // namespace

std::optional<fig::figure> paper_figure(app_frame& frame, const std::string& view,
                                        const std::string& caption) {
  std::optional<fig::figure> f;
  frame.sample_now();  // the table as the stage left it (the family's inspections included)
  const auto v = parse_view_kind(view);
  if (!v) {              // one of the family's figures, where it has a paper version
    frame.sample_now();  // a family view may choose from the first sample what to show (the longest
                         // list)
    const view_entry* entry = frame.state().ui().figure(view);
    if (entry && entry->paper && frame.views())
      f = entry->paper(*frame.views(), frame.sess(), frame.last_sample());
    if (f) set_caption(*f, caption);
    return f;
  }
  switch (*v) {
    case view_kind::heatmap: f = heatmap_figure(frame); break;
    case view_kind::histogram: f = histogram_figure(frame); break;
    case view_kind::throughput: f = throughput_figure(frame); break;
    case view_kind::timeline: f = timeline_figure(frame); break;
    case view_kind::compare:
      if (frame.comparing()) f = compare_figure(frame);
      break;
    case view_kind::stats: break;  // the numbers: their CSV
    case view_kind::gpus: f = gpus_figure(frame); break;
  }
  if (f) set_caption(*f, caption);
  return f;
}

}  // namespace hs::app
