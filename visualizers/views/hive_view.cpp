// Hive views: bars and stacked bands on ImPlot, the bucket strip and eviction arcs on the draw
// list.
#include "visualizers/views/hive_view.hpp"

#include <algorithm>
#include <cmath>

#include <imgui.h>
#include <implot.h>

#include "core/common/format.hpp"
#include "visualizers/series_colors.hpp"
#include "visualizers/views/plot_helpers.hpp"

namespace hs::vis {

namespace {
ImU32 to_u32(rgba8 c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }
constexpr ImU32 k_hop = IM_COL32(255, 220, 60, 255);
constexpr ImU32 k_unsplit = IM_COL32(40, 42, 50, 255);
const char* const k_step_names[4] = {"1 replace", "2 claim", "3 evict", "4 stash"};
constexpr double k_step_bin = 0.02;
constexpr double k_hop_seconds = 0.7;

/// x of bucket b's centre on a strip of `buckets` buckets drawn from x0 over width w.
float bucket_x(std::uint64_t b, std::uint64_t buckets, float x0, float w) {
  return x0 + w * float((double(b) + 0.5) / double(std::max<std::uint64_t>(buckets, 1)));
}

/// An arc from a to b above the baseline y, its height growing with the span (at most `room`).
void arc(ImDrawList* dl, float xa, float xb, float y, float room, ImU32 col, float thick) {
  const float rise = std::min(room, 0.2f * room + 0.5f * std::fabs(xb - xa));
  dl->AddBezierCubic(ImVec2(xa, y), ImVec2(xa, y - rise), ImVec2(xb, y - rise), ImVec2(xb, y), col,
                     thick);
}
}  // namespace

std::vector<step_bin> bin_steps(std::span<const hive_step_point> points, double width) {
  std::vector<step_bin> bins;
  for (const hive_step_point& p : points) {
    const double lo = std::max(0.0, std::min(p.load_before, p.load_after)),
                 hi = std::max(lo, std::max(p.load_before, p.load_after));
    const auto first = static_cast<std::size_t>(lo / width),
               last = static_cast<std::size_t>(hi / width);
    if (bins.size() <= last) bins.resize(last + 1);
    // Spread over the bins the point's load range covers, by overlap; what rounding leaves goes
    // to the last bin, so every insert is counted once.
    for (int s = 0; s < 4; ++s) {
      std::uint64_t left = p.steps[s];
      for (std::size_t i = first; i < last && hi > lo; ++i) {
        const double overlap =
            std::min(hi, double(i + 1) * width) - std::max(lo, double(i) * width);
        const auto part =
            std::min(left, static_cast<std::uint64_t>(double(p.steps[s]) * overlap / (hi - lo)));
        bins[i].steps[s] += part;
        left -= part;
      }
      bins[last].steps[s] += left;
    }
  }
  std::vector<step_bin> out;
  for (std::size_t i = 0; i < bins.size(); ++i) {
    if (!bins[i].total()) continue;
    bins[i].load_lo = double(i) * width;
    bins[i].load_hi = double(i + 1) * width;
    out.push_back(bins[i]);
  }
  return out;
}

hive_view::hive_view() : cmap_(load_colormap("viridis")) {}

void hive_view::draw_strip(const inspect_result& r, const table_stats& st, float height,
                           const char* what) {
  ImGui::TextUnformatted(what);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x, h = std::max(height, 8.f);
  ImGui::InvisibleButton("hive-strip", ImVec2(w, h));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const std::size_t n = r.strip.size();
  const float slots = float(std::max<std::uint32_t>(st.hive.slots_per_bucket, 1));
  for (std::size_t p = 0; p < n; ++p) {
    const float x0 = at.x + w * float(p) / float(n), x1 = at.x + w * float(p + 1) / float(n);
    dl->AddRectFilled(ImVec2(x0, at.y), ImVec2(x1 + 0.5f, at.y + h),
                      to_u32(cmap_.at(r.strip[p].mean_chain / slots)));
  }
  if (selected_ && st.hive.buckets) {
    const float sel = at.x + w * float(double(*selected_) / double(st.hive.buckets));
    dl->AddLine(ImVec2(sel, at.y - 2), ImVec2(sel, at.y + h + 2), IM_COL32(255, 255, 255, 255),
                2.f);
  }
  if (ImGui::IsItemHovered() && n) {
    const float fx = std::clamp((ImGui::GetMousePos().x - at.x) / w, 0.f, 0.9999f);
    const auto p = static_cast<std::size_t>(fx * float(n));
    const auto bucket = static_cast<std::uint64_t>(double(fx) * double(st.hive.buckets));
    ImGui::SetTooltip(
        "buckets near %llu: mean fill %.2f of %.0f, fullest %.0f\nclick: show the bucket's slots "
        "in the heatmap",
        (unsigned long long)bucket, r.strip[p].mean_chain, slots, r.strip[p].max_chain);
    if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) selected_ = picked_ = bucket;
  }
}

