// Heatmap geometry and interaction. Above one slot per pixel the image is the table's slots laid
// row-major over the area; zoomed further, each slot becomes a cell of several pixels and, once
// cells are wide enough, shows its key and value.
#include "visualizers/views/heatmap_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <imgui.h>
#include <implot.h>

#include "core/common/format.hpp"

namespace hs::vis {

namespace {
// One texel per slot or pixel of slots, magnified to square cells: sampled nearest, never blended
// (ImGui's OpenGL backend binds a linear sampler that would override the texture's own filter).
void draw_cells_image(const heatmap_image& image, ImVec2 size) {
  const ImGuiPlatformIO& pio = ImGui::GetPlatformIO();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (pio.DrawCallback_SetSamplerNearest)
    dl->AddCallback(pio.DrawCallback_SetSamplerNearest, nullptr);
  ImGui::Image(static_cast<ImTextureID>(static_cast<std::intptr_t>(image.texture())), size);
  if (pio.DrawCallback_SetSamplerLinear)
    dl->AddCallback(pio.DrawCallback_SetSamplerLinear, nullptr);
}

// A slot's value as the tooltip and the cells write it: an erased value (value mode) by its state,
// since the empty value is as wide as the table's values.
std::string value_text(const slot_record& r) {
  if (r.state == slot_state::erased) return "(erased)";
  return std::to_string(r.value);
}

const char* state_name(slot_state s) {
  switch (s) {
    case slot_state::empty: return "empty";
    case slot_state::live: return "live";
    case slot_state::erased: return "value erased";
    case slot_state::tombstone: return "tombstone";
  }
  return "?";
}

/// A state drawn in its own colour rather than along the colormap, listed below the colour scale.
struct swatch {
  rgba8 color;
  const char* label;
};

std::vector<swatch> swatches(const heatmap_style& style) {
  if (style.mode == heatmap_mode::occupancy)
    return {{style.erased, "value erased"}, {style.tombstone, "tombstone"}};
  return {{style.empty, "no keys"}};
}
}  // namespace

heatmap_view::heatmap_view() : cmap_(load_colormap("viridis")) {}

void heatmap_view::set_colormap(const std::string& name) {
  if (name != cmap_.name) cmap_ = load_colormap(name);
}

void heatmap_view::set_range(std::uint64_t first, std::uint64_t count, std::uint64_t capacity) {
  zoom_spp_ = 0;
  if (count == 0 || count >= capacity) {
    first_ = 0;
    range_count_ = 0;
    return;
  }
  first_ = static_cast<double>(first);
  range_count_ = count;
}

heatmap_view::geometry heatmap_view::layout(std::uint64_t capacity) const {
  geometry g{};
  const int aw = std::max(area_w_, 8), ah = std::max(area_h_, 8);
  const double area = static_cast<double>(aw) * ah;
  // Slots per pixel that fit `want` slots: below one, the largest square cell that still fits all.
  auto fit = [&](std::uint64_t want) {
    double spp = static_cast<double>(want) / area;
    if (spp < 1.0) {
      int c = std::max(1, static_cast<int>(std::sqrt(area / static_cast<double>(want))));
      while (c > 1 && std::uint64_t(aw / c) * std::uint64_t(ah / c) < want) --c;
      spp = 1.0 / c;
    }
    return spp;
  };
  // Zooming stops at 96-pixel cells, and zooming out at the whole table.
  const double spp = zoom_spp_ > 0
                         ? std::clamp(zoom_spp_, 1.0 / 96.0, std::max(fit(capacity), 1.0 / 96.0))
                         : fit(range_count_ ? range_count_ : capacity);
  if (spp >= 1.0) {
    g.cell = 1;
    g.w = aw;
    g.h = ah;
    g.spp = spp;
  } else {
    g.cell = std::max(1, static_cast<int>(std::lround(1.0 / spp)));
    g.w = std::max(1, aw / g.cell);
    g.h = std::max(1, ah / g.cell);
    g.spp = 1.0;
  }
  // No rows below the last slot, with cells of one pixel too: a view just too small for 2x2 cells
  // planned one slot a pixel over its whole height, and the rows past the table stayed black.
  if (g.spp <= 1.0) {
    const std::uint64_t want = std::min<std::uint64_t>(
        range_count_ && zoom_spp_ <= 0 ? range_count_ : capacity, std::uint64_t(g.w) * g.h);
    g.h = static_cast<int>(std::min<std::uint64_t>(g.h, (want + g.w - 1) / g.w));
  }
  double shown = std::min(static_cast<double>(capacity), g.spp * g.w * g.h);
  // A range (a capture's, one device's shard) is shown alone: its last row's rest stays empty,
  // as past a table's last slot, and a range at the table's end is not pushed back into view.
  if (showing_range()) shown = std::min(shown, static_cast<double>(range_count_));
  // Rounded, not truncated: spp * w * h of a whole table came to 65,535.99... for 2^16 slots.
  g.count = std::min<std::uint64_t>(capacity, static_cast<std::uint64_t>(std::llround(shown)));
  const double max_first = static_cast<double>(capacity) - shown;
  g.first = static_cast<std::uint64_t>(std::clamp(first_, 0.0, std::max(0.0, max_first)));
  return g;
}

heatmap_request heatmap_view::plan(std::uint64_t capacity) const {
  const geometry g = layout(capacity);
  heatmap_request r;
  r.occupancy = {g.first, std::max<std::uint64_t>(g.count, 1), static_cast<std::uint32_t>(g.w),
                 static_cast<std::uint32_t>(g.h), nullptr};
  // Slot-level zoom: dump every visible slot for the cell labels; otherwise just the hovered one.
  if (g.spp == 1.0 && g.count <= 4096) {
    r.dump_first = g.first;
    r.dump_count = static_cast<std::uint32_t>(g.count);
  } else if (hover_) {
    r.dump_first = *hover_;
    r.dump_count = 1;
  }
  return r;
}

std::optional<std::uint64_t> heatmap_view::slot_at(const geometry& g, ImVec2 image_min,
                                                   ImVec2 mouse) const {
  const int px = static_cast<int>((mouse.x - image_min.x) / g.cell);
  const int py = static_cast<int>((mouse.y - image_min.y) / g.cell);
  if (px < 0 || py < 0 || px >= g.w || py >= g.h) return std::nullopt;
  const double pixel = static_cast<double>(py) * g.w + px;
  const auto slot = g.first + static_cast<std::uint64_t>(pixel * g.spp);
  if (slot >= g.first + g.count) return std::nullopt;
  return slot;
}

void heatmap_view::draw(const heatmap_image& image, const heatmap_request& req,
                        const std::vector<slot_record>& dump, std::uint64_t capacity) {
  draw_toolbar();
  ImGui::SameLine();
  const geometry g = layout(capacity);
  ImGui::TextDisabled("slots %s-%s (%s per pixel) | wheel: zoom, drag: pan | %s",
                      format_count(g.first).c_str(), format_count(g.first + g.count).c_str(),
                      g.cell > 1 ? "1" : strprintf("%.1f", g.spp).c_str(), image.path().c_str());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float legend_w = legend_width(), gap = ImGui::GetStyle().ItemSpacing.x;
  area_w_ = std::max(8, static_cast<int>(avail.x - legend_w - gap));
  area_h_ = std::max(8, static_cast<int>(avail.y));

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 shown(static_cast<float>(req.occupancy.width) * g.cell,
                     static_cast<float>(req.occupancy.height) * g.cell);
  draw_cells_image(image, shown);
  ImGui::SetCursorScreenPos(origin);
  const bool pressed =
      ImGui::InvisibleButton("heatmap", ImVec2(std::max(1.f, shown.x), std::max(1.f, shown.y)));
  const bool hovered = ImGui::IsItemHovered();
  // A click that did not drag (a drag pans): the slot under it, for whoever asks (a question).
  if (pressed && ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 4.f).x == 0.f &&
      ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 4.f).y == 0.f)
    clicked_ = slot_at(g, origin, ImGui::GetIO().MousePos);

  draw_cells(g, origin, dump);
  draw_marks(g, origin);
  draw_bands(g, origin);

  hover_.reset();
  hovered_record_.reset();
  if (hovered) {
    const auto slot = slot_at(g, origin, ImGui::GetIO().MousePos);
    hover_ = slot;
    if (slot) draw_slot_tooltip(*slot, dump);
    zoom_or_pan(g, slot, capacity);
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x + static_cast<float>(area_w_) + gap, origin.y));
  draw_legend(ImVec2(legend_w, static_cast<float>(area_h_)));
}

