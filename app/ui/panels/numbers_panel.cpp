// The numbers behind every view: one list, drawn in the window and written beside figures.
#include "app/ui/panels/numbers_panel.hpp"

#include <algorithm>

#include "core/bench/timing.hpp"
#include "core/common/format.hpp"

namespace hs::app {

namespace {
// A table over several devices: how they are linked, each one's share, and the last exchange.
void shard_rows(const shard_sample& sh, number_rows& n) {
  n.emplace_back("devices", sh.link + ", owner from " + std::string(to_string(sh.owner)) + " bits");
  std::string keys, loads;
  for (const table_stats& d : sh.devices) {
    keys += (keys.empty() ? "" : " / ") + format_count(d.live);
    loads += (loads.empty() ? "" : " / ") + strprintf("%.3f", d.load_factor());
  }
  n.emplace_back("live keys a device", keys);
  n.emplace_back("load a device", loads);
  if (sh.exchange.devices) {
    const batch_exchange& x = sh.exchange;
    std::uint64_t kept = 0, all = 0;
    for (std::uint32_t i = 0; i < x.devices; ++i)
      for (std::uint32_t j = 0; j < x.devices; ++j) {
        all += x.keys_from_to(i, j);
        if (i == j) kept += x.keys_from_to(i, j);
      }
    n.emplace_back("last batch between devices",
                   format_count(all - kept) + " of " + format_count(all) + " keys sent, " +
                       format_bytes(x.bytes_out) + " out, " + format_bytes(x.bytes_back) +
                       " back; slowest: device " + std::to_string(x.slowest()));
  }
}
}  // namespace

number_rows numbers(const frame_state& f) {
  const session& s = *f.sess;
  const table_stats& t = f.sample.stats;
  const session_config& c = s.config();
  const session_status st = s.status();
  const auto wl = s.workload();
  number_rows n;
  if (const std::string fresh = f.freshness.label(); !fresh.empty())
    n.emplace_back("sample", fresh);
  n.emplace_back("backend", s.gpu() ? s.backend_label() : "CPU model (" + f.backend_note + ")");
  n.emplace_back("table",
                 strprintf("%s, %s slots, %s", std::string(to_string(c.table.family)).c_str(),
                           format_count(t.capacity).c_str(), format_bytes(t.bytes).c_str()));
  n.emplace_back("hash", std::string(to_string(c.table.hash)));
  if (f.sample.shards) shard_rows(*f.sample.shards, n);
  const family_hooks& fu = f.hooks();
  if (fu.about_rows) fu.about_rows(n, s, t);
  const maintenance_policy mp = s.maintenance();
  if (mp.active())
    n.emplace_back("maintenance",
                   strprintf("grow above %.2f, shrink below %.2f, rehash above %.2f dead",
                             mp.grow_above, mp.shrink_below, mp.rehash_above));
  if (const auto rb = s.rebuilds(); !rb.empty())
    n.emplace_back("rebuilds", std::to_string(rb.size()) + ", last: " + rb.back().label);
  if (fu.count_rows) fu.count_rows(n, s, f.sample);
  const probe_histogram& h = f.sample.inspected.histogram;
  auto q = [&](double p) {
    const quantile v = h.percentile(p);
    return strprintf("%s%.0f", v.exact ? "" : "~", v.value);
  };
  const char* what = fu.histogram_measure.data();
  n.emplace_back(strprintf("%s mean", what), strprintf("%.4f", h.mean()));
  n.emplace_back(strprintf("%s max", what), format_count(h.max));
  n.emplace_back(strprintf("%s p50 / p99 / p99.9", what),
                 q(0.5) + " / " + q(0.99) + " / " + q(0.999));
  if (fu.lines_read && h.total)  // slots walked and lines read part where slots differ in size
    n.emplace_back("reads per lookup", strprintf("%.4f %s in %.4f 64-byte lines", h.mean() + 1.0,
                                                 fu.read_unit.data(), fu.lines_read(h, c.table)));
  n.emplace_back("rejected inserts / finds / erases (reserved key or value)",
                 format_count(t.rejected[int(op_kind::insert)]) + " / " +
                     format_count(t.rejected[int(op_kind::find)]) + " / " +
                     format_count(t.rejected[int(op_kind::erase)]));
  n.emplace_back(std::string(fu.failed_label), format_count(t.failed_full));
  n.emplace_back("batches / operations",
                 format_count(st.batches) + " / " + format_count(st.operations));
  const auto pts = s.throughput();
  if (!pts.empty()) {
    std::vector<double> rates;
    for (std::size_t i = pts.size() > 32 ? pts.size() - 32 : 0; i < pts.size(); ++i)
      rates.push_back(pts[i].ops_per_s);
    n.emplace_back("throughput, last batch", format_rate(pts.back().ops_per_s));
    n.emplace_back("throughput, median of last 32", format_rate(bench::median(rates)));
  }
  n.emplace_back("workload", strprintf("%s, seed %llu, batch %s",
                                       std::string(workload::to_string(wl.keys.dist)).c_str(),
                                       static_cast<unsigned long long>(wl.keys.seed),
                                       format_count(wl.batch_size).c_str()));
  if (wl.keys.dist == workload::distribution::file && wl.key_file) {
    n.emplace_back("key file", wl.key_file->source.path);
    n.emplace_back("keys read", wl.key_file->report.summary());
    if (wl.key_file->report.format == workload::key_format::text)
      n.emplace_back("string hash", workload::string_hash_name(wl.key_file->report.width));
  }
  n.emplace_back("operation mix", workload::to_string(wl.mix));
  if (f.sample_seconds > 0)
    n.emplace_back("views sampled",
                   strprintf("%.1f ms a sample; while batches run at most %.0f%% of the time",
                             f.sample_seconds * 1e3, 100.0 * f.sampling.share));
  const auto& q0 = f.request.occupancy;
  if (q0.width)
    n.emplace_back("heatmap", strprintf("slots %s-%s on %ux%u pixels (%s)",
                                        format_count(q0.first_slot).c_str(),
                                        format_count(q0.first_slot + q0.slot_count).c_str(),
                                        q0.width, q0.height, f.image->path().c_str()));
  return n;
}

namespace {
// ImGui's own wrapping may break after '.', '+' or '-' ("1. 08 GiB", "bithash1+b ithash2" with a
// narrow fallback font); numbers and names break only between words here, and a word wider than
// the column stays whole.
void text_wrapped_at_spaces(const std::string& text) {
  const float width = std::max(1.f, ImGui::GetContentRegionAvail().x);
  const float space = ImGui::CalcTextSize(" ").x;
  std::string line;
  float line_w = 0;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(at, end - at);
    const float w = ImGui::CalcTextSize(word.c_str()).x;
    if (!line.empty() && line_w + space + w > width) {
      ImGui::TextUnformatted(line.c_str());
      line.clear();
      line_w = 0;
    }
    line_w += (line.empty() ? 0 : space) + w;
    line += (line.empty() ? "" : " ") + word;
    at = end + 1;
  }
  ImGui::TextUnformatted(line.c_str());
}
}  // namespace

void draw_number_rows(const number_rows& rows) {
  // The name column as wide as its longest name; values take the rest and wrap there. Where that
  // leaves values too little room (a narrow dock, large text), each value goes under its name.
  float name_w = 0;
  for (const auto& [k, v] : rows) name_w = std::max(name_w, ImGui::CalcTextSize(k.c_str()).x);
  const bool stacked = ImGui::GetContentRegionAvail().x < name_w + 14.f * ImGui::GetFontSize();
  if (!ImGui::BeginTable("numbers", stacked ? 1 : 2, ImGuiTableFlags_RowBg)) return;
  if (!stacked) {
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, name_w);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  }
  for (const auto& [k, v] : rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (stacked)
      ImGui::TextDisabled("%s", k.c_str());
    else
      ImGui::TextUnformatted(k.c_str());
    if (stacked)
      ImGui::Indent();
    else
      ImGui::TableNextColumn();
    text_wrapped_at_spaces(v);
    if (stacked) ImGui::Unindent();
  }
  ImGui::EndTable();
}

const char* numbers_panel::title() const { return "Numbers"; }

void numbers_panel::draw(frame_state& f) {
  drawn_ = numbers(f);
  draw_number_rows(drawn_);
}

}  // namespace hs::app