void hive_view::draw_buckets(const inspect_result& r, const table_stats& st, float height) {
  const float fs = ImGui::GetFontSize();
  const float total = height > 0 ? height : ImGui::GetContentRegionAvail().y;
  const hive_counters& h = st.hive;
  const std::uint64_t in_buckets = r.histogram.total;
  const auto share = [&](int i) {
    return in_buckets ? 100.0 * double(r.histogram.counts[i]) / double(in_buckets) : 0.0;
  };
  ImGui::Text(
      "%s buckets of %u slots, load %.4f; keys in their 1st / 2nd / 3rd candidate: %.1f%% / %.1f%% "
      "/ %.1f%%, "
      "%s in the stash",
      format_count(h.buckets).c_str(), h.slots_per_bucket, st.load_factor(), share(0), share(1),
      share(2), format_count(h.stash_live).c_str());
  const probe_histogram& f = r.hive.bucket_fill;
  const std::uint32_t slots = std::max<std::uint32_t>(h.slots_per_bucket, 1);
  std::vector<double> counts(slots + 1);
  for (std::uint32_t i = 0; i <= slots; ++i) counts[i] = double(f.counts[i]);
  if (const auto i = colormap_histogram(fill_frame_, "Bucket fill##bucket-fill",
                                        ImVec2(-1, std::max(total * 0.62f - 2 * fs, 60.f)),
                                        "live slots in the bucket", "buckets", "buckets", counts, 0,
                                        false, implot_colormap(cmap_)))
    ImGui::SetTooltip("%zu of %u slots live: %s buckets", *i, slots,
                      format_count(f.counts[*i]).c_str());
  draw_strip(r, st, total * 0.38f - 3 * fs,
             "Buckets in address order, coloured by fill (mean per pixel, 0 .. all slots)");
}

void hive_view::draw_path_lengths(const table_stats& st, float height) {
  const hive_counters& h = st.hive;
  std::uint32_t longest = 1;
  std::uint64_t evictions = 0;
  for (std::uint32_t i = 1; i <= 32; ++i)
    if (h.path_lengths[i]) longest = i, evictions += h.path_lengths[i];
  std::vector<double> counts(longest);
  for (std::uint32_t i = 1; i <= longest; ++i) counts[i - 1] = double(h.path_lengths[i]);
  // "###": the title counts evictions, the plot keeps its ID (and the user's legend choices).
  const std::string title = strprintf("Eviction path lengths (%s evictions)###path-lengths",
                                      format_count(evictions).c_str());
  if (const auto i =
          colormap_histogram(paths_frame_, title.c_str(), ImVec2(-1, std::max(height, 60.f)),
                             "entries moved by the eviction", "evictions", "evictions", counts, 1,
                             true, implot_colormap(cmap_)))
    ImGui::SetTooltip("%zu moves: %s evictions", *i + 1,
                      format_count(h.path_lengths[*i + 1]).c_str());
}

const hive::path_record* stepped_path(const std::vector<hive::path_record>& paths,
                                      const step_trace* step) {
  if (!step) return nullptr;
  for (auto it = paths.rbegin(); it != paths.rend(); ++it)
    for (const stepped_op& op : step->ops)
      if (op.kind == op_kind::insert && op.status == op_status::inserted && op.key == it->newcomer)
        return &*it;
  return nullptr;
}