void heatmap_view::draw_toolbar() {
  const float fs = ImGui::GetFontSize();
  if (ImGui::Button("Whole table")) first_ = 0, zoom_spp_ = 0, range_count_ = 0;
  ImGui::SameLine();
  int mode = static_cast<int>(style_.mode);
  ImGui::SetNextItemWidth(10 * fs);
  if (ImGui::Combo("##mode", &mode, "occupancy\0probe length\0"))
    style_.mode = static_cast<heatmap_mode>(mode);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(7 * fs);
  if (ImGui::BeginCombo("##cmap", cmap_.name.c_str())) {
    for (const auto& name : colormap_names())
      if (ImGui::Selectable(name.c_str(), name == cmap_.name)) set_colormap(name);
    ImGui::EndCombo();
  }
}

void heatmap_view::draw_slot_tooltip(std::uint64_t slot, const std::vector<slot_record>& dump) {
  const auto it =
      std::find_if(dump.begin(), dump.end(), [&](const slot_record& r) { return r.slot == slot; });
  ImGui::BeginTooltip();
  ImGui::Text("slot %s", format_count(slot).c_str());
  if (it != dump.end()) {
    hovered_record_ = *it;
    ImGui::Text("state: %s", state_name(it->state));
    if (it->state == slot_state::live || it->state == slot_state::erased) {
      ImGui::Text("key: %s (%s)", key_text(it->key, radix_).c_str(),
                  key_text(it->key, radix_ == key_radix::hex ? key_radix::decimal : key_radix::hex)
                      .c_str());
      ImGui::Text("value: %s", value_text(*it).c_str());
      ImGui::Text("home slot: %s", format_count(it->home).c_str());
      ImGui::Text("displacement: %llu", static_cast<unsigned long long>(it->displacement));
    }
  } else {
    ImGui::TextDisabled("(sampling...)");
  }
  ImGui::EndTooltip();
}

