// The figure layer's plot panels: axes fitted to the data with their ticks, the series (lines,
// markers, bars) clipped to the plot, and a legend placed where it hides the least data.
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "visualizers/axis_format.hpp"
#include "visualizers/figure/figure.hpp"
#include "visualizers/figure/figure_painter.hpp"

namespace hs::fig::detail {

namespace {

std::vector<double> nice_ticks(double lo, double hi, bool log, bool whole) {
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
  const double nice = raw / mag < 1.5 ? mag
                      : raw / mag < 3 ? 2 * mag
                      : raw / mag < 7 ? 5 * mag
                                      : 10 * mag;
  const double step = whole ? std::max(1.0, std::round(nice)) : nice;
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
  xt = nice_ticks(xa.lo, xa.hi, xa.log, xa.whole);
  yt = nice_ticks(ya.lo, ya.hi, ya.log, ya.whole);
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

}  // namespace

void draw_plot(painter& p, const panel& pn, box area, double fs) {
  plot_drawing d{p, pn, area, fs, p.cr, pn.x, pn.y};
  d.lay_out();
  d.place_legend();
  d.draw_axes();
  d.draw_data();
  if (!d.named.empty()) d.draw_legend();
}

}  // namespace hs::fig::detail
