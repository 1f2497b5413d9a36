// Inside the figure layer: the painter every panel draws through (text measured and set by
// cairo, or recorded for the SVG), the box a panel fills, and the text helpers panels share.
// figure.cpp draws plots, images and the page; figure_diagram.cpp draws diagrams.
#pragma once
#include <cairo.h>

#include <cmath>
#include <string>
#include <vector>

#include "visualizers/figure/figure.hpp"

namespace hs::fig::detail {

inline constexpr const char* k_font = "DejaVu Sans";
inline constexpr const char* k_mono_font = "DejaVu Sans Mono";

struct text_item {
  double x, y, size;
  double anchor;  // 0 left, 0.5 centre, 1 right
  bool vertical;  // rotated -90 degrees (a y-axis label)
  std::string s;
  bool mono = false;  // in the monospace face (code)
};

// Draws on one surface; with `svg`, text is recorded instead of drawn. With `boxes`, where each
// piece of text lands is noted too (layout_text).
struct painter {
  cairo_t* cr;
  bool svg;
  std::vector<text_item>* texts;
  std::vector<text_box>* boxes = nullptr;
  std::vector<marker_spot>* markers = nullptr;  ///< layout_markers: every marker drawn

  cairo_text_extents_t extents(const std::string& s, double size, bool mono = false) const {
    cairo_save(cr);
    cairo_select_font_face(cr, mono ? k_mono_font : k_font, CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr, s.c_str(), &e);
    cairo_restore(cr);
    return e;
  }
  double width(const std::string& s, double size, bool mono = false) const {
    return extents(s, size, mono).x_advance;
  }
  void text(double x, double y, double size, const std::string& s, double anchor = 0,
            bool vertical = false, bool mono = false) {
    if (boxes && !s.empty()) {
      const cairo_text_extents_t e = extents(s, size, mono);
      // Along the text: from -anchor * advance; across it: the ink above and below the baseline.
      const double along0 = -anchor * e.x_advance + e.x_bearing, along1 = along0 + e.width;
      const double up = -e.y_bearing, down = e.height + e.y_bearing;
      if (vertical)  // rotated -90 degrees: along runs up the page, "up" runs left
        boxes->push_back({s, x - up, y - along1, x + down, y - along0});
      else
        boxes->push_back({s, x + along0, y - up, x + along1, y + down});
    }
    if (svg) {
      texts->push_back({x, y, size, anchor, vertical, s, mono});
      return;
    }
    cairo_save(cr);
    cairo_select_font_face(cr, mono ? k_mono_font : k_font, CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_translate(cr, x, y);
    if (vertical) cairo_rotate(cr, -M_PI / 2);
    cairo_move_to(cr, -anchor * width(s, size, mono), 0);
    cairo_show_text(cr, s.c_str());
    cairo_restore(cr);
  }
};

struct box {
  double x0, y0, x1, y1;
};

// A label wider than its room is set smaller, so a narrow panel keeps its words apart rather than
// running into its neighbour or off the page.
inline double fitted(const painter& p, const std::string& text, double fs, double room) {
  const double w = p.width(text, fs);
  return w <= room ? fs : fs * room / w;
}

/// @brief A panel's title: one line at the text size where it fits, else two lines broken at the
/// space nearest the middle, each set smaller if still too wide. Returns the height it took.
double draw_title(painter& p, const std::string& title, box area, double fs);

/// @brief A plot panel (figure_plot.cpp).
void draw_plot(painter& p, const panel& pn, box area, double fs);

/// @brief A diagram panel (figure_diagram.cpp).
void draw_diagram(painter& p, const panel& pn, box area, double fs);

}  // namespace hs::fig::detail
