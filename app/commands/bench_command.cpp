// Resolves the backend, runs the suite and writes its files.
#include "app/commands/bench_command.hpp"

#include <filesystem>

#include "app/plot/plot_figures.hpp"

#include <iostream>

#include "app/commands/bench_live.hpp"
#include "app/commands/bench_mixed.hpp"
#include "app/commands/rank_launch.hpp"
#include "core/bench/suites.hpp"
#include "core/common/device.hpp"
#include "core/common/error.hpp"
#include "core/shard/rank_join.hpp"

namespace hs::app {

int run_bench(const cli_options& o) {
  // Rank variables mean a join for bench sharded only: an MPI job's other suites run as they are.
  const auto join = o.suite == "sharded" ? rank_join_from_environment(gpu_count()) : std::nullopt;
  if (o.processes) {
    if (o.suite != "sharded")
      throw user_error("--processes is an option of bench sharded, not bench " + o.suite);
    if (join)
      throw user_error("--processes starts the ranks itself, but this process is already rank " +
                       std::to_string(join->rank) + " (" + join->source + " is set)");
    if (static_cast<int>(o.processes) > gpu_count())
      throw user_error("--processes " + std::to_string(o.processes) +
                       " runs one process a GPU; this machine has " + std::to_string(gpu_count()) +
                       " GPUs");
    return launch_ranks(o.processes);
  }
  if (o.suite == "live") return run_live_bench(o);    // needs the app's frame, not only a table
  if (o.suite == "mixed") return run_mixed_bench(o);  // sessions, as the window runs them
  if (o.live_minutes > 0) throw user_error("--minutes is an option of bench live only");
  bench::bench_options opt = o.bench;
  std::string note;
  opt.backend = resolve_backend(o.backend, &note);
  if (o.capacity) opt.capacity = *o.capacity;
  if (o.gpus) opt.gpus = *o.gpus;
  if (o.hash) opt.hash = *o.hash;
  std::cout << (opt.backend == backend::gpu ? "GPU backend: " : "CPU model backend: ") << note
            << "\n"
            << std::flush;
  bench::report r = bench::run_suite(o.suite, opt);
  if (join && join->rank != 0) return 0;             // rank 0 of a table across processes reports
  r.metadata.emplace_back("hashscope", HS_VERSION);  // plot names it if it cannot read the report
  publish_report(r, o);
  return 0;
}

void publish_report(const bench::report& r, const cli_options& o) {
  r.print(std::cout);
  const std::string dir = o.out_dir.empty() ? "out/bench" : o.out_dir;
  std::cout << "\nwrote:";
  for (const auto& f : r.write(dir)) std::cout << " " << f;
  std::cout << "\n";
  if (o.figures) {  // the figures of every report in the folder, this one's included
    fig::page page;
    page.dpi = o.dpi;
    const auto files = plot_results(dir, (std::filesystem::path(dir) / "figures").string(), page);
    std::cout << "figures:";
    for (std::size_t i = 0; i < files.size(); i += 3) std::cout << " " << files[i];
    std::cout << "\n";
  }
}

}  // namespace hs::app
