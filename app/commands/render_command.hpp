// `hashscope render SCENARIO`: runs a scenario and renders each captured view to PNG headless,
// with the numbers behind it (CSV/JSON) and a metadata file (backend, GPU, parameters, seed).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "app/commands/cli.hpp"
#include "app/scenario/scenario.hpp"
#include "app/ui/render_paper.hpp"

namespace hs::app {

struct rendered_figure {
  std::string png;
  std::string view;                  ///< the view's scenario name
  int capture = 0;                   ///< capture number in the scenario
  std::array<float, 4> view_rect{};  ///< x, y, w, h of the view inside the PNG
  double load = 0;                   ///< live load factor when captured
};

struct render_result {
  std::string dir;
  std::string metadata;
  std::vector<rendered_figure> figures;
  std::vector<std::string> data_files;
};

/// @brief Renders the scenario into `out_dir` (created). `choice`, `capacity` override the file.
render_result render_scenario(const scenario& sc, const std::string& out_dir, backend_choice choice,
                              std::uint64_t capacity, int width, int height, float font_size,
                              const render_style& style = {});

int run_render(const cli_options& o);

}  // namespace hs::app