void heatmap_view::zoom_or_pan(const geometry& g, std::optional<std::uint64_t> slot,
                               std::uint64_t capacity) {
  const ImGuiIO& io = ImGui::GetIO();
  // Zoom around the slot under the mouse; drag to pan.
  if (io.MouseWheel != 0.f) {
    // Step from the requested zoom, not the rounded layout, or zooming sticks at whole cells.
    const double spp_now = zoom_spp_ > 0 ? zoom_spp_ : g.spp / g.cell;
    const double next =
        std::min(spp_now * std::pow(0.8, io.MouseWheel), static_cast<double>(capacity));
    // Keep the slot under the mouse at the same fraction of the view.
    const double under = slot ? static_cast<double>(*slot) : static_cast<double>(g.first);
    const double frac =
        g.count ? (under - static_cast<double>(g.first)) / static_cast<double>(g.count) : 0.0;
    zoom_spp_ = next;
    range_count_ = 0;
    first_ = std::max(0.0, under - frac * next * area_w_ * area_h_);
  }
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    const ImVec2 d = io.MouseDelta;
    // Accumulate in first_ (fractional): sub-slot drags add up instead of rounding away.
    first_ = std::clamp(
        first_ - (static_cast<double>(d.x) + static_cast<double>(d.y) * g.w) * (g.spp / g.cell),
        0.0, static_cast<double>(capacity - g.count));
  }
}

void heatmap_view::draw_cells(const geometry& g, ImVec2 origin,
                              const std::vector<slot_record>& dump) const {
  const float fs = ImGui::GetFontSize();
  if (g.cell < 3 * fs || dump.size() < 2) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float cw = static_cast<float>(g.cell);
  for (const slot_record& r : dump) {
    if (r.slot < g.first || r.slot >= g.first + std::uint64_t(g.w) * g.h) continue;
    const auto idx = static_cast<int>(r.slot - g.first);
    const ImVec2 c0(origin.x + (idx % g.w) * cw, origin.y + (idx / g.w) * cw);
    dl->AddRect(c0, ImVec2(c0.x + cw, c0.y + cw), IM_COL32(0, 0, 0, 160));
    if (r.state == slot_state::empty) continue;
    const ImU32 ink =
        r.state == slot_state::live ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
    dl->PushClipRect(c0, ImVec2(c0.x + cw, c0.y + cw), true);
    dl->AddText(ImVec2(c0.x + 2, c0.y + 1), ink, key_text(r.key, radix_, false).c_str());
    if (cw >= 2.4f * fs) dl->AddText(ImVec2(c0.x + 2, c0.y + 1 + fs), ink, value_text(r).c_str());
    if (cw >= 3.6f * fs)
      dl->AddText(ImVec2(c0.x + 2, c0.y + 1 + 2 * fs), ink,
                  strprintf("+%llu", (unsigned long long)r.displacement).c_str());
    dl->PopClipRect();
  }
}

void heatmap_view::draw_marks(const geometry& g, ImVec2 origin) const {
  if (marks_.empty() || g.cell < 3) return;  // a mark on a pixel of many slots would mislead
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float cw = static_cast<float>(g.cell), fs = ImGui::GetFontSize();
  for (const slot_mark& m : marks_) {
    if (m.slot < g.first || m.slot >= g.first + std::uint64_t(g.w) * g.h) continue;
    const auto idx = static_cast<int>(m.slot - g.first);
    const ImVec2 c0(origin.x + (idx % g.w) * cw, origin.y + (idx / g.w) * cw);
    dl->AddRect(ImVec2(c0.x + 1, c0.y + 1), ImVec2(c0.x + cw - 1, c0.y + cw - 1), m.color, 0.f,
                std::max(2.f, cw / 40));
    if (m.order >= 0 && cw >= 2.4f * fs) {
      const std::string n = strprintf("#%d", m.order);
      dl->AddText(ImVec2(c0.x + cw - ImGui::CalcTextSize(n.c_str()).x - 3, c0.y + cw - fs - 2),
                  m.color, n.c_str());
    }
  }
}

