// `hashscope`: the window; without a display, the default demo rendered headless.
#pragma once
#include "app/commands/cli.hpp"

namespace hs::app {
int run_window_command(const cli_options& o);
}
