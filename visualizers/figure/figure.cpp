// The figure layer on cairo: one drawing of the page, replayed on a PNG, an SVG and a PDF surface.
// Text is measured with cairo; on the PNG and the PDF cairo draws it (the PDF keeps it as text),
// and for the SVG it is written as <text> elements, since cairo's SVG surface turns glyphs into
// outlines that no reader or script can search.
#include "visualizers/figure/figure.hpp"
#include "visualizers/figure/figure_painter.hpp"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "visualizers/axis_format.hpp"

namespace hs::fig {

namespace fs = std::filesystem;
using namespace detail;

namespace detail {

// A panel's title: one line at the text size where it fits, else two lines broken at the space
// nearest the middle, each set smaller if still too wide. Returns the height it took.
double draw_title(painter& p, const std::string& title, box area, double fs) {
  if (title.empty()) return 0;
  const double room = area.x1 - area.x0 - 0.4 * fs, centre = (area.x0 + area.x1) / 2;
  std::vector<std::string> lines{title};
  if (p.width(title, fs) > room) {
    std::size_t best = std::string::npos;
    for (std::size_t i = title.find(' '); i != std::string::npos; i = title.find(' ', i + 1))
      if (best == std::string::npos ||
          std::abs(double(i) - title.size() / 2.0) < std::abs(double(best) - title.size() / 2.0))
        best = i;
    if (best != std::string::npos) lines = {title.substr(0, best), title.substr(best + 1)};
  }
  double size = fs;
  for (const std::string& l : lines) size = std::min(size, fitted(p, l, fs, room));
  for (std::size_t i = 0; i < lines.size(); ++i)
    p.text(centre, area.y0 + 1.1 * fs + i * 1.15 * size, size, lines[i], 0.5);
  return 0.6 * fs + lines.size() * 1.15 * size;
}

}  // namespace detail

std::optional<std::pair<double, double>> parse_page_size(std::string_view text, double dpi) {
  std::string s(text);
  double to_in = 0;
  for (const auto& [unit, factor] : {std::pair<const char*, double>{"in", 1.0},
                                     {"cm", 1 / 2.54},
                                     {"mm", 1 / 25.4},
                                     {"px", 1 / dpi}}) {
    const std::string u(unit);
    if (s.size() > u.size() && s.compare(s.size() - u.size(), u.size(), u) == 0) {
      to_in = factor;
      s.resize(s.size() - u.size());
      break;
    }
  }
  const auto x = s.find('x');
  if (to_in == 0 || x == std::string::npos) return std::nullopt;
  try {
    std::size_t a = 0, b = 0;
    const double w = std::stod(s.substr(0, x), &a), h = std::stod(s.substr(x + 1), &b);
    if (a != x || b != s.size() - x - 1 || !(w > 0) || !(h > 0)) return std::nullopt;
    return std::pair{w * to_in, h * to_in};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

page fit_page(const figure& f, page p) {
  const double pt = p.font_pt / 72;  // a text size, in inches
  // A diagram line is 1.3 text sizes high, a monospace column 0.61 wide; the margins, title and
  // a caption line take a few lines more (a longer caption is set smaller).
  if (f.text_lines) p.height_in = (f.text_lines * 1.3 + 5) * pt;
  if (f.text_columns) p.width_in = std::max(p.width_in, (f.text_columns * 0.61 + 2) * pt);
  return p;
}

rgb series_rgb(int i) {
  if (i < 0) return {0, 0, 0};
  static constexpr rgb k[] = {{0.34, 0.71, 0.91}, {0.90, 0.62, 0.0}, {0.0, 0.62, 0.45},
                              {0.80, 0.47, 0.65}, {0.0, 0.45, 0.70}, {0.84, 0.37, 0.0}};
  return k[static_cast<unsigned>(i) % 6];
}

namespace {

std::vector<double> nice_ticks(double lo, double hi, bool log) {
  std::vector<double> t;
  if (log) {
    for (double d = std::pow(10, std::floor(std::log10(lo))); d <= hi * 1.0001; d *= 10)
      if (d >= lo * 0.9999) t.push_back(d);
    if (t.size() > 6) {  // every other decade
      std::vector<double> thin;
      for (std::size_t i = 0; i < t.size(); i += 2) thin.push_back(t[i]);
      t = thin;
    }
    return t;
  }
  const double span = hi - lo, raw = span / 5, mag = std::pow(10, std::floor(std::log10(raw)));
  const double step = raw / mag < 1.5 ? mag
                      : raw / mag < 3 ? 2 * mag
                      : raw / mag < 7 ? 5 * mag
                                      : 10 * mag;
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
    t.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
  return t;
}

// The axis range the data asks for (with a margin on linear axes), or the one given.
void fit_axis(axis& a, const std::vector<series>& data, bool is_x) {
  if (!a.fit) return;
  double lo = INFINITY, hi = -INFINITY;
  for (const series& s : data)
    for (double v : is_x ? s.x : s.y) {
      if (a.log && v <= 0) continue;
      lo = std::min(lo, v - (is_x && s.kind == series::bars ? s.bar_width / 2 : 0));
      hi = std::max(hi, v + (is_x && s.kind == series::bars ? s.bar_width / 2 : 0));
    }
  if (!std::isfinite(lo)) lo = a.log ? 1 : 0, hi = a.log ? 10 : 1;
  if (!is_x && !a.log && lo > 0) lo = 0;  // counts and rates from zero
  if (a.log) {
    lo = std::pow(10, std::floor(std::log10(lo)));
    hi = std::pow(10, std::ceil(std::log10(hi) + 1e-9));
  } else if (hi <= lo) {
    hi = lo + 1;
  } else if (!is_x) {
    hi += (hi - lo) * 0.05;
  } else if (std::none_of(data.begin(), data.end(),
                          [](const series& s) { return s.kind == series::bars; })) {
    // Room for the first and last markers, which would otherwise be cut in half by the frame.
    const double pad = (hi - lo) * 0.03;
    lo -= pad, hi += pad;
  }
  a.lo = lo, a.hi = hi;
}

/// How much of the data a box would hide: points of every line sampled along its segments, every
/// marker and every bar top that fall inside it.
double hidden_by(const box& b, const std::vector<const series*>& data,
                 const std::function<double(double)>& X, const std::function<double(double)>& Y) {
  double hidden = 0;
  const auto inside = [&](double x, double y) {
    return x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1;
  };
  for (const series* s : data) {
    const std::size_t n = std::min(s->x.size(), s->y.size());
    for (std::size_t i = 0; i < n; ++i) {
      const double x = X(s->x[i]), y = Y(s->y[i]);
      hidden += inside(x, y);
      if (s->kind != series::line || i + 1 == n) continue;
      const double x1 = X(s->x[i + 1]), y1 = Y(s->y[i + 1]);
      for (int k = 1; k < 16; ++k) hidden += inside(x + (x1 - x) * k / 16, y + (y1 - y) * k / 16);
    }
  }
  return hidden;
}

// A marker on every measured point: a disc, smaller where a series is dense (a timeline of
// hundreds of batches) so the markers do not merge into a band.
double marker_radius(const series& s, double fs) { return (s.x.size() > 60 ? 0.1 : 0.2) * fs; }

void draw_markers(painter& p, const series& s, const std::function<double(double)>& X,
                  const std::function<double(double)>& Y, double fs) {
  const std::size_t n = std::min(s.x.size(), s.y.size());
  const double r = marker_radius(s, fs);
  for (std::size_t i = 0; i < n; ++i) {
    cairo_new_sub_path(p.cr);
    cairo_arc(p.cr, X(s.x[i]), Y(s.y[i]), r, 0, 2 * M_PI);
    if (p.markers) p.markers->push_back({s.name, X(s.x[i]), Y(s.y[i]), r});
  }
  cairo_fill(p.cr);
}

// A value's place between p0 and p1 along a linear or a log axis.
double axis_position(double v, const axis& a, double p0, double p1) {
  const double t = a.log ? (std::log10(std::max(v, 1e-300)) - std::log10(a.lo)) /
                               (std::log10(a.hi) - std::log10(a.lo))
                         : (v - a.lo) / (a.hi - a.lo);
  return p0 + t * (p1 - p0);
}

/// One plot panel as it is drawn: its axes fitted to the data with their ticks, the box they span
/// on the page, and where the legend goes. X and Y map values onto the plot box and follow it when
/// the legend takes room from it.
struct plot_drawing {
  painter& p;
  const panel& pn;
  box area;
  double fs;
  cairo_t* cr;
  axis xa, ya;
  std::vector<double> xt{}, yt{};
  box plot{};
  std::vector<const series*> named{};              ///< the series with a legend entry
  box inside{};                                    ///< the legend's box, inside the plot
  std::vector<std::pair<double, double>> below{};  ///< each entry's top left, when under the plot

  double X(double v) const { return axis_position(v, xa, plot.x0, plot.x1); }
  double Y(double v) const { return axis_position(v, ya, plot.y1, plot.y0); }
  double entry_width(const series* s) const { return 1.4 * fs + p.width(s->name, fs * 0.9); }
  void lay_out();
  void place_legend();
  void move_legend_below();
  void draw_axes() const;
  void draw_data() const;
  void draw_series(const series& s) const;
  void draw_legend() const;
  void draw_legend_entry(const series& s, double x, double y) const;
};

// Fits the axes to the data, draws the title, and leaves room for the tick and axis labels.
void plot_drawing::lay_out() {
  fit_axis(xa, pn.data, true);
  fit_axis(ya, pn.data, false);
  xt = nice_ticks(xa.lo, xa.hi, xa.log);
  yt = nice_ticks(ya.lo, ya.hi, ya.log);
  double label_w = 0;
  for (double v : yt) label_w = std::max(label_w, p.width(vis::tick_label(v), fs * 0.9));
  const double title_h = draw_title(p, pn.title, area, fs);
  plot = box{area.x0 + 1.6 * fs + label_w + 0.4 * fs,
             area.y0 + (pn.title.empty() ? 0.6 * fs : title_h + 0.3 * fs), area.x1 - 0.6 * fs,
             area.y1 - 2.9 * fs};
}

// The legend: inside the plot, in the corner where it hides the least data (top right first);
// where every corner would hide some, in rows under the x-axis label.
void plot_drawing::place_legend() {
  std::vector<const series*> all;
  for (const series& s : pn.data) {
    all.push_back(&s);
    if (pn.legend && !s.name.empty()) named.push_back(&s);
  }
  if (named.empty()) return;
  double w = 0;
  for (const series* s : named) w = std::max(w, entry_width(s) + 0.6 * fs);
  const double bh = named.size() * 1.2 * fs + 0.4 * fs, m = 0.4 * fs;
  const box corners[] = {{plot.x1 - w - m, plot.y0 + m, plot.x1 - m, plot.y0 + m + bh},
                         {plot.x0 + m, plot.y0 + m, plot.x0 + m + w, plot.y0 + m + bh},
                         {plot.x1 - w - m, plot.y1 - m - bh, plot.x1 - m, plot.y1 - m},
                         {plot.x0 + m, plot.y1 - m - bh, plot.x0 + m + w, plot.y1 - m}};
  const auto x = [this](double v) { return X(v); };
  const auto y = [this](double v) { return Y(v); };
  inside = corners[0];
  double least = hidden_by(inside, all, x, y);
  for (const box& c : corners) {
    const double h = hidden_by(c, all, x, y);
    if (h < least) least = h, inside = c;
  }
  if (least > 0) move_legend_below();
}

// Rows of entries under the x-axis label, the plot giving up their height (X and Y follow the
// plot box).
void plot_drawing::move_legend_below() {
  double x = area.x0 + 0.5 * fs, y = 0;
  for (const series* s : named) {
    const double ew = entry_width(s) + 1.0 * fs;
    if (x > area.x0 + 0.5 * fs && x + ew > area.x1) x = area.x0 + 0.5 * fs, y += 1.2 * fs;
    below.emplace_back(x, y);
    x += ew;
  }
  // Only while the plot keeps room for its tick labels; a small page keeps the legend inside.
  if (plot.y1 - (y + 1.4 * fs) - plot.y0 >= 7 * fs) {
    plot.y1 -= y + 1.4 * fs;
    for (auto& [ex, ey] : below) ey += plot.y1 + 2.9 * fs;
  } else {
    below.clear();
  }
}

// Grid, frame, ticks and their labels.
void plot_drawing::draw_axes() const {
  cairo_set_line_width(cr, 0.4);
  cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
  for (double v : yt) cairo_move_to(cr, plot.x0, Y(v)), cairo_line_to(cr, plot.x1, Y(v));
  cairo_stroke(cr);
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 0.6);
  cairo_rectangle(cr, plot.x0, plot.y0, plot.x1 - plot.x0, plot.y1 - plot.y0);
  cairo_stroke(cr);
  for (double v : xt) {
    cairo_move_to(cr, X(v), plot.y1), cairo_line_to(cr, X(v), plot.y1 + 0.3 * fs);
    // A label at the right edge ends at the panel's edge instead of running off the page.
    const std::string label = vis::tick_label(v);
    const double half = p.width(label, fs * 0.9) / 2;
    p.text(std::min(X(v), area.x1 - half), plot.y1 + 1.3 * fs, fs * 0.9, label, 0.5);
  }
  for (double v : yt) {
    cairo_move_to(cr, plot.x0, Y(v)), cairo_line_to(cr, plot.x0 - 0.3 * fs, Y(v));
    p.text(plot.x0 - 0.5 * fs, Y(v) + 0.32 * fs, fs * 0.9, vis::tick_label(v), 1);
  }
  cairo_stroke(cr);
  p.text((plot.x0 + plot.x1) / 2, plot.y1 + 2.4 * fs, fitted(p, xa.label, fs, area.x1 - plot.x0),
         xa.label, 0.5);
  p.text(area.x0 + 1.0 * fs, (plot.y0 + plot.y1) / 2, fitted(p, ya.label, fs, plot.y1 - plot.y0),
         ya.label, 0.5, true);
}

// The data, clipped to the plot.
void plot_drawing::draw_data() const {
  cairo_save(cr);
  cairo_rectangle(cr, plot.x0, plot.y0, plot.x1 - plot.x0, plot.y1 - plot.y0);
  cairo_clip(cr);
  for (const series& s : pn.data) draw_series(s);
  cairo_restore(cr);
}

void plot_drawing::draw_series(const series& s) const {
  const rgb c = series_rgb(s.color);
  cairo_set_source_rgb(cr, c.r, c.g, c.b);
  const std::size_t n = std::min(s.x.size(), s.y.size());
  if (s.kind == series::bars) {
    for (std::size_t i = 0; i < n; ++i) {
      if (ya.log && s.y[i] <= 0) continue;
      const double x0 = X(s.x[i] - s.bar_width * 0.45), x1 = X(s.x[i] + s.bar_width * 0.45);
      const double base = ya.log ? plot.y1 : Y(std::max(ya.lo, 0.0));
      cairo_rectangle(cr, x0, Y(s.y[i]), std::max(x1 - x0, 0.3), base - Y(s.y[i]));
    }
    cairo_fill(cr);
    return;
  }
  if (s.lo.size() == n && s.hi.size() == n) {  // each point's range over its repeats
    cairo_set_line_width(cr, 0.5);
    const double cap = 0.2 * fs;
    for (std::size_t i = 0; i < n; ++i) {
      const double x = X(s.x[i]), y0 = Y(s.lo[i]), y1 = Y(s.hi[i]);
      cairo_move_to(cr, x, y0), cairo_line_to(cr, x, y1);
      cairo_move_to(cr, x - cap, y0), cairo_line_to(cr, x + cap, y0);
      cairo_move_to(cr, x - cap, y1), cairo_line_to(cr, x + cap, y1);
    }
    cairo_stroke(cr);
  }
  if (s.kind == series::line) {
    cairo_set_line_width(cr, s.width);
    for (std::size_t i = 0; i < n; ++i)
      (i ? cairo_line_to : cairo_move_to)(cr, X(s.x[i]), Y(s.y[i]));
    cairo_stroke(cr);
  }
  draw_markers(p, s, [this](double v) { return X(v); }, [this](double v) { return Y(v); }, fs);
}

void plot_drawing::draw_legend() const {
  if (!below.empty()) {
    for (std::size_t i = 0; i < named.size(); ++i)
      draw_legend_entry(*named[i], below[i].first, below[i].second);
    return;
  }
  cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
  cairo_rectangle(cr, inside.x0, inside.y0, inside.x1 - inside.x0, inside.y1 - inside.y0);
  cairo_fill_preserve(cr);
  cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
  cairo_set_line_width(cr, 0.4);
  cairo_stroke(cr);
  for (std::size_t i = 0; i < named.size(); ++i)
    draw_legend_entry(*named[i], inside.x0, inside.y0 + 0.4 * fs + i * 1.2 * fs);
}

// One entry: what the plot draws for the series (the line through a marker, or a bar's swatch),
// then its name; (x, y) is the entry's top left.
void plot_drawing::draw_legend_entry(const series& s, double x, double y) const {
  const rgb c = series_rgb(s.color);
  cairo_set_source_rgb(cr, c.r, c.g, c.b);
  const double mid = y + 0.5 * fs;
  if (s.kind == series::bars) {
    cairo_rectangle(cr, x + 0.3 * fs, y + 0.15 * fs, 0.8 * fs, 0.7 * fs);
    cairo_fill(cr);
  } else {
    if (s.kind == series::line) {
      cairo_set_line_width(cr, s.width);
      cairo_move_to(cr, x + 0.2 * fs, mid), cairo_line_to(cr, x + 1.2 * fs, mid);
      cairo_stroke(cr);
    }
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + 0.7 * fs, mid, marker_radius(s, fs), 0, 2 * M_PI);
    cairo_fill(cr);
  }
  p.text(x + 1.4 * fs, y + 0.8 * fs, fs * 0.9, s.name);
}

void draw_plot(painter& p, const panel& pn, box area, double fs) {
  plot_drawing d{p, pn, area, fs, p.cr, pn.x, pn.y};
  d.lay_out();
  d.place_legend();
  d.draw_axes();
  d.draw_data();
  if (!d.named.empty()) d.draw_legend();
}

void draw_image(painter& p, const panel& pn, box area, double fs) {
  cairo_t* cr = p.cr;
  const image_panel& im = *pn.image;
  const double title_h = draw_title(p, pn.title, area, fs);
  const double bar_w = im.cmap ? 0.9 * fs : 0, bar_gap = im.cmap ? 3.6 * fs : 0;
  const box img{area.x0 + 0.4 * fs, area.y0 + (pn.title.empty() ? 0.4 * fs : title_h + 0.3 * fs),
                area.x1 - bar_w - bar_gap, area.y1 - 2.0 * fs};
  if (im.width > 0 && im.height > 0) {
    cairo_surface_t* src = cairo_image_surface_create(CAIRO_FORMAT_RGB24, im.width, im.height);
    unsigned char* data = cairo_image_surface_get_data(src);
    const int stride = cairo_image_surface_get_stride(src);
    for (int y = 0; y < im.height; ++y)
      for (int x = 0; x < im.width; ++x) {
        const std::uint8_t* px = &im.rgba[(std::size_t(y) * im.width + x) * 4];
        auto* out = reinterpret_cast<std::uint32_t*>(data + y * stride) + x;
        *out = (std::uint32_t{px[0]} << 16) | (std::uint32_t{px[1]} << 8) | px[2];
      }
    cairo_surface_mark_dirty(src);
    cairo_save(cr);
    cairo_translate(cr, img.x0, img.y0);
    cairo_scale(cr, (img.x1 - img.x0) / im.width, (img.y1 - img.y0) / im.height);
    cairo_set_source_surface(cr, src, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);  // cells stay cells
    cairo_paint(cr);
    cairo_restore(cr);
    cairo_surface_destroy(src);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 0.6);
  cairo_rectangle(cr, img.x0, img.y0, img.x1 - img.x0, img.y1 - img.y0);
  cairo_stroke(cr);
  p.text((area.x0 + area.x1) / 2, area.y1 - 0.6 * fs, fitted(p, im.x_label, fs, area.x1 - area.x0),
         im.x_label, 0.5);
  if (!im.cmap) return;
  const double bx = img.x1 + 0.6 * fs;
  for (int i = 0; i < 64; ++i) {  // the colour bar, 0 at the bottom
    const vis::rgba8 c = im.cmap->at((i + 0.5f) / 64.f);
    cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0);
    const double y1 = img.y1 - (img.y1 - img.y0) * i / 64.0,
                 y0 = img.y1 - (img.y1 - img.y0) * (i + 1) / 64.0;
    cairo_rectangle(cr, bx, y0, bar_w, y1 - y0 + 0.3);
    cairo_fill(cr);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_rectangle(cr, bx, img.y0, bar_w, img.y1 - img.y0);
  cairo_stroke(cr);
  for (double v : {0.0, 0.5, 1.0})
    p.text(bx + bar_w + 0.3 * fs, img.y1 - (img.y1 - img.y0) * v + 0.3 * fs, fs * 0.9,
           vis::tick_label(v));
  p.text(area.x1 - 0.3 * fs, (img.y0 + img.y1) / 2, fs, im.bar_label, 0.5, true);
}

// Words of the caption in lines no wider than `w`.
std::vector<std::string> wrap(painter& p, const std::string& s, double size, double w) {
  std::vector<std::string> lines;
  std::istringstream in(s);
  std::string word, line;
  while (in >> word) {
    const std::string tried = line.empty() ? word : line + " " + word;
    if (!line.empty() && p.width(tried, size) > w) {
      lines.push_back(line);
      line = word;
    } else {
      line = tried;
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

void draw_page(painter& p, const figure& f, double W, double H, double fs) {
  cairo_set_source_rgb(p.cr, 1, 1, 1);
  cairo_paint(p.cr);
  // The caption takes at most 30% of the page where it can: set smaller (down to 0.7 of the text
  // size) rather than leave the plots too short for their ticks and legends.
  double cs = fs;
  auto caption = wrap(p, f.caption, cs, W - 1.0 * fs);
  const auto height_of = [&](double size) {
    return caption.empty() ? 0.0 : caption.size() * 1.25 * size + 0.5 * size;
  };
  while (height_of(cs) > 0.3 * H && cs > 0.7 * fs) {
    cs -= 0.05 * fs;
    caption = wrap(p, f.caption, cs, W - 1.0 * fs);
  }
  const double caption_h = height_of(cs);
  const double pw = W / std::max<std::size_t>(f.panels.size(), 1);
  for (std::size_t i = 0; i < f.panels.size(); ++i) {
    const box area{i * pw, 0, (i + 1) * pw, H - caption_h};
    if (f.panels[i].diagram)
      draw_diagram(p, f.panels[i], area, fs);
    else if (f.panels[i].image)
      draw_image(p, f.panels[i], area, fs);
    else
      draw_plot(p, f.panels[i], area, fs);
  }
  for (std::size_t i = 0; i < caption.size(); ++i)
    p.text(0.5 * fs, H - caption_h + (i + 1) * 1.25 * cs, cs, caption[i]);
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// The recorded text as SVG <text>, before the closing tag.
void add_svg_text(const std::string& path, const std::vector<text_item>& texts) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string svg = ss.str();
  const auto end = svg.rfind("</svg>");
  if (end == std::string::npos) throw user_error("figure: cairo wrote no SVG to " + path);
  std::string t = "<g font-family=\"DejaVu Sans, Verdana, sans-serif\" fill=\"black\">\n";
  for (const text_item& x : texts)
    t += strprintf(
        "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.2f\" text-anchor=\"%s\"%s%s>%s</text>\n", x.x,
        x.y, x.size,
        x.anchor == 0   ? "start"
        : x.anchor == 1 ? "end"
                        : "middle",
        x.vertical ? strprintf(" transform=\"rotate(-90 %.2f %.2f)\"", x.x, x.y).c_str() : "",
        x.mono ? " font-family=\"DejaVu Sans Mono, monospace\" xml:space=\"preserve\"" : "",
        xml_escape(x.s).c_str());
  t += "</g>\n";
  svg.insert(end, t);
  std::ofstream out(path, std::ios::trunc);
  out << svg;
  if (!out) throw user_error("figure: cannot write " + path);
}

void check(cairo_status_t st, const std::string& what) {
  if (st != CAIRO_STATUS_SUCCESS)
    throw user_error("figure: " + what + ": " + cairo_status_to_string(st));
}

}  // namespace

std::vector<text_box> layout_text(const figure& f, const page& pg) {
  const double W = pg.width_in * 72, H = pg.height_in * 72;
  cairo_surface_t* s = cairo_recording_surface_create(CAIRO_CONTENT_COLOR, nullptr);
  cairo_t* cr = cairo_create(s);
  std::vector<text_box> boxes;
  painter p{cr, false, nullptr, &boxes};
  draw_page(p, f, W, H, pg.font_pt);
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  return boxes;
}

std::vector<marker_spot> layout_markers(const figure& f, const page& pg) {
  cairo_surface_t* s = cairo_recording_surface_create(CAIRO_CONTENT_COLOR, nullptr);
  cairo_t* cr = cairo_create(s);
  std::vector<marker_spot> spots;
  painter p{cr, false, nullptr};
  p.markers = &spots;
  draw_page(p, f, pg.width_in * 72, pg.height_in * 72, pg.font_pt);
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  return spots;
}

std::vector<std::string> write_figure(const figure& f, const page& pg, const std::string& base) {
  const double W = pg.width_in * 72, H = pg.height_in * 72, scale = pg.dpi / 72;
  const long wpx = std::lround(W * scale), hpx = std::lround(H * scale);
  if (wpx > 16384 || hpx > 16384 || wpx < 16 || hpx < 16)
    throw user_error(strprintf(
        "figure: %.2fx%.2f in at %.0f dpi is %ldx%ld pixels: keep each side between 16 and 16,384",
        pg.width_in, pg.height_in, pg.dpi, wpx, hpx));
  const fs::path dir = fs::path(base).parent_path();
  if (!dir.empty() && !fs::is_directory(dir)) throw user_error("figure: no folder " + dir.string());
  std::vector<std::string> written;
  std::vector<text_item> texts;
  // Each file is drawn into a temporary file beside it, then committed (flushed to disk and
  // renamed into place): a crash leaves the old file or the new one. A failure removes it.
  const auto make_file = [&](const std::string& ext,
                             const std::function<void(const std::string&)>& draw) {
    const std::string final_path = base + ext;
    const std::string tmp = temp_path_for(final_path);
    try {
      draw(tmp);
    } catch (...) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw;
    }
    try {
      commit_file(tmp, final_path);
    } catch (const user_error& e) {
      throw user_error(std::string("figure: ") + e.what());
    }
    written.push_back(final_path);
  };
  make_file(".png", [&](const std::string& tmp) {  // PNG at the page's DPI
    cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, static_cast<int>(wpx),
                                                    static_cast<int>(hpx));
    cairo_t* cr = cairo_create(s);
    cairo_scale(cr, scale, scale);
    painter p{cr, false, nullptr};
    draw_page(p, f, W, H, pg.font_pt);
    cairo_destroy(cr);
    const cairo_status_t st = cairo_surface_write_to_png(s, tmp.c_str());
    cairo_surface_destroy(s);
    check(st, "writing " + tmp);
  });
  // The vector files: draw on the surface cairo makes for the temporary file, finish it, check it.
  const auto vector_file = [&](const std::string& ext, auto make_surface, bool svg) {
    make_file(ext, [&](const std::string& tmp) {
      cairo_surface_t* s = make_surface(tmp.c_str(), W, H);
      check(cairo_surface_status(s), "creating " + tmp);
      cairo_t* cr = cairo_create(s);
      painter p{cr, svg, &texts};
      draw_page(p, f, W, H, pg.font_pt);
      cairo_destroy(cr);
      cairo_surface_finish(s);
      const cairo_status_t st = cairo_surface_status(s);
      cairo_surface_destroy(s);
      check(st, "writing " + tmp);
      if (svg) add_svg_text(tmp, texts);  // the text as <text>
    });
  };
  vector_file(".pdf", cairo_pdf_surface_create, false);  // text as text
  vector_file(".svg", cairo_svg_surface_create, true);
  return written;
}

}  // namespace hs::fig
