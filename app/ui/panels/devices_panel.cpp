#include "app/ui/panels/devices_panel.hpp"

#include <algorithm>
#include <cmath>

#include "core/common/device.hpp"
#include "core/common/format.hpp"
#include "visualizers/colormap.hpp"

namespace hs::app {

namespace {

ImU32 to_u32(vis::rgba8 c) { return IM_COL32(c.r, c.g, c.b, c.a); }

// A device's probe lengths as a strip of bars (the display bins, their heights on a log scale,
// so that the long tail shows beside the mass at 0), then its mean and p99.
void draw_probe_strip(const probe_histogram& h, devices_drawn& d) {
  d.probed.push_back(h.total);
  if (h.total == 0) {
    ImGui::TextDisabled("none yet");
    return;
  }
  const std::vector<display_bin> bins = h.display_bins();
  std::uint64_t most = 1;
  for (const display_bin& b : bins) most = std::max(most, b.count);
  const float w = 4 * ImGui::GetFontSize(), hgt = ImGui::GetTextLineHeight(),
              bar = w / float(std::max<std::size_t>(bins.size(), 1));
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 col = ImGui::GetColorU32(ImGuiCol_PlotHistogram);
  for (std::size_t i = 0; i < bins.size(); ++i) {
    if (bins[i].count == 0) continue;
    const float f = std::log1p(float(bins[i].count)) / std::log1p(float(most));
    dl->AddRectFilled(ImVec2(at.x + bar * float(i), at.y + hgt * (1 - f)),
                      ImVec2(at.x + bar * float(i + 1), at.y + hgt), col);
  }
  ImGui::Dummy(ImVec2(w, hgt));
  ImGui::SameLine();
  ImGui::Text("mean %.2f, p99 %.0f", h.mean(), h.percentile(0.99).value);
}

// Each device's keys, load, probe lengths and virtual shards, a row each.
void draw_device_rows(const shard_sample& sh, devices_drawn& d) {
  if (!ImGui::BeginTable("devices", 6, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit))
    return;
  for (const char* c :
       {"device", "live keys", "load", "probe lengths", "longest probe", "virtual shards"})
    ImGui::TableSetupColumn(c);
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < sh.devices.size(); ++i) {
    const table_stats& t = sh.devices[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%s %zu", sh.simulated ? "device" : "GPU", i);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_count(t.live).c_str());
    ImGui::TableNextColumn();
    ImGui::ProgressBar(static_cast<float>(t.load_factor()), ImVec2(5 * ImGui::GetFontSize(), 0),
                       strprintf("%.3f", t.load_factor()).c_str());
    ImGui::TableNextColumn();
    if (i < sh.histograms.size())
      draw_probe_strip(sh.histograms[i], d);
    else
      ImGui::TextDisabled("not sampled");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_count(t.max_displacement).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%u", i < sh.virtual_shards.size() ? sh.virtual_shards[i] : 0u);
    d.live.push_back(t.live);
  }
  ImGui::EndTable();
}

// The exchange matrix: a cell a (sender, receiver) pair, its colour the share of the batch.
void draw_matrix(const batch_exchange& x, devices_drawn& d) {
  const std::uint32_t n = x.devices;
  std::uint64_t total = 0, most = 1;
  for (const std::uint64_t k : x.keys) {
    total += k;
    most = std::max(most, k);
  }
  ImGui::Text("last batch: %s keys, %s out and %s back between devices",
              format_count(total).c_str(), format_bytes(x.bytes_out).c_str(),
              format_bytes(x.bytes_back).c_str());
  static const vis::colormap map = vis::load_colormap("viridis");
  // Wide enough for the largest count, two lines high.
  const float cell_w = std::max(ImGui::CalcTextSize(format_count(most).c_str()).x + 12,
                                std::min(ImGui::GetContentRegionAvail().x / float(n + 1), 72.f));
  const float cell = 2 * ImGui::GetTextLineHeightWithSpacing();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float label = ImGui::CalcTextSize("from 00").x + 8;
  for (std::uint32_t i = 0; i < n; ++i) {
    const float y = at.y + ImGui::GetTextLineHeightWithSpacing() + i * cell;
    dl->AddText(ImVec2(at.x, y + cell / 2 - 8), ImGui::GetColorU32(ImGuiCol_Text),
                strprintf("from %u", i).c_str());
    for (std::uint32_t j = 0; j < n; ++j) {
      const std::uint64_t k = x.keys_from_to(i, j);
      const ImVec2 lo(at.x + label + j * cell_w, y), hi(lo.x + cell_w - 2, y + cell - 2);
      const vis::rgba8 c = map.at(float(double(k) / double(most)));
      dl->AddRectFilled(lo, hi, to_u32(c));
      const bool dark = vis::luminance(c) < 0.4;
      dl->AddText(ImVec2(lo.x + 4, lo.y + cell / 2 - 8),
                  dark ? IM_COL32(255, 255, 255, 255) : IM_COL32(0, 0, 0, 255),
                  format_count(k).c_str());
      d.matrix.push_back(k);
    }
  }
  for (std::uint32_t j = 0; j < n; ++j)
    dl->AddText(ImVec2(at.x + label + j * cell_w + 4, at.y), ImGui::GetColorU32(ImGuiCol_Text),
                strprintf("to %u", j).c_str());
  ImGui::Dummy(ImVec2(label + n * cell_w, ImGui::GetTextLineHeightWithSpacing() + n * cell));
}

// The batch's time on the host clock against its slowest device's phases: the rest is spent
// between the phases, which no bar shows and which bounds a small batch.
std::string host_steps_text(const batch_exchange& x, bool simulated) {
  double phases = 0;
  for (const double ms : x.phase_ms[x.slowest()]) phases += ms;
  if (phases > x.wall_ms)
    return strprintf("the batch took %.2f ms on the host clock: its chunks' phases overlapped",
                     x.wall_ms);
  return strprintf(
      "the batch took %.2f ms on the host clock, the critical path's phases %.2f: the rest "
      "(%.0f%%) went between them (%s)",
      x.wall_ms, phases, 100.0 * (x.wall_ms - phases) / std::max(x.wall_ms, 1e-9),
      simulated ? "reading the counts, the host's bookkeeping"
                : "the host's launches and NCCL groups, its read of the counts");
}

// Each device's phases as one bar of five parts; the slowest device is the batch's critical path.
void draw_phases(const batch_exchange& x, bool simulated, devices_drawn& d) {
  const char* device = simulated ? "device" : "GPU";
  if (x.phase_ms.empty()) return;
  d.slowest = x.slowest();
  double longest = 1e-9;
  for (const auto& row : x.phase_ms) {
    double sum = 0;
    for (const double ms : row) sum += ms;
    longest = std::max(longest, sum);
  }
  static const vis::colormap map = vis::load_colormap("viridis");
  // Room after the bars for the longest label: "000.00 ms  critical path".
  const float label = ImGui::CalcTextSize("000.00 ms  critical path").x + 2 * ImGui::GetFontSize();
  const float width = std::max(200.f, ImGui::GetContentRegionAvail().x - 70 - label);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (std::uint32_t r = 0; r < x.phase_ms.size(); ++r) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    float left = at.x + 70;  // after "device 00"
    for (int p = 0; p < k_shard_phases; ++p) {
      const float w = float(x.phase_ms[r][p] / longest) * width;
      dl->AddRectFilled(ImVec2(left, at.y), ImVec2(left + w, at.y + 16),
                        to_u32(map.at(float(p) / float(k_shard_phases - 1))));
      left += w;
      d.phase_ms.push_back(x.phase_ms[r][p]);
    }
    dl->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), strprintf("%s %u", device, r).c_str());
    ImGui::Dummy(ImVec2(width + 70, 18));
    ImGui::SameLine();
    double sum = 0;
    for (const double ms : x.phase_ms[r]) sum += ms;
    ImGui::Text("%.2f ms%s", sum, r == d.slowest ? "  critical path" : "");
  }
  std::string legend;
  for (int p = 0; p < k_shard_phases; ++p)
    legend += (p ? " | " : "") + std::string(k_shard_phase_names[p]);
  ImGui::TextDisabled("phases, left to right: %s (summed over the batch's chunks)", legend.c_str());
  d.wall_ms = x.wall_ms;
  d.host_steps = host_steps_text(x, simulated);
  ImGui::TextWrapped("%s", d.host_steps.c_str());
}

}  // namespace

