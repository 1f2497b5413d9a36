// Figures for papers and slides, drawn once and written as PNG, SVG and PDF through cairo: a page
// of one or more panels, each a plot (axes with ticks, labels and units, bars, lines or points,
// a legend inside), an image with its colour bar, or a diagram (lines of text or code and rows
// of cells), and a caption line under them. White, no
// widgets, fonts in points at the page's DPI. Text stays text in the SVG and the PDF.
// The grammar every plot follows: each measured point is a marker (a line only joins the points
// of its own series, and its legend entry shows the line and the marker); a point measured more
// than once carries its range as an error bar; text that does not fit its room is set on two
// lines or smaller, never past the page (layout_text tells where each piece went).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "visualizers/colormap.hpp"

namespace hs::fig {

/// @brief The page: its size in inches, the resolution of the PNG, the text size in points.
struct page {
  double width_in = 3.5, height_in = 2.4;
  double dpi = 300;
  double font_pt = 8;
};

/// @brief "3.5x2.4in", "9x6cm", "1600x1000px" (pixels at the page's DPI): width and height in
/// inches.
std::optional<std::pair<double, double>> parse_page_size(std::string_view text, double dpi);

struct rgb {
  double r = 0, g = 0, b = 0;
};
/// @brief The series colours of the window's plots (Okabe-Ito), by index.
rgb series_rgb(int i);

struct axis {
  std::string label;  ///< with its unit: "load factor", "operations/s"
  double lo = 0, hi = 1;
  bool log = false;
  bool fit = true;     ///< lo/hi from the data (with log: positive values only)
  bool whole = false;  ///< ticks on whole numbers only: a count such as GPUs has no 1.5
};

struct series {
  enum kind_t : std::uint8_t { line, points, bars } kind = line;
  std::string name;  ///< in the legend (empty: none)
  std::vector<double> x, y;
  /// Optional, one per point: the least and greatest of its repeats (y is their median), drawn
  /// as an error bar.
  std::vector<double> lo, hi;
  double bar_width = 1;  ///< bars: in x units, centred on x
  int color = 0;         ///< series_rgb index; -1: black
  double width = 1.0;    ///< lines: in points
};

/// @brief An image panel: RGBA pixels, the x range they cover, and a colour bar of `cmap`.
struct image_panel {
  std::vector<std::uint8_t> rgba;
  int width = 0, height = 0;
  std::string x_label;    ///< what the pixels run over, with its range: "slots 0-4,194,304"
  std::string bar_label;  ///< the colour bar's meaning
  std::optional<vis::colormap> cmap;
};

/// @brief One cell of a diagram row: its fill, the text in it (where it fits; a number too wide
/// shows its last digits), a label above it, and a heavy outline where it is marked.
struct diagram_cell {
  rgb fill{1, 1, 1};
  std::string text, head;  ///< a number too wide for its cell shows its last digits
  std::optional<rgb> outline;
};

/// @brief One line of a diagram: text (monospace for code, with a line number in a gutter), or a
/// row of cells; a line may be marked by a background colour across it.
struct diagram_line {
  std::string text;
  std::string gutter;  ///< a line number set right-aligned before monospace text
  bool mono = false;
  std::optional<rgb> mark;
  std::vector<diagram_cell> cells;  ///< non-empty: a row of cells, not text
};

/// @brief A panel of lines set top to bottom (a code listing with its decisions, a warp's lanes),
/// all set smaller together until they fit the panel.
struct diagram_panel {
  std::vector<diagram_line> lines;
};

struct panel {
  std::string title;
  axis x, y;
  std::vector<series> data;
  bool legend = true;
  std::optional<image_panel> image;      ///< an image panel instead of a plot
  std::optional<diagram_panel> diagram;  ///< a diagram instead of a plot
};

struct figure {
  std::vector<panel> panels;  ///< side by side
  std::string caption;        ///< under the panels (a scenario's `say`), may be empty
  /// @brief Room a diagram needs at the page's text size, in lines and in monospace columns (a
  /// code listing): the page is as tall as its lines and at least as wide as its columns
  /// (fit_page); 0: the page as given.
  int text_lines = 0, text_columns = 0;
};

/// @brief `p` fitted to what `f` asks for (figure::text_lines, text_columns).
page fit_page(const figure& f, page p);

/// @brief A piece of text as laid out on the page, in points from the top left.
struct text_box {
  std::string text;
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
/// @brief Every piece of text of the figure as write_figure sets it on a page of `p`'s size.
std::vector<text_box> layout_text(const figure& f, const page& p);

/// @brief A measured point's marker as drawn (centre and radius, in points from the top left).
struct marker_spot {
  std::string series;
  double x = 0, y = 0, r = 0;
};
/// @brief Every marker the figure's plots draw (legends excluded) on a page of `p`'s size.
std::vector<marker_spot> layout_markers(const figure& f, const page& p);

/// @brief Writes base.png, base.svg and base.pdf (each to a temporary name beside it first, then
/// flushed to disk and renamed into place by hs::commit_file, so a crash leaves the old file or the
/// new one, never a torn one); returns their paths. Throws hs::user_error for a page over 16,384
/// pixels a side or a folder that cannot be written.
std::vector<std::string> write_figure(const figure& f, const page& p, const std::string& base);

}  // namespace hs::fig
