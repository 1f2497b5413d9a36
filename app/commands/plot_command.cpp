#include "app/commands/plot_command.hpp"

#include <filesystem>
#include <iostream>

#include "app/plot/plot_figures.hpp"
#include "core/common/error.hpp"
#include "visualizers/figure/figure.hpp"

namespace hs::app {

namespace fs = std::filesystem;

int run_plot(const cli_options& o) {
  fig::page page;
  page.dpi = o.dpi;
  if (!o.page_size.empty()) {
    const auto in = fig::parse_page_size(o.page_size, o.dpi);
    if (!in) throw user_error("--size: '" + o.page_size + "' is not a page such as 3.5x2.4in");
    page.width_in = in->first, page.height_in = in->second;
  }
  const std::string out =
      o.out_dir.empty() ? (fs::path(o.scenario) / "figures").string() : o.out_dir;
  const auto files = plot_results(o.scenario, out, page, o.plot_series);
  if (files.empty()) {
    std::cout << "plot: the reports in " << o.scenario << " hold none of the figures' numbers\n";
    return 0;
  }
  std::cout << "plot: " << files.size() / 3 << " figures (PNG, SVG, PDF) in " << out << ":\n";
  for (std::size_t i = 0; i < files.size(); i += 3) std::cout << "  " << files[i] << "\n";
  return 0;
}

}  // namespace hs::app
