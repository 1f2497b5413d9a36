// `hashscope bench SUITE`: runs a suite, prints its tables, writes CSV/JSON.
#pragma once
#include "app/commands/cli.hpp"
#include "core/bench/result_table.hpp"

namespace hs::app {
int run_bench(const cli_options& o);
/// @brief Prints the report and writes its CSV/JSON into --out (default out/bench), saying where.
void publish_report(const bench::report& r, const cli_options& o);
}  // namespace hs::app