namespace {

// Which hops of the stepped insert the animation has reached (all of them where it is not
// animated) also decides how much of its path the caption tells.
void draw_eviction_caption(const std::vector<hive::path_record>& paths, const hive_counters& h,
                           const hive::path_record* anim, int hops_shown, const step_trace* step) {
  ImGui::Text(
      "%zu recent eviction paths (newest brightest) over %s buckets; %s moves, %s locks, %s "
      "restarts",
      paths.size(), format_count(h.buckets).c_str(), format_count(h.moves).c_str(),
      format_count(h.locks).c_str(), format_count(h.restarts).c_str());
  if (anim) {
    std::string line =
        strprintf("step %llu: insert %u -> bucket %llu", (unsigned long long)step->serial,
                  anim->newcomer, (unsigned long long)anim->bucket[0]);
    for (std::uint32_t d = 0; d < anim->length && int(d) + 1 < hops_shown; ++d)
      line +=
          strprintf(", moves %u -> %llu", anim->moved[d],
                    (unsigned long long)(d + 1 < anim->length ? anim->bucket[d + 1] : anim->dest));
    ImGui::TextColored(ImVec4(1.f, 0.86f, 0.24f, 1.f), "%s", line.c_str());
  } else if (step) {
    ImGui::TextDisabled("step %llu: none of its inserts evicted (every candidate had room)",
                        (unsigned long long)step->serial);
  }
}

/// The buckets the arcs span, across the width w from x0: all, or the range asked for.
struct arc_span {
  bool ranged;
  std::uint64_t first, buckets;
  float x0, w;
  bool inside(std::uint64_t b) const { return b >= first && b - first < buckets; }
  // A hop leaving the range ends at the edge it leaves by: the path still shows where it goes on.
  float x_of(std::uint64_t b) const {
    if (!ranged || inside(b)) return bucket_x(b - first, buckets, x0, w);
    return b < first ? x0 : x0 + w;
  }
  // Only a hop with neither end in the range would be drawn along an edge alone.
  bool skips(std::uint64_t from, std::uint64_t to) const {
    return ranged && !inside(from) && !inside(to);
  }
};

void draw_path_arcs(ImDrawList* dl, const arc_span& span,
                    const std::vector<hive::path_record>& paths, const colormap& cmap, float base,
                    float room) {
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const hive::path_record& p = paths[i];
    const int alpha = 40 + int(200.0 * double(i + 1) / double(paths.size()));
    const ImU32 col = to_u32(cmap.at(0.35f + 0.65f * float(i + 1) / float(paths.size())), alpha);
    for (std::uint32_t d = 0; d < p.length; ++d) {
      const std::uint64_t to = d + 1 < p.length ? p.bucket[d + 1] : p.dest;
      if (span.skips(p.bucket[d], to)) continue;
      arc(dl, span.x_of(p.bucket[d]), span.x_of(to), base, room, col, 1.2f);
    }
  }
}

// Drawn over the recent paths, numbered, so the stepped insert's hops stand out from them.
void draw_stepped_hops(ImDrawList* dl, const arc_span& span, const hive::path_record& anim,
                       int hops_shown, float base, float room) {
  const float fs = ImGui::GetFontSize();
  for (std::uint32_t d = 0; d < anim.length && int(d) + 1 < hops_shown; ++d) {
    const std::uint64_t to = d + 1 < anim.length ? anim.bucket[d + 1] : anim.dest;
    if (span.skips(anim.bucket[d], to)) continue;
    const float xa = span.x_of(anim.bucket[d]), xb = span.x_of(to);
    arc(dl, xa, xb, base, room, k_hop, 3.f);
    dl->AddCircleFilled(ImVec2(xb, base), 4.f, k_hop);
    dl->AddText(ImVec2(xb + 3, base - fs * 1.2f), k_hop, std::to_string(d + 1).c_str());
  }
}

}  // namespace

