// `hashscope bench SUITE`: runs a suite, prints its tables, writes CSV/JSON.
#pragma once
#include "app/cli.hpp"

namespace hs::app {
int run_bench(const cli_options& o);
}