void heatmap_view::draw_figure(const heatmap_image& image, const std::vector<slot_record>& dump,
                               std::uint64_t capacity) {
  const geometry g = layout(capacity);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size(static_cast<float>(g.w) * g.cell, static_cast<float>(g.h) * g.cell);
  draw_cells_image(image, size);
  draw_cells(g, origin, dump);
  draw_marks(g, origin);
  draw_bands(g, origin);
}

void heatmap_view::draw_bands(const geometry& g, ImVec2 origin) {
  bands_drawn_.clear();
  if (bands_.size() < 2 || g.w <= 0 || g.count == 0) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float cw = static_cast<float>(g.cell), right = origin.x + g.w * cw;
  const ImU32 line = IM_COL32(255, 255, 255, 230), shade = IM_COL32(0, 0, 0, 170);
  const std::uint64_t end = g.first + g.count;
  for (std::size_t b = 0; b < bands_.size(); ++b) {
    const std::uint64_t band_end = b + 1 < bands_.size() ? bands_[b + 1].first : ~0ull;
    if (band_end <= g.first || bands_[b].first >= end) continue;  // out of view
    const std::uint64_t from = std::max(bands_[b].first, g.first);
    const auto p = static_cast<std::int64_t>(static_cast<double>(from - g.first) / g.spp);
    const float x = origin.x + static_cast<float>(p % g.w) * cw;
    const float y = origin.y + static_cast<float>(p / g.w) * cw;
    const bool starts_in_view = bands_[b].first > g.first;
    if (starts_in_view) {  // its start: along the row from here, then the row below
      dl->AddLine(ImVec2(x, y), ImVec2(right, y), line, 2.f);
      dl->AddLine(ImVec2(x, y), ImVec2(x, y + cw), line, 2.f);
      dl->AddLine(ImVec2(origin.x, y + cw), ImVec2(x, y + cw), line, 2.f);
    }
    // The label at the left of the band's first whole row: the first place it surely owns.
    const char* label = bands_[b].label.c_str();
    const ImVec2 size = ImGui::CalcTextSize(label);
    const ImVec2 at(origin.x + 2, starts_in_view && p % g.w ? y + cw + 2 : y + 2);
    dl->AddRectFilled(at, ImVec2(at.x + size.x + 6, at.y + size.y + 2), shade, 3.f);
    dl->AddText(ImVec2(at.x + 3, at.y + 1), line, label);
    bands_drawn_.push_back(bands_[b].label);
  }
}

float heatmap_view::legend_width() const {
  const float fs = ImGui::GetFontSize();
  float w = 6 * fs;  // the scale's bar, tick labels and title
  for (const swatch& s : swatches(style_))
    w = std::max(w, ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.x +
                        ImGui::CalcTextSize(s.label).x);
  return w;
}

void heatmap_view::draw_legend(ImVec2 size) const {
  const auto rows = swatches(style_);
  // ImPlot's scale has linear ticks, and displacement mode's colours are linear in log2(1 + mean
  // probe length), not in the length: the scale counts in that quantity so that its ticks are true.
  const bool occ = style_.mode == heatmap_mode::occupancy;
  const double top = occ ? 1.0 : std::log2(1.0 + static_cast<double>(style_.displacement_max));
  const float scale_h = size.y -
                        static_cast<float>(rows.size()) * ImGui::GetTextLineHeightWithSpacing() -
                        ImGui::GetStyle().ItemSpacing.y;
  ImGui::BeginGroup();  // keeps the swatches under the scale, beside the image
  // At least a line per tick (ImPlot sets eleven on [0, 1] however short the scale): beside a
  // short image, a render on NVIDIA's EGL squeezed them into 80 pixels, one over another.
  const float least = 11 * ImGui::GetTextLineHeight();
  ImPlot::ColormapScale(occ ? "live fraction of slots" : "log2(1 + mean probe length)", 0, top,
                        ImVec2(size.x, std::max(scale_h, least)), "%g",
                        ImPlotColormapScaleFlags_None, implot_colormap(cmap_));
  for (const swatch& s : rows) {
    ImPlot::ItemIcon(IM_COL32(s.color.r, s.color.g, s.color.b, 255));
    ImGui::SameLine();
    ImGui::TextUnformatted(s.label);
  }
  ImGui::EndGroup();
}

}  // namespace hs::vis
