// Diagram panels: lines of text or code and rows of cells, top to bottom. One scale sets them all:
// it starts at the page's text size and shrinks until the widest line fits the panel's width and
// the lines its height (never below a third of the text size, where a long listing is cut with a
// last line saying how many lines did not fit).
#include <algorithm>
#include <cctype>

#include "core/common/format.hpp"
#include "visualizers/figure/figure_painter.hpp"

namespace hs::fig::detail {

namespace {

constexpr double k_line = 1.3;   // a text line's height, in text sizes
constexpr double k_cell = 1.6;   // a cell's height
constexpr double k_head = 1.05;  // the labels above a row of cells

double height_of(const diagram_line& l, double size) {
  if (l.cells.empty()) return k_line * size;
  const bool heads = std::any_of(l.cells.begin(), l.cells.end(),
                                 [](const diagram_cell& c) { return !c.head.empty(); });
  return (k_cell + (heads ? k_head : 0) + 0.3) * size;
}

// The width a line needs at `size` (a row of cells fits any width: its cells narrow).
double width_of(const painter& p, const diagram_line& l, double size, double gutter) {
  if (!l.cells.empty()) return 0;
  return (l.mono ? gutter : 0) + p.width(l.text, size, l.mono);
}

void fill_rect(cairo_t* cr, double x0, double y0, double x1, double y1, rgb c) {
  cairo_set_source_rgb(cr, c.r, c.g, c.b);
  cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
  cairo_fill(cr);
}

void draw_cells(painter& p, const diagram_line& l, double x0, double x1, double y, double size) {
  cairo_t* cr = p.cr;
  const bool heads = std::any_of(l.cells.begin(), l.cells.end(),
                                 [](const diagram_cell& c) { return !c.head.empty(); });
  // Cells of one width; a short row of words (a legend) takes each word's width where they fit.
  const double uniform = std::min(4.0 * size, (x1 - x0) / static_cast<double>(l.cells.size()));
  std::vector<double> widths(l.cells.size(), uniform);
  if (l.cells.size() <= 10) {
    double total = 0;
    for (std::size_t i = 0; i < l.cells.size(); ++i)
      total += widths[i] = std::max(uniform, p.width(l.cells[i].text, size * 0.8) + size);
    if (total > x1 - x0) std::fill(widths.begin(), widths.end(), uniform);
  }
  const double top = y + (heads ? k_head * size : 0), h = k_cell * size;
  double cx = x0;
  for (std::size_t i = 0; i < l.cells.size(); cx += widths[i], ++i) {
    const diagram_cell& c = l.cells[i];
    const double col = widths[i], head_size = std::min(size * 0.8, col * 0.55);
    if (!c.head.empty() && p.width(c.head, head_size) < col * 0.98)
      p.text(cx + col / 2, y + 0.85 * size, head_size, c.head, 0.5);
    fill_rect(cr, cx + 0.4, top, cx + col - 0.4, top + h, c.fill);
    if (c.outline) {
      cairo_set_source_rgb(cr, c.outline->r, c.outline->g, c.outline->b);
      cairo_set_line_width(cr, std::max(0.8, size * 0.15));
      cairo_rectangle(cr, cx + 0.9, top + 0.5, col - 1.8, h - 1.0);
      cairo_stroke(cr);
    }
    std::string t = c.text;
    double ts = size * 0.8;
    const bool number = !t.empty() && std::all_of(t.begin(), t.end(), [](char ch) {
      return std::isxdigit(static_cast<unsigned char>(ch));
    });
    if (number && p.width(t, ts) > col * 0.9 && t.size() > 3) t = ".." + t.substr(t.size() - 3);
    if (!t.empty() && p.width(t, ts) > col * 0.9) ts *= col * 0.9 / p.width(t, ts);
    if (!t.empty() && ts > size * 0.35) p.text(cx + col / 2, top + h * 0.68, ts, t, 0.5);
  }
}

}  // namespace

void draw_diagram(painter& p, const panel& pn, box area, double fs) {
  const diagram_panel& d = *pn.diagram;
  const double title_h = draw_title(p, pn.title, area, fs);
  const box room{area.x0 + 0.5 * fs, area.y0 + (pn.title.empty() ? 0.4 * fs : title_h + 0.4 * fs),
                 area.x1 - 0.5 * fs, area.y1 - 0.3 * fs};
  const double w = room.x1 - room.x0, h = room.y1 - room.y0;
  std::string widest_gutter;
  for (const diagram_line& l : d.lines)
    if (l.gutter.size() > widest_gutter.size()) widest_gutter = l.gutter;
  const auto gutter_at = [&](double size) {
    return widest_gutter.empty() ? 0.0 : p.width(widest_gutter + " ", size, true);
  };
  const auto fits = [&](double size) {
    double total = 0;
    for (const diagram_line& l : d.lines) {
      if (width_of(p, l, size, gutter_at(size)) > w) return false;
      total += height_of(l, size);
    }
    return total <= h;
  };
  double size = fs;
  while (size > fs / 3 && !fits(size)) size *= 0.95;
  size = std::max(size, fs / 3);
  double y = room.y0;
  for (std::size_t i = 0; i < d.lines.size(); ++i) {
    const diagram_line& l = d.lines[i];
    const double lh = height_of(l, size);
    if (y + lh > room.y1 + 0.01) {  // what did not fit, said
      p.text(room.x0, std::min(y + k_line * size * 0.8, room.y1), size,
             strprintf("(%zu more lines)", d.lines.size() - i));
      break;
    }
    if (l.mark) fill_rect(p.cr, room.x0, y, room.x1, y + lh, *l.mark);
    if (!l.cells.empty()) {
      draw_cells(p, l, room.x0, room.x1, y, size);
    } else {
      const double gutter = l.mono ? gutter_at(size) : 0;
      if (!l.gutter.empty())
        p.text(room.x0 + gutter - p.width(" ", size, true), y + 0.95 * size, size, l.gutter, 1,
               false, true);
      // A line still wider than the panel at the smallest size is set smaller on its own.
      const double room_w = w - gutter;
      const double ls =
          std::min(size, room_w / std::max(p.width(l.text, size, l.mono) / size, 1e-9));
      p.text(room.x0 + gutter, y + 0.95 * size, ls, l.text, 0, false, l.mono);
    }
    y += lh;
  }
}

}  // namespace hs::fig::detail
