// A warp's lanes: one row a lane, one cell a probe, the waiting after a lane's end shaded.
#include "visualizers/views/warp_lanes_view.hpp"

#include <algorithm>

#include "core/common/format.hpp"

namespace hs::vis {

namespace {
std::size_t longest(const std::vector<lane_row>& lanes, std::size_t first, std::size_t count) {
  std::size_t m = 0;
  for (std::size_t i = first; i < first + count && i < lanes.size(); ++i)
    m = std::max(m, lanes[i].cells.size());
  return m;
}
}  // namespace

double lanes_busy_share(const std::vector<lane_row>& lanes, std::size_t first, std::size_t count) {
  count = std::min(count, lanes.size() > first ? lanes.size() - first : 0);
  const std::size_t rounds = longest(lanes, first, count);
  if (count == 0 || rounds == 0) return 0;
  std::size_t probes = 0;
  for (std::size_t i = first; i < first + count; ++i) probes += lanes[i].cells.size();
  return static_cast<double>(probes) / static_cast<double>(count * rounds);
}

void warp_lanes_view::set(std::vector<lane_row> lanes,
                          std::vector<std::pair<ImU32, std::string>> legend) {
  lanes_ = std::move(lanes);
  legend_ = std::move(legend);
  warp_ = 0;
}

std::size_t warp_lanes_view::warps() const {
  return (lanes_.size() + k_warp_lanes - 1) / k_warp_lanes;
}

void warp_lanes_view::show_warp(std::size_t w) {
  if (w < warps()) warp_ = w;
}

void warp_lanes_view::draw(float height) {
  (void)height;
  if (lanes_.empty()) {
    ImGui::TextWrapped(
        "No traced step yet: Step with a few operations (up to 64: two warps) to see the lanes of "
        "a warp walk side by side.");
    return;
  }
  const std::size_t first = warp_ * k_warp_lanes;
  const std::size_t count = std::min(k_warp_lanes, lanes_.size() - first);
  const std::size_t rounds = longest(lanes_, first, count);
  const double busy = lanes_busy_share(lanes_, first, count);
  if (ImGui::ArrowButton("lanes-prev", ImGuiDir_Left)) show_warp(warp_ > 0 ? warp_ - 1 : 0);
  ImGui::SameLine();
  if (ImGui::ArrowButton("lanes-next", ImGuiDir_Right)) show_warp(warp_ + 1);
  ImGui::SameLine();
  ImGui::TextWrapped(
      "warp %zu of %zu: %zu lanes, one operation each; the warp takes %zu probes (its longest "
      "walk), and its lanes are busy %.0f%% of that time: the rest they wait for the longest.",
      warp_ + 1, warps(), count, rounds, 100.0 * busy);
  drawn_ = {warp_, warps(), count, rounds, busy, drawn_.frames + 1};
  const float fs = ImGui::GetFontSize();
  const float label_w = 11.f * fs, cell = std::max(6.f, fs * 0.9f), gap = 1.f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 waiting = IM_COL32(128, 128, 128, 60), text = ImGui::GetColorU32(ImGuiCol_Text);
  auto swatch = [&](ImU32 c, const std::string& what) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    dl->AddRectFilled(ImVec2(p.x, p.y + 2.f), ImVec2(p.x + cell, p.y + 2.f + cell), c);
    ImGui::Dummy(ImVec2(cell, cell));
    ImGui::SameLine();
    ImGui::TextUnformatted(what.c_str());
    ImGui::SameLine();
  };
  for (const auto& [c, what] : legend_) swatch(c, what);
  swatch(waiting, "waiting for the warp");
  ImGui::NewLine();
  for (std::size_t i = first; i < first + count; ++i) {
    const lane_row& l = lanes_[i];
    const ImVec2 p = ImGui::GetCursorScreenPos();
    dl->AddText(p, text, strprintf("%2zu %s", i - first, l.label.c_str()).c_str());
    for (std::size_t r = 0; r < rounds; ++r) {
      const ImVec2 a(p.x + label_w + static_cast<float>(r) * (cell + gap), p.y + 1.f);
      const ImVec2 b(a.x + cell, a.y + cell);
      dl->AddRectFilled(a, b, r < l.cells.size() ? l.cells[r] : waiting);
    }
    const float end = p.x + label_w + static_cast<float>(rounds) * (cell + gap) + fs * 0.5f;
    dl->AddText(ImVec2(end, p.y), text, l.outcome.c_str());
    ImGui::Dummy(ImVec2(end - p.x + 8 * fs, std::max(cell, fs) + gap));
  }
}

fig::figure warp_lanes_view::paper_figure() const {
  fig::panel p;
  const std::size_t first = warp_ * k_warp_lanes;
  const std::size_t count =
      lanes_.size() > first ? std::min(k_warp_lanes, lanes_.size() - first) : 0;
  const std::size_t rounds = longest(lanes_, first, count);
  p.title =
      count ? strprintf(
                  "warp %zu of %zu: %zu lanes, %zu rounds (its longest walk); lanes "
                  "busy %.0f%%",
                  warp_ + 1, warps(), count, rounds, 100.0 * lanes_busy_share(lanes_, first, count))
            : std::string("no traced step (step N in the scenario traces one)");
  p.x = {"probe (round of the warp)"};
  p.y = {"lane"};
  for (std::size_t k = 0; k <= legend_.size(); ++k) {
    fig::series s;
    s.kind = fig::series::points;
    s.name = k < legend_.size() ? legend_[k].second : "waiting for the warp";
    s.color = k < legend_.size() ? static_cast<int>(k) : -1;
    for (std::size_t i = first; i < first + count; ++i)
      for (std::size_t r = 0; r < rounds; ++r) {
        const bool probed = r < lanes_[i].cells.size();
        if (k < legend_.size() ? probed && lanes_[i].cells[r] == legend_[k].first : !probed)
          s.x.push_back(double(r)), s.y.push_back(double(i - first));
      }
    if (!s.x.empty()) p.data.push_back(std::move(s));
  }
  return {{p}, {}};
}

std::string warp_lanes_view::csv() const {
  std::string out = "warp,lane,operation,probes,outcome,waited\n";
  for (std::size_t w = 0; w < warps(); ++w) {
    const std::size_t first = w * k_warp_lanes,
                      count = std::min(k_warp_lanes, lanes_.size() - first);
    const std::size_t rounds = longest(lanes_, first, count);
    for (std::size_t i = first; i < first + count; ++i)
      out += strprintf("%zu,%zu,%s,%zu,%s,%zu\n", w + 1, i - first, lanes_[i].label.c_str(),
                       lanes_[i].cells.size(), lanes_[i].outcome.c_str(),
                       rounds - lanes_[i].cells.size());
  }
  return out;
}

}  // namespace hs::vis