void hive_view::draw_evictions(const inspect_result& r, const std::vector<hive::path_record>& paths,
                               const table_stats& st, const std::shared_ptr<const step_trace>& step,
                               double time_s, float height) {
  const float fs = ImGui::GetFontSize();
  const float total = height > 0 ? height : ImGui::GetContentRegionAvail().y;
  const hive_counters& h = st.hive;
  if (!h.instrumented)
    ImGui::TextColored(ImVec4(1.f, 0.65f, 0.2f, 1.f),
                       "instrumentation is off: no paths are recorded");
  // In step mode: the stepped insert whose path is newest in the ring, animated hop by hop.
  const hive::path_record* anim = stepped_path(paths, step.get());
  int hops_shown = anim ? int(anim->length) + 1 : 0;
  if (anim) {
    if (anim_serial_ != step->serial) anim_serial_ = step->serial, anim_start_s_ = time_s;
    if (time_s >= 0)  // a window animates; a figure (time < 0) shows the whole path
      hops_shown =
          1 + int(std::fmod((time_s - anim_start_s_) / k_hop_seconds, double(anim->length + 2)));
  }
  draw_eviction_caption(paths, h, anim, hops_shown, step.get());
  const float arcs_h = std::max(total * 0.5f - 3 * fs, 40.f);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::Dummy(ImVec2(w, arcs_h));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float base = at.y + arcs_h;
  // The buckets the arcs span: all, or the range asked for (hops leaving it are not drawn).
  const bool ranged = arc_count_ > 0 && arc_first_ < h.buckets;
  const arc_span span{ranged, ranged ? arc_first_ : 0,
                      ranged ? std::min(arc_count_, h.buckets - arc_first_) : h.buckets, at.x, w};
  draw_path_arcs(dl, span, paths, cmap_, base, arcs_h - 4);
  if (anim) draw_stepped_hops(dl, span, *anim, hops_shown, base, arcs_h - 4);
  if (ranged)  // the strip covers every bucket: under a range it would not line up with the arcs
    ImGui::TextDisabled(
        "arcs of the hops from or to buckets %s to %s of %s (a hop to a bucket outside ends at the "
        "edge)",
        format_count(span.first).c_str(), format_count(span.first + span.buckets).c_str(),
        format_count(h.buckets).c_str());
  else
    draw_strip(r, st, 1.6f * fs, "Buckets (fill)");
  draw_path_lengths(st, total * 0.5f - 4 * fs);
}

void hive_view::draw_steps(std::span<const hive_step_point> points, const table_stats& st,
                           float height) {
  const float fs = ImGui::GetFontSize();
  const float total = height > 0 ? height : ImGui::GetContentRegionAvail().y;
  const hive_counters& h = st.hive;
  const std::uint64_t all = h.steps[0] + h.steps[1] + h.steps[2] + h.steps[3];
  const auto pct = [&](int i) { return all ? 100.0 * double(h.steps[i]) / double(all) : 0.0; };
  ImGui::Text(
      "inserts by step since clear: replace %.2f%%, claim %.2f%%, evict %.3f%%, stash %.3f%% (%s "
      "inserts)",
      pct(0), pct(1), pct(2), pct(3), format_count(all).c_str());
  if (!h.instrumented)
    ImGui::TextColored(ImVec4(1.f, 0.65f, 0.2f, 1.f),
                       "instrumentation is off: steps are not counted");
  const auto bins = bin_steps(points, k_step_bin);
  double hi = 1.0;
  for (const step_bin& b : bins) hi = std::max(hi, b.load_hi);
  // Stacked bars as one shaded band per step, four points a bin: the band's bottom and top over
  // the bin, and zero height at both edges, so that bins apart leave a gap instead of a slope.
  std::vector<double> xs;
  std::vector<double> lower[4], upper[4];
  for (const step_bin& b : bins) {
    xs.insert(xs.end(), {b.load_lo, b.load_lo, b.load_hi, b.load_hi});
    double below = 0;
    for (int s = 0; s < 4; ++s) {
      const double above = below + double(b.steps[s]) / double(b.total());
      lower[s].insert(lower[s].end(), {below, below, below, below});
      upper[s].insert(upper[s].end(), {below, above, above, below});
      below = above;
    }
  }
  if (!ImPlot::BeginPlot("Insert steps against load factor (the Hive paper, Fig. 9)##steps",
                         ImVec2(-1, std::max(total - 1.6f * fs, 60.f))))
    return;
  ImPlot::SetupAxes("load factor", "share of the inserts");
  ImPlot::SetupAxesLimits(0, hi, 0, 1);
  // The legend above the plot: inside it would hide the high loads.
  setup_legend_outside();
  for (int s = 0; s < 4; ++s)
    ImPlot::PlotShaded(k_step_names[s], xs.data(), lower[s].data(), upper[s].data(),
                       static_cast<int>(xs.size()), {ImPlotProp_FillColor, series_color(s)});
  if (ImPlot::IsPlotHovered()) {
    const double hx = ImPlot::GetPlotMousePos().x;
    for (const step_bin& b : bins)
      if (hx >= b.load_lo && hx < b.load_hi) {
        const double t = double(b.total());
        ImGui::SetTooltip(
            "load %.2f-%.2f: %s inserts\nreplace %.2f%%, claim %.2f%%, evict %.3f%%, stash %.3f%%",
            b.load_lo, b.load_hi, format_count(b.total()).c_str(), 100 * b.steps[0] / t,
            100 * b.steps[1] / t, 100 * b.steps[2] / t, 100 * b.steps[3] / t);
      }
  }
  ImPlot::EndPlot();
}

