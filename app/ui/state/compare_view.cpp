// Compare mode's window and figure.
#include "app/ui/state/compare_view.hpp"

#include <algorithm>
#include <cmath>

#include <imgui.h>
#include <implot.h>

#include "app/families/family_hooks.hpp"
#include "app/ui/state/record_views.hpp"
#include "core/common/format.hpp"
#include "visualizers/axis_format.hpp"
#include "visualizers/series_colors.hpp"
#include "visualizers/views/plot_helpers.hpp"

namespace hs::app {

namespace {
constexpr std::size_t k_cost_points_max = 4000;
// What one operation reads: the family's measure + 1 of its read unit (probe length + 1 slots,
// slab position + 1 slabs, candidate index + 1 buckets).
const char* cost_unit(family f) { return hooks_of(f).read_unit.data(); }
// The 64-byte lines an operation reads, where the family tells them apart from its read unit;
// NaN elsewhere.
double lines_of(const probe_histogram& h, const table_config& cfg) {
  const auto lines = hooks_of(cfg.family).lines_read;
  return lines && h.total ? lines(h, cfg) : std::nan("");
}
// A cost plot against the load factor (0 to 1), its y axis fitted to the data.
bool begin_cost_plot(const char* title, const char* y_label, ImVec2 size) {
  if (!ImPlot::BeginPlot(title, size)) return false;
  vis::setup_legend_outside();
  ImPlot::SetupAxes("load factor", y_label, ImPlotAxisFlags_None, ImPlotAxisFlags_AutoFit);
  ImPlot::SetupAxisLimits(ImAxis_X1, 0, 1, ImPlotCond_Once);
  return true;
}
// Table i's line of a cost plot, in its series colour.
void plot_cost(const std::string& name, const std::vector<std::pair<double, double>>& pts,
               std::size_t i) {
  std::vector<double> x, y;
  for (const auto& [load, cost] : pts) x.push_back(load), y.push_back(cost);
  const ImVec4 col = vis::series_color(static_cast<int>(i));
  ImPlot::PlotLine(name.c_str(), x.data(), y.data(), static_cast<int>(x.size()),
                   {ImPlotProp_LineColor, col, ImPlotProp_LineWeight, 2.f, ImPlotProp_Marker,
                    ImPlotMarker_Circle, ImPlotProp_MarkerSize, 3.f, ImPlotProp_MarkerLineColor,
                    col, ImPlotProp_MarkerFillColor, col});
}
}  // namespace

compare_view::compare_view(compare_set& set) : set_(set), cmap_(vis::load_colormap("viridis")) {
  for (std::size_t i = 0; i < set_.size(); ++i) {
    column c;
    c.background = std::make_unique<sampler>(set_.at(i));
    c.image = std::make_unique<vis::heatmap_image>(set_.at(i).gpu());
    c.histogram.x_label = std::string(hooks_of(set_.at(i).config().table.family).histogram_measure);
    cols_.push_back(std::move(c));
  }
}

compare_view::~compare_view() = default;

void compare_view::adopt(column& c, const session& s, const vis::heatmap_request& tag) {
  c.image->update(c.last.pixels, c.last.space, static_cast<int>(tag.occupancy.width),
                  static_cast<int>(tag.occupancy.height), cmap_, vis::heatmap_style{}, {});
  // After Back the table ran fewer operations than the newest points were sampled at: those
  // points belong to commands undone, and go with them. A point carries the operations when its
  // sample finished: a batch that ran while it was taken may show in its load, so undoing that
  // batch takes the point too.
  const std::uint64_t ops = s.status().operations;
  while (!c.cost.empty() && c.cost.back().operations > ops) c.cost.pop_back();
  const probe_histogram& h = c.last.inspected.histogram;
  // A sample begun before Back shows a state since undone: its image stands until the next,
  // but it makes no point.
  if (h.total && c.last.operations <= ops) {
    c.cost.push_back({c.last.stats.load_factor(), h.mean() + 1.0, lines_of(h, s.config().table),
                      std::max(c.last.operations, c.last.operations_after)});
    if (c.cost.size() > k_cost_points_max)
      c.cost.erase(c.cost.begin(), c.cost.begin() + k_cost_points_max / 4);
  }
}

std::pair<std::uint32_t, std::uint32_t> occupancy_grid(std::uint64_t slots, std::uint32_t w,
                                                       std::uint32_t h) {
  if (slots == 0 || w == 0 || h == 0 || slots >= std::uint64_t{w} * h) return {w, h};
  const double aspect = static_cast<double>(w) / static_cast<double>(h);
  auto cols = static_cast<std::uint64_t>(std::ceil(std::sqrt(static_cast<double>(slots) * aspect)));
  cols = std::clamp<std::uint64_t>(cols, 1, std::min<std::uint64_t>(slots, w));
  const std::uint64_t rows = (slots + cols - 1) / cols;
  return {static_cast<std::uint32_t>(cols),
          static_cast<std::uint32_t>(std::min<std::uint64_t>(rows, h))};
}

void compare_view::sample(bool force) {
  const double now = steady_seconds();
  for (std::size_t i = 0; i < cols_.size(); ++i) {
    column& c = cols_[i];
    session& s = set_.at(i);
    if (s.lost()) continue;  // its column keeps the last sample from before the fault
    sample_request req;
    const auto [w, h] = occupancy_grid(s.capacity(), static_cast<std::uint32_t>(c.image_w),
                                       static_cast<std::uint32_t>(c.image_h));
    req.occupancy = occupancy_query{0, s.capacity(), w, h, nullptr};
    req.probe_histogram = true;
    vis::heatmap_request tag;
    tag.occupancy = *req.occupancy;
    if (force) {  // a figure: this table as it is now
      s.sample(req, c.last, c.pixels);
      adopt(c, s, tag);
      continue;
    }
    if (c.background->take(c.last, tag)) adopt(c, s, tag);
    // As the window's own table: a table that changed and rests is sampled at once (behind a
    // sample already running), else every period_s.
    const bool changed = s.version() != c.asked_version, at_rest = s.at_rest();
    if (c.background->pending() || (c.background->running() && !(changed && at_rest))) continue;
    if (!(changed && at_rest) && now - c.asked_at < period_s) continue;
    c.asked_version = s.version();
    c.asked_at = now;
    tag.occupancy = *req.occupancy;
    c.background->request(req, tag);
  }
}

void compare_view::sample_now() { sample(true); }

void compare_view::draw_column(std::size_t i, float width, float height) {
  column& c = cols_[i];
  const session& s = set_.at(i);
  const table_stats& st = c.last.stats;
  const family f = s.config().table.family;
  const float top = ImGui::GetCursorPosY();
  ImGui::TextColored(vis::series_color(static_cast<int>(i)), "%s", set_.label(i).c_str());
  const std::uint32_t devices = s.config().table.devices;
  const std::string where =
      devices > 1
          ? strprintf("over %u %s", devices, s.gpu() ? "GPUs" : "simulated devices (CPU models)")
      : s.gpu() ? s.backend_label()
                : "CPU model";
  ImGui::TextDisabled("%s slots (%s), %s", format_count(st.capacity).c_str(),
                      format_bytes(st.bytes).c_str(), where.c_str());
  const bool never = c.last.taken_at == 0, old = never || c.last.version < s.version(),
             at_rest = s.at_rest();
  if (never || (old && at_rest))
    ImGui::TextColored(
        ImVec4(0.95f, 0.6f, 0.2f, 1.f), "%s",
        never ? "sampling..." : "showing the table before its last change: sampling...");
  // The heatmap fills the column's width; the next sample is taken at that size (a pixel a
  // screen pixel, up to what a sample should copy).
  const float image_h = std::max(height * 0.34f, 2 * ImGui::GetFontSize());
  c.image_w = std::clamp(static_cast<int>(width), 64, 2048);
  c.image_h = std::clamp(static_cast<int>(image_h), 32, 1024);
  if (c.image->texture())
    ImGui::Image(static_cast<ImTextureID>(static_cast<std::intptr_t>(c.image->texture())),
                 ImVec2(width, image_h));
  else
    ImGui::Dummy(ImVec2(width, image_h));
  ImGui::Text("load %.4f, %s live", st.load_factor(), format_count(st.live).c_str());
  const probe_histogram& h = c.last.inspected.histogram;
  ImGui::Text("%s: mean %.3f, max %u", std::string(hooks_of(f).histogram_measure).c_str(), h.mean(),
              h.max);
  const double lines = lines_of(h, s.config().table);
  if (std::isnan(lines))
    ImGui::Text("reads per operation: %.3f %s", h.total ? h.mean() + 1.0 : 0.0, cost_unit(f));
  else
    ImGui::Text("reads per operation: %.3f %s in %.3f 64-byte lines", h.mean() + 1.0, cost_unit(f),
                lines);
  const rate_summary rates = summarize_rates(s.throughput(), s.workload().batch_size);
  if (rates.whole > 0)
    ImGui::Text("median batch: %s over %s batches", format_rate(rates.median).c_str(),
                format_count(rates.whole).c_str());
  if (rates.last_is_tail)
    ImGui::TextDisabled("last batch: a tail of %s ops at %s", format_count(rates.last_ops).c_str(),
                        format_rate(rates.last).c_str());
  else if (rates.last_ops > 0 && rates.whole == 0)
    ImGui::Text("last batch: %s", format_rate(rates.last).c_str());
  if (st.failed_full)
    ImGui::TextColored(ImVec4(1.f, 0.4f, 0.4f, 1.f), "%s inserts failed for room",
                       format_count(st.failed_full).c_str());
  const float used = ImGui::GetCursorPosY() - top;
  c.histogram.draw(h, std::max(height - used - ImGui::GetStyle().ItemSpacing.y, 60.f));
  c.drawn = {
      c.last.version, st.load_factor(), st.live, old && at_rest, h.total ? h.mean() + 1.0 : 0.0,
      lines,          rates.median};
}

void compare_view::draw_overlays(float height) {
  const bool lines = any_lines();
  const float plots = lines ? 3.f : 2.f;
  const ImVec2 size(ImGui::GetContentRegionAvail().x / plots - ImGui::GetStyle().ItemSpacing.x,
                    height);
  if (ImPlot::BeginPlot("throughput against load##compare", size)) {
    vis::setup_legend_outside();
    ImPlot::SetupAxes("load factor before the batch", "operations/s", ImPlotAxisFlags_None,
                      ImPlotAxisFlags_AutoFit);
    ImPlot::SetupAxisFormat(ImAxis_Y1, vis::format_tick);  // 12M, not 1.2e+07
    ImPlot::SetupAxisLimits(ImAxis_X1, 0, 1, ImPlotCond_Once);
    for (std::size_t i = 0; i < cols_.size(); ++i) {
      const auto pts = set_.at(i).throughput();
      std::vector<double> x, y;
      for (const auto& p : pts) x.push_back(p.load), y.push_back(p.ops_per_s);
      const ImVec4 col = vis::series_color(static_cast<int>(i));
      ImPlot::PlotScatter(set_.label(i).c_str(), x.data(), y.data(), static_cast<int>(x.size()),
                          {ImPlotProp_Marker, ImPlotMarker_Circle, ImPlotProp_MarkerSize, 3.f,
                           ImPlotProp_MarkerLineColor, col, ImPlotProp_MarkerFillColor, col});
    }
    ImPlot::EndPlot();
  }
  ImGui::SameLine();
  if (begin_cost_plot("reads per operation against load##compare", "slots / slabs / buckets read",
                      size)) {
    for (std::size_t i = 0; i < cols_.size(); ++i)
      plot_cost(set_.label(i) + " (" + cost_unit(set_.at(i).config().table.family) + ")",
                cost_points(i), i);
    ImPlot::EndPlot();
  }
  if (!lines) return;
  ImGui::SameLine();
  if (begin_cost_plot("64-byte lines read per operation against load##compare",
                      "64-byte lines read", size)) {
    for (std::size_t i = 0; i < cols_.size(); ++i)
      if (hooks_of(set_.at(i).config().table.family).lines_read)
        plot_cost(set_.label(i), line_points(i), i);
    ImPlot::EndPlot();
  }
}

void compare_view::draw(float height) {
  sample(false);
  const float total = height > 0 ? height : ImGui::GetContentRegionAvail().y;
  const float columns_h = total * 0.6f,
              plots_h = std::max(total - columns_h - 2 * ImGui::GetFrameHeightWithSpacing(), 120.f);
  if (ImGui::BeginTable("compare-columns", static_cast<int>(cols_.size()),
                        ImGuiTableFlags_BordersInnerV, ImVec2(0, columns_h))) {
    for (std::size_t i = 0; i < cols_.size(); ++i) {
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(i));
      draw_column(i, ImGui::GetContentRegionAvail().x, columns_h);
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  draw_overlays(plots_h);
}

std::vector<std::pair<double, double>> compare_view::cost_points(std::size_t i) const {
  std::vector<std::pair<double, double>> out;
  for (const cost_point& c : cols_.at(i).cost) out.emplace_back(c.load, c.cost);
  return out;
}

std::vector<std::pair<double, double>> compare_view::line_points(std::size_t i) const {
  std::vector<std::pair<double, double>> out;
  for (const cost_point& c : cols_.at(i).cost)
    if (!std::isnan(c.lines)) out.emplace_back(c.load, c.lines);
  return out;
}

bool compare_view::any_lines() const {
  for (std::size_t i = 0; i < set_.size(); ++i)
    if (hooks_of(set_.at(i).config().table.family).lines_read) return true;
  return false;
}

std::string compare_view::csv() const {
  std::string s =
      "table,family,capacity,load,live,cost,cost_unit,failed_full,last_batch_ops_per_s,"
      "lines_per_op\n";
  for (std::size_t i = 0; i < cols_.size(); ++i) {
    const session& ss = set_.at(i);
    const table_stats& st = cols_[i].last.stats;
    const probe_histogram& h = cols_[i].last.inspected.histogram;
    const auto pts = ss.throughput();
    const double lines = lines_of(h, ss.config().table);
    s += strprintf("\"%s\",%s,%llu,%.6f,%llu,%.6f,%s,%llu,%.0f,%s\n", set_.label(i).c_str(),
                   std::string(to_string(ss.config().table.family)).c_str(),
                   (unsigned long long)st.capacity, st.load_factor(), (unsigned long long)st.live,
                   h.total ? h.mean() + 1.0 : 0.0, cost_unit(ss.config().table.family),
                   (unsigned long long)st.failed_full, pts.empty() ? 0.0 : pts.back().ops_per_s,
                   std::isnan(lines) ? "" : strprintf("%.6f", lines).c_str());
  }
  return s;
}

std::string compare_view::batches_csv() const {
  std::string s = "table,batch,ops,load_before,ops_per_s,load_after,reads_per_op,cost_unit\n";
  for (std::size_t i = 0; i < cols_.size(); ++i) {
    const session& ss = set_.at(i);
    const auto rates = ss.throughput();
    const auto costs = ss.timeline();  // empty unless the timeline is recorded
    // A census per batch from the first: only then is census b batch b's (a timeline turned on
    // later, or either record trimmed, would pair a batch with another's cost).
    const bool paired = costs.size() == rates.size();
    const char* unit = cost_unit(ss.config().table.family);
    for (std::size_t b = 0; b < rates.size(); ++b) {
      s += strprintf("\"%s\",%zu,%llu,%.6f,%.0f,", set_.label(i).c_str(), b,
                     (unsigned long long)rates[b].ops, rates[b].load, rates[b].ops_per_s);
      s += paired ? strprintf("%.6f,%.6f,%s\n", costs[b].load, costs[b].mean_probe + 1, unit)
                  : std::string(",,\n");
    }
  }
  return s;
}

}  // namespace hs::app
