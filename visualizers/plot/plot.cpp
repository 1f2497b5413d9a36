// Plot drawing: margins sized from the font, so that figures scale with the projector font size.
#include "visualizers/plot/plot.hpp"

#include <algorithm>
#include <cmath>

#include "visualizers/plot/ticks.hpp"

namespace hs::vis {

ImU32 series_color(int i) {
  static const ImU32 colors[] = {IM_COL32(86, 180, 233, 255), IM_COL32(230, 159, 0, 255), IM_COL32(0, 158, 115, 255),
                                 IM_COL32(204, 121, 167, 255), IM_COL32(240, 228, 66, 255), IM_COL32(213, 94, 0, 255)};
  return colors[static_cast<unsigned>(i) % 6];
}

plot::plot(const char* id, const char* title, ImVec2 size, axis x, axis y)
    : dl_(ImGui::GetWindowDrawList()), x_(std::move(x)), y_(std::move(y)) {
  ImGui::PushID(id);
  const float fs = ImGui::GetFontSize();
  if (title && *title) ImGui::TextUnformatted(title);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0) size.x = std::max(avail.x + size.x, 8 * fs);
  if (size.y <= 0) size.y = std::max(avail.y + size.y, 6 * fs);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("area", size);
  hovered_ = ImGui::IsItemHovered();
  // Room for y tick labels on the left, x tick labels and the axis label below.
  min_ = ImVec2(p.x + 4.2f * fs, p.y + 0.4f * fs);
  max_ = ImVec2(p.x + size.x - 0.6f * fs, p.y + size.y - 2.6f * fs);
  if (y_.log) {
    y_.min = std::max(y_.min, 1e-12);
    if (y_.max <= y_.min) y_.max = y_.min * 10;
  }
  if (x_.max <= x_.min) x_.max = x_.min + 1;
  if (y_.max <= y_.min) y_.max = y_.min + 1;
  draw_axes();
  dl_->PushClipRect(min_, max_, true);
}

plot::~plot() {
  dl_->PopClipRect();
  // Legend in the top-right corner of the area.
  if (!legend_.empty()) {
    const float fs = ImGui::GetFontSize();
    float w = 0;
    for (const auto& [label, c] : legend_) w = std::max(w, ImGui::CalcTextSize(label.c_str()).x);
    const ImVec2 box_min(max_.x - w - 2.4f * fs, min_.y + 0.3f * fs);
    const ImVec2 box_max(max_.x - 0.3f * fs, box_min.y + legend_.size() * fs * 1.2f + 0.4f * fs);
    dl_->AddRectFilled(box_min, box_max, IM_COL32(20, 20, 24, 200), 3.f);
    float y = box_min.y + 0.2f * fs;
    for (const auto& [label, c] : legend_) {
      dl_->AddRectFilled(ImVec2(box_min.x + 0.3f * fs, y + 0.3f * fs), ImVec2(box_min.x + 1.1f * fs, y + 0.9f * fs), c);
      dl_->AddText(ImVec2(box_min.x + 1.5f * fs, y), IM_COL32(230, 230, 230, 255), label.c_str());
      y += fs * 1.2f;
    }
  }
  ImGui::PopID();
}

double plot::scale(double v, const axis& a, float lo, float hi, bool flip) const {
  double t;
  if (a.log) {
    const double lv = std::log10(std::max(v, a.min * 1e-3));
    t = (lv - std::log10(a.min)) / (std::log10(a.max) - std::log10(a.min));
  } else {
    t = (v - a.min) / (a.max - a.min);
  }
  if (flip) t = 1.0 - t;
  return lo + t * (hi - lo);
}

ImVec2 plot::to_screen(double x, double y) const {
  return ImVec2(static_cast<float>(scale(x, x_, min_.x, max_.x, false)),
                static_cast<float>(scale(y, y_, min_.y, max_.y, true)));
}