void hive_view::draw_stash(const inspect_result& r, const table_stats& st, float height) {
  const float fs = ImGui::GetFontSize();
  const float total = height > 0 ? height : ImGui::GetContentRegionAvail().y;
  const hive_counters& h = st.hive;
  const float frac = h.stash_capacity ? float(h.stash_live) / float(h.stash_capacity) : 0.f;
  ImGui::Text("Overflow stash: a ring of %s slots (%.2f%% of the table), drained at every resize",
              format_count(h.stash_capacity).c_str(),
              st.capacity ? 100.0 * double(h.stash_capacity) / double(st.capacity) : 0.0);
  ImGui::ProgressBar(
      frac, ImVec2(-1, 1.6f * fs),
      strprintf("%s live of %s (%s handed out since the last drain)",
                format_count(h.stash_live).c_str(), format_count(h.stash_capacity).c_str(),
                format_count(h.stash_used).c_str())
          .c_str());
  if (st.failed_full)
    ImGui::TextColored(ImVec4(1.f, 0.35f, 0.35f, 1.f),
                       "%s inserts refused (failed_full): candidates and stash full, "
                       "pending the next resize",
                       format_count(st.failed_full).c_str());
  else
    ImGui::TextDisabled("no insert refused");
  if (r.hive.stash.empty()) {
    ImGui::TextDisabled("the stash holds no key");
    return;
  }
  ImGui::Text("its words%s:", r.hive.stash.size() < h.stash_live
                                  ? strprintf(" (first %zu)", r.hive.stash.size()).c_str()
                                  : "");
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV;
  if (ImGui::BeginTable("stash", 3, flags, ImVec2(-1, std::max(total - 6 * fs, 3 * fs)))) {
    ImGui::TableSetupColumn("ring slot");
    ImGui::TableSetupColumn("key");
    ImGui::TableSetupColumn("value");
    ImGui::TableHeadersRow();
    for (const stash_entry& e : r.hive.stash) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%llu", (unsigned long long)e.position);
      ImGui::TableNextColumn();
      ImGui::Text("%u", e.key);
      ImGui::TableNextColumn();
      ImGui::Text("%u", e.value);
    }
    ImGui::EndTable();
  }
}

void hive_view::draw_resize(const inspect_result& r, const table_stats& st, float height) {
  const float fs = ImGui::GetFontSize();
  const float total = height > 0 ? height : ImGui::GetContentRegionAvail().y;
  const hive_counters& h = st.hive;
  ImGui::TextWrapped(
      "Linear hashing: round of %s buckets, split pointer at %s (%.1f%% of the round), %s buckets "
      "in use; "
      "%s splits and %s merges since creation",
      format_count(h.round).c_str(), format_count(h.split).c_str(),
      h.round ? 100.0 * double(h.split) / double(h.round) : 0.0, format_count(h.buckets).c_str(),
      format_count(h.splits).c_str(), format_count(h.merges).c_str());
  if (h.merges_refused)
    ImGui::TextColored(ImVec4(1.f, 0.55f, 0.2f, 1.f),
                       "%s merges refused: the keys would have filled more than 90%% of the "
                       "smaller table",
                       format_count(h.merges_refused).c_str());
  ImGui::TextWrapped(
      "top: buckets 0 .. round-1 (left of the pointer: split, addressed with one more bit); "
      "bottom: their partners round .. 2 round-1 (dark: not split yet); colour: fill");
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float row = std::max((total - 4 * fs) * 0.35f, 10.f), gap = row * 0.6f;
  ImGui::Dummy(ImVec2(w, 2 * row + gap + fs));
  if (!h.round || r.strip.empty()) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const auto columns = static_cast<int>(std::min<float>(w, 1024.f));
  const float cw = w / float(columns),
              slots = float(std::max<std::uint32_t>(h.slots_per_bucket, 1));
  const auto fill_at = [&](std::uint64_t b) {  // the strip covers the buckets in use, evenly
    const auto p = static_cast<std::size_t>(double(b) * double(r.strip.size()) / double(h.buckets));
    return r.strip[std::min(p, r.strip.size() - 1)].mean_chain / slots;
  };
  for (int c = 0; c < columns; ++c) {
    const auto b = static_cast<std::uint64_t>(double(c) * double(h.round) / double(columns));
    const float x = at.x + float(c) * cw;
    dl->AddRectFilled(ImVec2(x, at.y), ImVec2(x + cw + 0.5f, at.y + row),
                      to_u32(cmap_.at(fill_at(b))));
    const std::uint64_t partner = b + h.round;
    dl->AddRectFilled(ImVec2(x, at.y + row + gap), ImVec2(x + cw + 0.5f, at.y + 2 * row + gap),
                      partner < h.buckets ? to_u32(cmap_.at(fill_at(partner))) : k_unsplit);
  }
  const float px = at.x + w * float(double(h.split) / double(h.round));
  dl->AddLine(ImVec2(px, at.y - 4), ImVec2(px, at.y + 2 * row + gap + 4), k_hop, 3.f);
  dl->AddTriangleFilled(ImVec2(px - 6, at.y + 2 * row + gap + fs),
                        ImVec2(px + 6, at.y + 2 * row + gap + fs),
                        ImVec2(px, at.y + 2 * row + gap + 4), k_hop);
  dl->AddText(ImVec2(std::min(px + 8, at.x + w - 8 * fs), at.y + 2 * row + gap + 2), k_hop,
              "split pointer");
}

