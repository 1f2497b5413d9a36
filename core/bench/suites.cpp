// The suite registry and the metadata stamped on every report.
#include "core/bench/suites.hpp"

#include <chrono>
#include <ctime>

#include "core/bench/roofline.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::bench {

const std::vector<suite_info>& suites() {
  static const std::vector<suite_info> list = {
      {"roofline",
       "random 8- and 16-byte reads, 128-byte lines, 64- and 128-bit CAS and sequential copy on "
       "a 2 GiB table",
       true},
      {"linear",
       "bulk insert / find-hit / find-miss / erase at load 0.5, 0.8, 0.9, 0.95 on 2^27 slots",
       false},
      {"seed-linear",
       "the Simple GPU Hash Table article's experiments: 64M inserts + 32M deletes, the "
       "4M-per-kernel load sweep, probe "
       "lengths",
       true},
      {"locality",
       "bulk insert to load 0.5 with keys in random order, grouped by table region, sorted by home "
       "slot",
       true},
      {"linear-churn",
       "a table kept at load 0.5 through erase/insert cycles: by value, tombstones, tombstones + "
       "rehash; rebuild rates",
       false},
      {"slab",
       "the SlabHash paper's experiments: build/search vs memory utilization and vs n, incremental "
       "batches, "
       "concurrent mixes, SlabAlloc",
       false},
      {"slab-tile",
       "the slab table's build and search with 2, 4, 8, 16 and 32 threads sharing a slab", true},
      {"state",
       "what Back and table files cost: each family's state kept, restored, saved to a file and "
       "opened, beside a plain copy to the host",
       false},
      {"sharded",
       "one linear table over 1, 2, 4, ... GPUs through NCCL: weak (2^27 slots a GPU) and strong "
       "(2^28 in all) scaling of inserts, hits, misses, erases and a mix, 32- and 64-bit keys, "
       "with each batch's phases, beside NCCL's own all-to-all of the same bytes, and what one "
       "batch costs by its size; --gpus N, --only weak,strong,batches,32,64",
       true},
      {"hive",
       "the Hive paper's experiments: bulk insert to 0.9-0.99 by size, lookups by hit ratio, mixed "
       "workloads, hash and bucket policies, resize rates, insert steps",
       true},
  };
  return list;
}

report run_suite(std::string_view name, const bench_options& opt) {
  for (const suite_info& s : suites()) {
    if (s.name != name) continue;
    const bool filters = name == "hive" || name == "slab" || name == "linear" ||
                         name == "linear-churn" || name == "state" || name == "sharded";
    if (!opt.only.empty() && !filters)
      throw user_error(
          "bench " + std::string(name) +
          " runs as a whole: --only is for hive, slab, linear, linear-churn, state and sharded");
    if (opt.backend == backend::gpu || s.needs_gpu) {
      std::string why;
      if (!query_gpu(&why))
        throw user_error("bench " + std::string(name) + " needs a CUDA device: " + why +
                         (s.needs_gpu ? "" : " (or run it on the CPU model with --backend cpu)"));
    }
    if (name == "roofline") return detail::roofline_suite(opt);
    if (name == "linear") return detail::linear_suite(opt);
    if (name == "locality") return detail::locality_suite(opt);
    if (name == "linear-churn") return detail::linear_churn_suite(opt);
    if (name == "slab") return detail::slab_suite(opt);
    if (name == "slab-tile") return detail::slab_tile_suite(opt);
    if (name == "hive") return detail::hive_suite(opt);
    if (name == "state") return detail::state_suite(opt);
    if (name == "sharded") return detail::sharded_suite(opt);
    return detail::seed_linear_suite(opt);
  }
  std::string known;
  for (const suite_info& s : suites()) known += (known.empty() ? "" : ", ") + std::string(s.name);
  throw user_error("unknown bench suite '" + std::string(name) + "' (known: " + known + ")");
}

namespace detail {
report new_report(std::string suite, const bench_options& opt) {
  report r;
  r.suite = std::move(suite);
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  r.metadata.emplace_back("date", date);
  r.metadata.emplace_back("backend", backend_label(opt.backend));
  if (auto g = query_gpu(); g && opt.backend == backend::gpu)
    r.metadata.emplace_back(
        "gpu", strprintf("%s, %d SMs, %s memory, sm_%d%d", g->name.c_str(), g->sm_count,
                         format_bytes(g->total_bytes).c_str(), g->compute_major, g->compute_minor));
  r.metadata.emplace_back("timing",
                          strprintf("median of %d runs after %d warm-up (%s)", opt.reps, opt.warmup,
                                    opt.backend == backend::gpu ? "CUDA events" : "host clock"));
  return r;
}
roofline measure_for(report& r, const bench_options& opt, stream_view s) {
  const roofline rf = measure_roofline(k_roofline_bytes, opt.reps, s);
  r.metadata.emplace_back("roofline",
                          strprintf("random read %.2f G/s, random CAS %.2f G/s, copy %.2f TB/s",
                                    rf.random_reads_per_s / 1e9, rf.random_cas_per_s / 1e9,
                                    rf.copy_bytes_per_s / 1e12));
  return rf;
}
}  // namespace detail

}  // namespace hs::bench
