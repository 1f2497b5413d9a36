// The CSV behind each figure.
#include "app/ui/figure_numbers.hpp"

#include "core/common/format.hpp"

namespace hs::app {

namespace {

std::string histogram_csv(const probe_histogram& h) {
  std::string s = "probe_length_from,probe_length_to,slots\n";
  for (const auto& b : h.display_bins())
    s += strprintf("%llu,%llu,%llu\n", (unsigned long long)b.lo, (unsigned long long)(b.hi - 1),
                   (unsigned long long)b.count);
  return s;
}

std::string throughput_csv(const std::vector<batch_point>& pts) {
  std::string s = "time_s,load_before,ops_per_s,ops,batch_kind\n";
  for (const auto& p : pts)
    s += strprintf("%.6f,%.6f,%.6g,%llu,%s\n", p.time_s, p.load, p.ops_per_s,
                   (unsigned long long)p.ops, std::string(to_string(p.kind)).c_str());
  return s;
}

std::string timeline_csv(const std::vector<census_point>& pts,
                         const std::vector<rebuild_event>& events) {
  std::string s = "batch,capacity,load,tombstones,erased,mean_probe,max_probe,ops_per_s,rebuild\n";
  std::size_t e = 0;
  for (const auto& p : pts) {
    std::string rebuilt;
    while (e < events.size() && events[e].batch <= p.batch)
      rebuilt += (rebuilt.empty() ? "" : ";") + events[e++].label;
    s += strprintf("%llu,%llu,%.6f,%.6f,%.6f,%.4f,%.0f,%.6g,%s\n", (unsigned long long)p.batch,
                   (unsigned long long)p.capacity, p.load, p.tombstones, p.erased, p.mean_probe,
                   p.max_probe, p.ops_per_s, rebuilt.c_str());
  }
  return s;
}

/// Per image row: its slots and the fractions of their states (the picture's numbers, row by row).
// A row a device: its keys and load, what it sent each device in the last batch, its phases.
std::string gpus_csv(const sample_result& s) {
  if (!s.shards)
    return "device,live,load\n0," + std::to_string(s.stats.live) + "," +
           strprintf("%.6f", s.stats.load_factor()) + "\n";
  const shard_sample& sh = *s.shards;
  const std::uint32_t n = static_cast<std::uint32_t>(sh.devices.size());
  std::string out = "device,live,load,virtual_shards,probe_mean,probe_p99";
  for (std::uint32_t j = 0; j < n; ++j) out += ",keys_to_" + std::to_string(j);
  for (const std::string_view p : k_shard_phase_names) {
    std::string name(p);
    for (char& c : name)
      if (c == ' ') c = '_';
    out += "," + name + "_ms";
  }
  out += ",critical_path,batch_wall_ms\n";
  const bool ran = sh.exchange.devices == n;
  for (std::uint32_t i = 0; i < n; ++i) {
    out += strprintf("%u,%llu,%.6f,%u", i, (unsigned long long)sh.devices[i].live,
                     sh.devices[i].load_factor(),
                     i < sh.virtual_shards.size() ? sh.virtual_shards[i] : 0u);
    const probe_histogram none;
    const probe_histogram& h = i < sh.histograms.size() ? sh.histograms[i] : none;
    out += strprintf(",%.4f,%.0f", h.mean(), h.total ? h.percentile(0.99).value : 0.0);
    for (std::uint32_t j = 0; j < n; ++j)
      out += "," + std::to_string(ran ? sh.exchange.keys_from_to(i, j) : 0);
    for (int p = 0; p < k_shard_phases; ++p)
      out += strprintf(",%.4f", ran ? sh.exchange.phase_ms[i][p] : 0.0);
    out += ran && sh.exchange.slowest() == i ? ",yes" : ",no";
    out += strprintf(",%.4f\n", ran ? sh.exchange.wall_ms : 0.0);
  }
  return out;
}

std::string heatmap_csv(const app_frame& f) {
  const auto& q = f.last_request().occupancy;
  const sample_result& r = f.last_sample();
  std::vector<occupancy_pixel> px(std::uint64_t{q.width} * q.height);
  copy_bytes(px.data(), memory_space::host, r.pixels, r.space, px.size() * sizeof(occupancy_pixel),
             {});
  synchronize({});
  std::string s =
      "row,first_slot,slots,live_fraction,erased_fraction,tombstone_fraction,mean_probe_length\n";
  for (std::uint32_t y = 0; y < q.height; ++y) {
    // Slot-weighted over the pixels of the row that show slots (a last row may be partial).
    double live = 0, erased = 0, tomb = 0, disp = 0;
    std::uint64_t first = 0, slots = 0;
    for (std::uint32_t x = 0; x < q.width; ++x) {
      std::uint64_t lo, hi;
      pixel_slot_range(q, std::uint64_t{y} * q.width + x, lo, hi);
      if (hi <= lo) continue;
      if (slots == 0) first = lo;
      const auto& p = px[std::size_t{y} * q.width + x];
      const double n = static_cast<double>(hi - lo);
      live += p.live * n, erased += p.erased * n, tomb += p.tombstone * n,
          disp += p.mean_displacement * n;
      slots += hi - lo;
    }
    if (slots == 0) break;
    const double n = static_cast<double>(slots);
    s += strprintf("%u,%llu,%llu,%.6f,%.6f,%.6f,%.4f\n", y, (unsigned long long)first,
                   (unsigned long long)slots, live / n, erased / n, tomb / n, disp / n);
  }
  return s;
}

}  // namespace

std::string figure_numbers(const app_frame& f, const std::string& view) {
  const session& s = f.sess();
  const auto common = parse_view_kind(view);
  if (!common) return f.figure_csv(view);
  switch (*common) {
    case view_kind::heatmap: return heatmap_csv(f);
    case view_kind::histogram: return histogram_csv(f.last_sample().inspected.histogram);
    case view_kind::throughput: return throughput_csv(s.throughput());
    case view_kind::timeline: return timeline_csv(s.timeline(), s.rebuilds());
    case view_kind::compare: return f.compare_figure() ? f.compare_figure()->csv() : std::string();
    case view_kind::gpus: return gpus_csv(f.last_sample());
    case view_kind::stats: break;
  }
  return numbers_csv(f.numbers());
}

}  // namespace hs::app