void devices_panel::place(frame_state& f) {
  const bool sharded = f.sess->config().table.devices > 1;
  focus_pending_ = (focus_pending_ || !sharded_) && sharded;
  if (focus_pending_) ImGui::SetNextWindowFocus();  // until the window is drawn in front
  sharded_ = sharded;
}

void devices_panel::draw(frame_state& f) {
  focus_pending_ = false;
  // The move first, where it stays put: below the views it moved as they grew a line (the
  // sample's age), and a click could land where it had been.
  if (f.sess->config().table.devices > 1) {
    draw_regpus(f, regpus_choice_);
    ImGui::Separator();
  }
  draw_devices(f, drawn_);
}

void draw_regpus(frame_state& f, int& choice) {
  session& s = *f.sess;
  const int now = static_cast<int>(s.config().table.devices);
  // GPUs: as many as the machine has; simulated devices: up to 16, enough for a lesson.
  const bool gpu = s.config().table.backend == backend::gpu;
  const int most = gpu ? std::max(1, gpu_count()) : 16;
  if (choice < 1 || choice > most) choice = std::min(most, now * 2);
  ImGui::SetNextItemWidth(8 * ImGui::GetFontSize());
  ImGui::SliderInt("devices", &choice, 1, most);
  ImGui::SameLine();
  ImGui::BeginDisabled(choice == now || s.running());
  if (ImGui::Button("Move (regpus)")) s.regpus(static_cast<std::uint32_t>(choice));
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  ImGui::SetItemTooltip(
      "Moves the table to another number of devices: whole virtual shards change owner and their "
      "pairs travel through the exchange. Back stops there.");
}

void draw_devices(frame_state& f, devices_drawn& drawn_) {
  drawn_ = devices_drawn{};
  if (!f.sample.shards) {
    ImGui::TextWrapped(
        "The table runs on one device. Choose GPUs in the Table section (or --gpus N, or "
        "'gpus N' in a scenario) to shard it; with the CPU backend the devices are simulated.");
    return;
  }
  draw_freshness(f);
  const shard_sample& sh = *f.sample.shards;
  drawn_.devices = static_cast<std::uint32_t>(sh.devices.size());
  drawn_.link = sh.link;
  ImGui::TextWrapped("%s; owner from %s bits", sh.link.c_str(),
                     std::string(to_string(sh.owner)).c_str());
  draw_device_rows(sh, drawn_);
  if (sh.exchange.devices == 0) {
    ImGui::TextDisabled("no batch has run yet");
    return;
  }
  ImGui::SeparatorText("exchange matrix: keys from device i to device j");
  draw_matrix(sh.exchange, drawn_);
  ImGui::SeparatorText("phases of the last batch");
  draw_phases(sh.exchange, sh.simulated, drawn_);
}

}  // namespace hs::app