void plot::draw_axes() {
  const ImU32 frame = IM_COL32(140, 140, 150, 255), grid = IM_COL32(70, 70, 80, 120), text = IM_COL32(220, 220, 225, 255);
  const float fs = ImGui::GetFontSize();
  dl_->AddRectFilled(min_, max_, IM_COL32(16, 16, 20, 255));
  auto ticks_of = [](const axis& a) {
    if (!a.ticks.empty()) return a.ticks;
    return a.log ? log_ticks(a.min, a.max) : linear_ticks(a.min, a.max, 5);
  };
  const auto xt = ticks_of(x_);
  for (std::size_t i = 0; i < xt.size(); ++i) {
    if (xt[i] < x_.min || xt[i] > x_.max) continue;
    const float sx = to_screen(xt[i], y_.min).x;
    dl_->AddLine(ImVec2(sx, min_.y), ImVec2(sx, max_.y), grid);
    const std::string l = i < x_.tick_labels.size() ? x_.tick_labels[i] : tick_label(xt[i]);
    const float w = ImGui::CalcTextSize(l.c_str()).x;
    dl_->AddText(ImVec2(sx - w / 2, max_.y + 0.2f * fs), text, l.c_str());
  }
  const auto yt = ticks_of(y_);
  for (std::size_t i = 0; i < yt.size(); ++i) {
    if (yt[i] < y_.min || yt[i] > y_.max) continue;
    const float sy = to_screen(x_.min, yt[i]).y;
    dl_->AddLine(ImVec2(min_.x, sy), ImVec2(max_.x, sy), grid);
    const std::string l = i < y_.tick_labels.size() ? y_.tick_labels[i] : tick_label(yt[i]);
    const float w = ImGui::CalcTextSize(l.c_str()).x;
    dl_->AddText(ImVec2(min_.x - w - 0.3f * fs, sy - fs / 2), text, l.c_str());
  }
  dl_->AddRect(min_, max_, frame);
  if (!x_.label.empty()) {
    const float w = ImGui::CalcTextSize(x_.label.c_str()).x;
    dl_->AddText(ImVec2((min_.x + max_.x - w) / 2, max_.y + 1.3f * fs), text, x_.label.c_str());
  }
  if (!y_.label.empty()) dl_->AddText(ImVec2(min_.x + 0.3f * fs, min_.y + 0.1f * fs), text, y_.label.c_str());
}

void plot::line(std::span<const double> xs, std::span<const double> ys, ImU32 color, const char* label, float thickness) {
  std::vector<ImVec2> pts;
  auto flush = [&] {
    if (pts.size() >= 2) dl_->AddPolyline(pts.data(), static_cast<int>(pts.size()), color, 0, thickness);
    else if (pts.size() == 1) dl_->AddCircleFilled(pts[0], thickness * 1.2f, color);
    pts.clear();
  };
  for (std::size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
    if (!std::isfinite(xs[i]) || !std::isfinite(ys[i]) || (y_.log && ys[i] <= 0)) {
      flush();
      continue;
    }
    pts.push_back(to_screen(xs[i], ys[i]));
  }
  flush();
  if (label) legend_entry(label, color);
}

void plot::points(std::span<const double> xs, std::span<const double> ys, ImU32 color, const char* label, float radius) {
  for (std::size_t i = 0; i < xs.size() && i < ys.size(); ++i)
    if (std::isfinite(xs[i]) && std::isfinite(ys[i]) && !(y_.log && ys[i] <= 0))
      dl_->AddCircleFilled(to_screen(xs[i], ys[i]), radius, color);
  if (label) legend_entry(label, color);
}

void plot::bar(double x0, double x1, double height, ImU32 color) {
  if (y_.log && height <= 0) return;
  const double base = y_.log ? y_.min : std::max(0.0, y_.min);
  ImVec2 a = to_screen(x0, height), b = to_screen(x1, base);
  if (b.x - a.x > 3) a.x += 1;  // a hair of space between bars
  dl_->AddRectFilled(a, b, color);
}

void plot::legend_entry(const char* label, ImU32 color) { legend_.emplace_back(label, color); }

bool plot::hovered(double& x, double& y) const {
  if (!hovered_) return false;
  const ImVec2 m = ImGui::GetIO().MousePos;
  if (m.x < min_.x || m.x > max_.x || m.y < min_.y || m.y > max_.y) return false;
  auto inv = [](double s, const axis& a, float lo, float hi, bool flip) {
    double t = (s - lo) / (hi - lo);
    if (flip) t = 1 - t;
    return a.log ? std::pow(10.0, std::log10(a.min) + t * (std::log10(a.max) - std::log10(a.min)))
                 : a.min + t * (a.max - a.min);
  };
  x = inv(m.x, x_, min_.x, max_.x, false);
  y = inv(m.y, y_, min_.y, max_.y, true);
  return true;
}

}  // namespace hs::vis
