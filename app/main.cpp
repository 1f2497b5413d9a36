// hashscope: the window, `render` and `bench` commands. Errors a user can fix end with a message
// and exit code 2; internal failures with exit code 1.
#include <iostream>
#include <string>
#include <vector>

#include "app/commands/bench_command.hpp"
#include "app/commands/cli.hpp"
#include "app/commands/plot_command.hpp"
#include "app/commands/render_command.hpp"
#include "app/commands/soak_command.hpp"
#include "app/commands/window_command.hpp"
#include "core/common/error.hpp"

int main(int argc, char** argv) {
  using namespace hs;
  try {
    const app::cli_options o = app::parse_cli(std::vector<std::string>(argv + 1, argv + argc));
    switch (o.command) {
      case app::command_kind::help: std::cout << o.help_text; return 0;
      case app::command_kind::bench: return app::run_bench(o);
      case app::command_kind::render: return app::run_render(o);
      case app::command_kind::plot: return app::run_plot(o);
      case app::command_kind::soak: return app::run_soak_command(o);
      case app::command_kind::window: return app::run_window_command(o);
    }
  } catch (const user_error& e) {
    std::cerr << "hashscope: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hashscope: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
