// bench roofline: the hardware ceilings the table suites are read against.
#include "core/bench/nccl_rate.hpp"
#include "core/bench/roofline.hpp"
#include "core/bench/suites.hpp"
#include "core/common/format.hpp"
#include "core/common/memory.hpp"

namespace hs::bench::detail {

report roofline_suite(const bench_options& opt) {
  report r = new_report("roofline", opt);
  owned_stream stream(true);
  const roofline rf = measure_roofline(k_roofline_bytes, opt.reps, stream.view());
  result_table t;
  t.name = "ceilings";
  t.title =
      "Random-access roofline (" + format_bytes(rf.table_bytes) + " table, far larger than L2)";
  t.columns = {"access", "rate", "unit"};
  t.add({"random 8-byte read", cell(rf.random_reads_per_s / 1e9, "%.2f"), "G/s"});
  t.add({"random 64-bit CAS", cell(rf.random_cas_per_s / 1e9, "%.2f"), "G/s"});
  t.add({"random 16-byte read", cell(rf.random_reads16_per_s / 1e9, "%.2f"), "G/s"});
  t.add({"random 128-byte line (8 threads a line)", cell(rf.random_lines_per_s / 1e9, "%.2f"),
         "G lines/s"});
  t.add({"random 16-byte CAS",
         rf.random_cas16_per_s > 0 ? cell(rf.random_cas16_per_s / 1e9, "%.2f")
                                   : cell("n/a (before sm_90)"),
         "G/s"});
  t.add({"sequential copy (read + write)", cell(rf.copy_bytes_per_s / 1e12, "%.3f"), "TB/s"});
  t.add({"random 8-byte read, " + format_bytes(rf.l2_table_bytes) + " (in L2)",
         cell(rf.l2_reads_per_s / 1e9, "%.2f"), "G/s"});
  t.add({"random 64-bit CAS, " + format_bytes(rf.l2_table_bytes) + " (in L2)",
         cell(rf.l2_cas_per_s / 1e9, "%.2f"), "G/s"});
  // --gpus N: NCCL's all-to-all between N GPUs, the ceiling of a sharded table's exchange.
  for (const std::uint64_t bytes : {std::uint64_t{1} << 30, std::uint64_t{1} << 28})
    if (opt.gpus > 1) {
      const double ms = nccl_all_to_all_ms(opt.gpus, bytes, opt.reps);
      t.add({"NCCL all-to-all, " + format_bytes(bytes) + " a GPU over " + std::to_string(opt.gpus) +
                 " GPUs (algorithm bandwidth)",
             cell(double(bytes) / (ms * 1e6), "%.1f"), "GB/s"});
    }
  r.tables.push_back(std::move(t));
  return r;
}

}  // namespace hs::bench::detail