std::string steps_csv(std::span<const hive_step_point> points, double width) {
  std::string s = "load_lo,load_hi,replace,claim,evict,stash\n";
  for (const step_bin& b : bin_steps(points, width))
    s += strprintf("%.3f,%.3f,%llu,%llu,%llu,%llu\n", b.load_lo, b.load_hi,
                   (unsigned long long)b.steps[0], (unsigned long long)b.steps[1],
                   (unsigned long long)b.steps[2], (unsigned long long)b.steps[3]);
  return s;
}

std::string paths_csv(const std::vector<hive::path_record>& paths) {
  std::string s = "newcomer,moves,buckets (first candidate .. destination),moved keys\n";
  for (const hive::path_record& p : paths) {
    std::string b, k;
    for (std::uint32_t d = 0; d < p.length; ++d) {
      b += std::to_string(p.bucket[d]) + " ";
      k += std::to_string(p.moved[d]) + (d + 1 < p.length ? " " : "");
    }
    s += strprintf("%u,%u,%s%llu,%s\n", p.newcomer, p.length, b.c_str(), (unsigned long long)p.dest,
                   k.c_str());
  }
  return s;
}

std::string bucket_fill_csv(const probe_histogram& fill) {
  std::string s = "live_slots,buckets\n";
  for (std::uint32_t i = 0; i <= std::min<std::uint32_t>(fill.max, 32); ++i)
    s += strprintf("%u,%llu\n", i, (unsigned long long)fill.counts[i]);
  return s;
}

std::string resize_csv(const inspect_result& r, const table_stats& st) {
  std::string s = strprintf(
      "round,%llu\nsplit,%llu\nbuckets,%llu\nsplits,%llu\nmerges,%llu\nmerges_refused,%llu\n"
      "pixel,first_bucket,mean_fill,max_fill\n",
      (unsigned long long)st.hive.round, (unsigned long long)st.hive.split,
      (unsigned long long)st.hive.buckets, (unsigned long long)st.hive.splits,
      (unsigned long long)st.hive.merges, (unsigned long long)st.hive.merges_refused);
  for (std::size_t p = 0; p < r.strip.size(); ++p)
    s += strprintf("%zu,%llu,%.3f,%.0f\n", p,
                   (unsigned long long)(p * st.hive.buckets / r.strip.size()),
                   r.strip[p].mean_chain, r.strip[p].max_chain);
  return s;
}

std::string stash_csv(const std::vector<stash_entry>& stash) {
  std::string s = "ring_slot,key,value\n";
  for (const stash_entry& e : stash)
    s += strprintf("%llu,%u,%u\n", (unsigned long long)e.position, e.key, e.value);
  return s;
}

}  // namespace hs::vis
