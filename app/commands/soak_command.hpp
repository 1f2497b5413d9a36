// `hashscope soak`: runs the soak (core/soak) and prints its PASS or FAIL line.
#pragma once
#include "app/commands/cli.hpp"

namespace hs::app {
/// @brief Exit code 0 on PASS, 3 on FAIL (2 stays the code of a user's mistake).
int run_soak_command(const cli_options& o);
}  // namespace hs::app
