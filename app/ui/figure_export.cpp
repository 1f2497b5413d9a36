// File > Export figures: each view the window shows as a paper figure (PNG, SVG, PDF) with the
// numbers behind it, and the Numbers panel's rows, into a folder. A frame's action, since it
// samples the table afresh for the figures.
#include <algorithm>
#include <filesystem>

#include "app/session/gpu_fault_notice.hpp"
#include "app/ui/app_frame.hpp"
#include "app/ui/figure_numbers.hpp"
#include "app/ui/render_paper.hpp"
#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"
#include "visualizers/figure/figure.hpp"

namespace hs::app {

namespace fs = std::filesystem;

namespace {
// The views a window shows that have a paper figure: the common ones, the family's figures, and
// the compare figure in compare mode.
std::vector<std::string> shown_views(app_frame& frame) {
  if (frame.comparing()) return {"compare"};
  std::vector<std::string> v = {"heatmap", "histogram"};
  if (!frame.sess().throughput().empty()) v.push_back("throughput");
  if (!frame.sess().timeline().empty()) v.push_back("timeline");
  for (std::string_view name : frame.state().hooks().figures) v.emplace_back(name);
  return v;
}
}  // namespace

std::size_t app_frame::export_figures(const std::string& dir) {
  // A figure must show the table as it is: a table on a GPU that faulted cannot be read now.
  if (tables_lost()) throw user_error(gpu_lost_note());
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw user_error(dir + " is not a folder");
  const std::string caption = sess().status().caption;
  std::size_t written = 0;
  for (const std::string& v : shown_views(*this)) {
    const auto figure = paper_figure(*this, v, caption);
    if (!figure) continue;
    fig::page pg;
    pg.width_in *= double(std::max<std::size_t>(figure->panels.size(), 1));
    pg = fig::fit_page(*figure, pg);  // a code listing asks for room
    fig::write_figure(*figure, pg, (fs::path(dir) / ("hashscope-" + v)).string());
    write_file_atomically((fs::path(dir) / ("hashscope-" + v + ".csv")).string(),
                          figure_numbers(*this, v));
    ++written;
  }
  write_file_atomically((fs::path(dir) / "hashscope-numbers.csv").string(), numbers_csv(numbers()));
  return written;
}

}  // namespace hs::app
