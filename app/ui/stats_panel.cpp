// The numbers behind every view: one list, drawn in the window and written beside figures.
#include <algorithm>

#include <imgui.h>

#include "app/ui/app_frame.hpp"
#include "core/bench/timing.hpp"
#include "core/common/format.hpp"

namespace hs::app {

std::vector<std::pair<std::string, std::string>> app_frame::numbers() const {
  const table_stats& t = last_.stats;
  const session_config& c = sess_->config();
  const session_status st = sess_->status();
  const auto wl = sess_->workload();
  std::vector<std::pair<std::string, std::string>> n;
  n.emplace_back("backend", sess_->gpu() ? sess_->backend_label() : "CPU model (" + backend_note_ + ")");
  n.emplace_back("table", strprintf("%s, %s slots, %s", std::string(to_string(c.table.family)).c_str(),
                                    format_count(t.capacity).c_str(), format_bytes(t.bytes).c_str()));
  n.emplace_back("hash", std::string(to_string(c.table.hash)));
  const bool slab = c.table.family == family::slab, hive = c.table.family == family::hive;
  if (hive)
    n.emplace_back("hive", strprintf("%u slots/bucket, %s, depth %d, stash %.1f%%, %s, instrumentation %s",
                                     t.hive.slots_per_bucket, c.table.hive.hashes.empty() ? "bithash1+bithash2" : c.table.hive.hashes.c_str(),
                                     c.table.hive.eviction_depth, 100 * c.table.hive.stash_fraction,
                                     c.table.hive.auto_resize ? "resizes itself" : "fixed size",
                                     t.hive.instrumented ? "on" : "off"));
  else if (slab)
    n.emplace_back("slab mode", c.table.slab.mode == slab_mode::unique ? "unique keys: INSERT replaces, DELETE leaves a tombstone"
                                                                      : "multi: duplicates kept, DELETE empties the pair");
  else
    n.emplace_back("erase", c.table.deletes == linear_delete_mode::tombstone ? "tombstone (seed 002)" : "empties the value (seed 000)");
  const maintenance_policy mp = sess_->maintenance();
  if (mp.active())
    n.emplace_back("maintenance", strprintf("grow above %.2f, shrink below %.2f, rehash above %.2f dead", mp.grow_above,
                                            mp.shrink_below, mp.rehash_above));
  if (const auto rb = sess_->rebuilds(); !rb.empty()) n.emplace_back("rebuilds", std::to_string(rb.size()) + ", last: " + rb.back().label);
  if (sess_->gpu() && !slab && !hive) n.emplace_back("tuning", describe(c.table.linear));
  if (slab) {
    n.emplace_back("buckets (base slabs)", format_count(t.slab.buckets));
    n.emplace_back("load (live / 15 per bucket = beta)", strprintf("%.4f", t.load_factor()));
    n.emplace_back("memory utilization", strprintf("%.4f (stored bytes / slab memory in use)", t.slab.utilization));
    n.emplace_back("chained slabs / longest list", format_count(t.slab.chained_slabs) + " / " + format_count(t.slab.longest_chain));
    n.emplace_back("SlabAlloc pool", strprintf("%s slabs in %s super blocks", format_count(t.slab.pool_slabs).c_str(),
                                               format_count(t.slab.super_blocks).c_str()));
    n.emplace_back("resident changes / failed allocations",
                   format_count(t.slab.resident_changes) + " / " + format_count(t.slab.alloc_failures));
    n.emplace_back("live pairs", format_count(t.live));
    n.emplace_back("tombstones", format_count(t.tombstones));
    const probe_histogram& ch = last_.inspected.chains;
    if (ch.total) n.emplace_back("list length mean / max (slabs)", strprintf("%.4f / %u", ch.mean(), ch.max));
  }
  if (hive) {
    n.emplace_back("buckets (round+split)", strprintf("%s (%s + %s)", format_count(t.hive.buckets).c_str(),
                                                        format_count(t.hive.round).c_str(), format_count(t.hive.split).c_str()));
    n.emplace_back("stash (live / slots)", format_count(t.hive.stash_live) + " / " + format_count(t.hive.stash_capacity));
    const std::uint64_t all = t.hive.steps[0] + t.hive.steps[1] + t.hive.steps[2] + t.hive.steps[3];
    if (all)
      n.emplace_back("inserts by step",
                     strprintf("replace %s, claim %s, evict %s, stash %s", format_count(t.hive.steps[0]).c_str(), format_count(t.hive.steps[1]).c_str(),
                               format_count(t.hive.steps[2]).c_str(), format_count(t.hive.steps[3]).c_str()));
    n.emplace_back("evictions", "moves " + format_count(t.hive.moves) + ", locks " + format_count(t.hive.locks) +
                                    ", restarts " + format_count(t.hive.restarts));
    n.emplace_back("splits / merges", format_count(t.hive.splits) + " / " + format_count(t.hive.merges));
  }
  if (!slab) n.emplace_back("load factor (live / slots)", strprintf("%.4f", t.load_factor()));
  if (!slab && !hive) {
    n.emplace_back("occupancy (keys in slots / slots)", strprintf("%.4f", t.occupancy()));
    n.emplace_back("live keys", format_count(t.live));
    n.emplace_back("erased values", format_count(t.erased));
    n.emplace_back("tombstones", format_count(t.tombstones));
    n.emplace_back("longest probe ever", format_count(t.max_displacement));
  }
  const probe_histogram& h = last_.inspected.histogram;
  auto q = [&](double p) {
    const quantile v = h.percentile(p);
    return strprintf("%s%.0f", v.exact ? "" : "~", v.value);
  };
  const char* what = slab ? "slab position of a key" : hive ? "candidate index" : "probe length";
  n.emplace_back(strprintf("%s mean", what), strprintf("%.4f", h.mean()));
  n.emplace_back(strprintf("%s max", what), format_count(h.max));
  n.emplace_back(strprintf("%s p50 / p99 / p99.9", what), q(0.5) + " / " + q(0.99) + " / " + q(0.999));
  n.emplace_back("rejected (reserved key/value)", format_count(t.rejected));
  n.emplace_back(slab ? "failed (SlabAlloc exhausted)" : hive ? "refused (stash full)" : "failed (table full)",
                 format_count(t.failed_full));
  n.emplace_back("batches / operations", format_count(st.batches) + " / " + format_count(st.operations));
  const auto pts = sess_->throughput();
  if (!pts.empty()) {
    std::vector<double> rates;
    for (std::size_t i = pts.size() > 32 ? pts.size() - 32 : 0; i < pts.size(); ++i) rates.push_back(pts[i].ops_per_s);
    n.emplace_back("throughput, last batch", format_rate(pts.back().ops_per_s));
    n.emplace_back("throughput, median of last 32", format_rate(bench::median(rates)));
  }
  n.emplace_back("workload", strprintf("%s, seed %llu, batch %s", std::string(workload::to_string(wl.keys.dist)).c_str(),
                                       static_cast<unsigned long long>(wl.keys.seed), format_count(wl.batch_size).c_str()));
  n.emplace_back("operation mix", workload::to_string(wl.mix));
  if (const double t = last_sample_seconds(); t > 0)
    n.emplace_back("views sampled", strprintf("%.1f ms a sample, at most %.0f%% of the time", t * 1e3, 100.0 * sampling_share));
  const auto& q0 = last_req_.occupancy;
  if (q0.width)
    n.emplace_back("heatmap", strprintf("slots %s-%s on %ux%u pixels (%s)", format_count(q0.first_slot).c_str(),
                                        format_count(q0.first_slot + q0.slot_count).c_str(), q0.width, q0.height,
                                        image_->path().c_str()));
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

void app_frame::draw_stats() {
  const auto rows = numbers();
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
    if (stacked) ImGui::TextDisabled("%s", k.c_str());
    else ImGui::TextUnformatted(k.c_str());
    if (stacked) ImGui::Indent();
    else ImGui::TableNextColumn();
    text_wrapped_at_spaces(v);
    if (stacked) ImGui::Unindent();
  }
  ImGui::EndTable();
}

}  // namespace hs::app
