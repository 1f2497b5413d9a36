// `hashscope bench SUITE`: named benchmark suites on the real tables.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/bench/result_table.hpp"
#include "core/bench/roofline.hpp"
#include "core/common/device.hpp"
#include "core/common/hash.hpp"
#include "core/shard/rank_join.hpp"
#include "core/table/table.hpp"

namespace hs::bench {

struct bench_options {
  hs::backend backend = hs::backend::gpu;
  std::uint64_t capacity = 0;  ///< 0: the suite's default (2^27 slots on the GPU)
  int reps = 5;  ///< timed runs per measurement (the median is reported, with min and max)
  std::vector<double> loads;  ///< --loads: the bulk tables' loads, or the slab's Fig. 4
                              ///< utilizations (empty: default)
  int warmup = 1;             ///< untimed runs before them
  linear_tuning linear;       ///< execution choices of the linear table
  hash_kind hash = hash_kind::murmur3;
  probe_policy probe = probe_policy::linear;  ///< the linear suites' probing (open addressing)
  key_width width = key_width::bits32;        ///< bench linear: the keys and values' width
  bool statuses = false;                      ///< also write a status per operation in timed runs
  bool cpu_baseline = true;  ///< seed-linear: run std::unordered_map like the seed did
  int slab_tile = 0;         ///< threads sharing a slab in the slab suites (0: the table's default)
  int hive_slots = 0;        ///< slots per bucket in the hive suite (0: the table's default)
  int hive_tile = 0;         ///< threads per operation in the hive suite (0: the table's default)
  std::string hive_hashes;   ///< hash functions in the hive suite (empty: the table's default)
  auto_on_off hive_bulk =
      auto_on_off::automatic;  ///< the hive table's bulk inserts (hive_options::bulk)
  /// @brief --gpus: bench sharded's most GPUs (0: every GPU), bench roofline's NCCL all-to-all.
  std::uint32_t gpus = 0;
  /// @brief --chunk: bench sharded's keys a GPU a chunk (0: the table's default).
  std::uint64_t chunk_keys = 0;
  std::vector<std::string>
      only;  ///< --only: the tables to run (empty: all; hive, slab, linear, linear-churn)
};

struct suite_info {
  std::string_view name;
  std::string_view summary;
  bool needs_gpu;
};

const std::vector<suite_info>& suites();
/// @brief Runs a suite; throws hs::user_error for an unknown suite or a missing GPU.
report run_suite(std::string_view name, const bench_options& opt);

namespace detail {
report roofline_suite(const bench_options& opt);
report linear_suite(const bench_options& opt);
report seed_linear_suite(const bench_options& opt);
report locality_suite(const bench_options& opt);
report linear_churn_suite(const bench_options& opt);
report slab_suite(const bench_options& opt);
report slab_tile_suite(const bench_options& opt);
report hive_suite(const bench_options& opt);
report state_suite(const bench_options& opt);
report sharded_suite(const bench_options& opt);
/// bench sharded as one rank of a table across processes (suite_sharded_ranks.cpp).
report sharded_ranks_suite(const rank_join& join, const bench_options& opt);
/// A report for the suite, with the metadata every report starts with (date, backend, GPU, timing).
report new_report(std::string suite, const bench_options& opt);
/// Measures the roofline (on the GPU) and records it in the report's metadata.
roofline measure_for(report& r, const bench_options& opt, stream_view s);
}  // namespace detail

}  // namespace hs::bench
