#include "visualizers/views/step_runs_view.hpp"

#include <algorithm>

#include <imgui.h>

namespace hs::vis {

namespace {
// The operation's colour: dark blue for the first, through green to yellow for the last.
ImU32 op_color(std::size_t i, std::size_t n) {
  const float t = n > 1 ? float(i) / float(n - 1) : 0.f;
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(0.27f + 0.7f * t * t, 0.1f + 0.8f * t, 0.45f + 0.1f * (1 - t) - 0.3f * t * t, 1.f));
}
}  // namespace

void step_runs_view::draw(float height) {
  (void)height;
  std::uint64_t lo = ~0ull, hi = 0;
  for (const auto& r : data_.runs)
    for (const auto& s : r.slots)
      if (s) lo = std::min(lo, *s), hi = std::max(hi, *s);
  if (data_.runs.empty() || lo > hi) {
    ImGui::TextWrapped(
        "No runs yet: step a few inserts (typed keys, or a scenario's 'step insert ...'), Back, "
        "and Step again. Each run is a row: which key landed in which slot, and in red the ones "
        "that landed otherwise than the run before.");
    return;
  }
  std::size_t changed_last = 0;
  for (const bool c : data_.runs.back().changed) changed_last += c;
  ImGui::Text("%zu run%s of %zu operations; the last run: %zu ended otherwise than the one before",
              data_.runs.size(), data_.runs.size() == 1 ? "" : "s", data_.keys.size(),
              changed_last);
  const float fs = ImGui::GetFontSize();
  const float label_w = ImGui::CalcTextSize("run 00").x + fs * 0.5f;
  const std::uint64_t columns = hi - lo + 1;
  const float cell = std::max(4.f, (ImGui::GetContentRegionAvail().x - label_w) / float(columns));
  const float row_h = std::max(cell, fs * 1.2f);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (std::size_t r = 0; r < data_.runs.size(); ++r) {
    const float y = origin.y + float(r) * row_h;
    dl->AddText(ImVec2(origin.x, y + (row_h - fs) / 2), ImGui::GetColorU32(ImGuiCol_Text),
                strprintf("run %zu", r + 1).c_str());
    const auto& run = data_.runs[r];
    for (std::size_t i = 0; i < run.slots.size(); ++i) {
      if (!run.slots[i]) continue;
      const float x = origin.x + label_w + float(*run.slots[i] - lo) * cell;
      const ImVec2 a(x, y + 1), b(x + cell - 1, y + row_h - 1);
      dl->AddRectFilled(a, b, op_color(i, data_.keys.size()));
      if (i < run.changed.size() && run.changed[i])
        dl->AddRect(a, b, IM_COL32(255, 60, 40, 255), 0.f, std::max(1.5f, cell / 6));
      if (mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y)
        ImGui::SetTooltip("run %zu, slot %llu: key %s (operation %zu)%s", r + 1,
                          (unsigned long long)*run.slots[i],
                          key_text(data_.keys[i], radix_).c_str(), i + 1,
                          run.changed[i] ? "\nlanded otherwise than in the run before" : "");
    }
  }
  const float bottom = origin.y + float(data_.runs.size()) * row_h + fs * 0.2f;
  dl->AddText(ImVec2(origin.x + label_w, bottom), ImGui::GetColorU32(ImGuiCol_TextDisabled),
              strprintf("slot %llu", (unsigned long long)lo).c_str());
  const std::string last = strprintf("slot %llu", (unsigned long long)hi);
  dl->AddText(
      ImVec2(origin.x + label_w + float(columns) * cell - ImGui::CalcTextSize(last.c_str()).x,
             bottom),
      ImGui::GetColorU32(ImGuiCol_TextDisabled), last.c_str());
  ImGui::Dummy(ImVec2(label_w + float(columns) * cell, bottom - origin.y + fs * 1.2f));
  ImGui::TextDisabled(
      "colour: the operation whose key took the slot (first dark, last bright); "
      "red outline: landed otherwise than the run before");
}

std::string step_runs_view::csv() const {
  std::string s = "run,operation,key,slot,changed\n";
  for (std::size_t r = 0; r < data_.runs.size(); ++r)
    for (std::size_t i = 0; i < data_.runs[r].slots.size(); ++i)
      s += strprintf("%zu,%zu,%llu,%s,%d\n", r + 1, i,
                     static_cast<unsigned long long>(data_.keys[i]),
                     data_.runs[r].slots[i] ? std::to_string(*data_.runs[r].slots[i]).c_str() : "",
                     int(data_.runs[r].changed[i]));
  return s;
}

}  // namespace hs::vis
