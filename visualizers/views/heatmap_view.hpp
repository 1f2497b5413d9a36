// Slot-occupancy heatmap: the whole table down to single slots, zoom and pan, slot-level keys and
// values, hover tooltips (slot, key, value, home slot, displacement), colormap and legend.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "core/common/format.hpp"
#include "core/common/sample_parts.hpp"
#include "core/table/table.hpp"
#include "visualizers/colormap.hpp"
#include "visualizers/heatmap_colors.hpp"
#include "visualizers/heatmap_image.hpp"
#include "visualizers/views/heatmap_request.hpp"

namespace hs::vis {

/// @brief A slot outlined on the heatmap (step mode: the slots an operation's probe walked).
struct slot_mark {
  std::uint64_t slot = 0;
  ImU32 color = 0;
  int order = -1;  ///< drawn in the cell when >= 0 and the cell is large enough (the probe index)
};

/// @brief A run of slots drawn as a labelled band: a table over several devices, a shard each.
struct slot_band {
  std::uint64_t first = 0;  ///< the band's first slot; it runs to the next band's
  std::string label;        ///< "GPU 1"
};

class heatmap_view {
 public:
  /// @brief The slot last clicked (without dragging), once.
  std::optional<std::uint64_t> take_clicked() { return std::exchange(clicked_, std::nullopt); }
  heatmap_view();

  /// @brief The request for this frame, from the size and zoom of the last one.
  heatmap_request plan(std::uint64_t capacity) const;
  /// @brief Draws the image sampled for `plan()`'s request and handles zoom, pan and hover.
  void draw(const heatmap_image& image, const heatmap_request& req,
            const std::vector<slot_record>& dump, std::uint64_t capacity);
  /// @brief Draws only the image (and slot labels when zoomed to slots) for figures.
  void draw_figure(const heatmap_image& image, const std::vector<slot_record>& dump,
                   std::uint64_t capacity);

  const colormap& cmap() const { return cmap_; }
  const heatmap_style& style() const { return style_; }
  void set_colormap(const std::string& name);
  void set_mode(heatmap_mode m) { style_.mode = m; }
  /// @brief Shows the slots [first, first + count) (count 0: the whole table).
  void set_range(std::uint64_t first, std::uint64_t count, std::uint64_t capacity);
  /// @brief Whether a range set_range gave is shown (part of the table, not zoomed since).
  bool showing_range() const { return range_count_ && zoom_spp_ <= 0; }
  /// @brief Pixel size of the image area used by plan() (set by draw, or by figures).
  void set_area(int w, int h) { area_w_ = w, area_h_ = h; }
  /// @brief The slot record the tooltip shows this frame (a sampled slot under the mouse).
  const std::optional<slot_record>& hovered_record() const { return hovered_record_; }
  /// @brief Screen pixels per slot when zoomed in to single slots, 0 while a pixel covers more.
  int slot_cell_pixels(std::uint64_t capacity) const {
    const geometry g = layout(capacity);
    return g.spp <= 1.0 ? g.cell : 0;
  }
  /// @brief Slots to outline from now on (replacing the previous marks; empty: none).
  void set_marks(std::vector<slot_mark> marks) { marks_ = std::move(marks); }
  const std::vector<slot_mark>& marks() const { return marks_; }
  /// @brief Bands to divide and label from now on (empty: none).
  void set_bands(std::vector<slot_band> bands) { bands_ = std::move(bands); }
  const std::vector<slot_band>& bands() const { return bands_; }
  /// @brief The bands the last draw labelled (those in view), by label.
  const std::vector<std::string>& bands_drawn() const { return bands_drawn_; }
  /// @brief Width of the legend: the colour scale, or the widest swatch with its label.
  float legend_width() const;
  /// @brief The colour scale (ImPlot's, vertical) and below it the swatches of states with colours
  /// of their own, in `size` at the cursor: beside the image, legend_width() wide.
  void draw_legend(ImVec2 size) const;

  /// @brief How the cells and the tooltip write keys (the lesson's decimal keys, or hex).
  void set_key_radix(key_radix r) { radix_ = r; }

 private:
  key_radix radix_ = key_radix::hex;
  std::optional<std::uint64_t> clicked_;
  struct geometry {
    double spp;  ///< slots per image pixel (>= 1), or 1 when zoomed in
    int cell;    ///< screen pixels per image pixel (1 unless zoomed to slots)
    int w, h;    ///< image size in pixels
    std::uint64_t first, count;
  };
  geometry layout(std::uint64_t capacity) const;
  std::optional<std::uint64_t> slot_at(const geometry& g, ImVec2 image_min, ImVec2 mouse) const;
  /// Keys, values and displacements written into cells wide enough to hold them.
  void draw_cells(const geometry& g, ImVec2 origin, const std::vector<slot_record>& dump) const;
  /// The marks that fall in the image, outlined over the cells.
  void draw_marks(const geometry& g, ImVec2 origin) const;
  /// Each band in view: a line where it starts (a step where that falls inside a row of pixels)
  /// and its label at its first pixel.
  void draw_bands(const geometry& g, ImVec2 origin);
  /// draw's parts: the whole-table button and the mode and colour map combos; the hovered slot's
  /// tooltip (it keeps the slot's record for hovered_record()); the wheel's zoom and a drag's pan.
  void draw_toolbar();
  void draw_slot_tooltip(std::uint64_t slot, const std::vector<slot_record>& dump);
  void zoom_or_pan(const geometry& g, std::optional<std::uint64_t> slot, std::uint64_t capacity);

  colormap cmap_;
  heatmap_style style_;
  double first_ = 0;     ///< first slot shown
  double zoom_spp_ = 0;  ///< slots per screen pixel; 0: fit the whole table (or the range)
  std::uint64_t range_count_ = 0;  ///< a requested slot range, fitted to whatever area is there
  int area_w_ = 512, area_h_ = 256;
  std::optional<std::uint64_t> hover_;
  std::optional<slot_record> hovered_record_;
  std::vector<slot_mark> marks_;
  std::vector<slot_band> bands_;
  std::vector<std::string> bands_drawn_;
};

}  // namespace hs::vis
