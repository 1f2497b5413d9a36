// `hashscope plot RESULTS_DIR`: the figures of plot/plot_figures.hpp written from the command
// line's page size, resolution, output folder and --series files.
#pragma once
#include "app/commands/cli.hpp"

namespace hs::app {

int run_plot(const cli_options& o);

}  // namespace hs::app
