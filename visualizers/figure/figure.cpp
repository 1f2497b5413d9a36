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
