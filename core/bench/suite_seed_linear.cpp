// bench seed-linear: the Simple GPU Hash Table article's experiments on the H200, HashScope beside
// the seed's own algorithm.
//  1. 64M random keys inserted in 16 batches of 4M, 32M deleted in 8 batches; per-batch GPU times,
//     the total with allocation, copies and iteration, and std::unordered_map doing the same.
//  2. Capacity 2^27, 4M new keys per kernel until 124M are stored (load ~0.97), one row per kernel.
//  3. Probe-length statistics after every kernel of experiment 2 (the document's at 0.5 and 0.97).
#include <chrono>
#include <unordered_map>
#include <vector>

#include "core/bench/bench_keys.hpp"
#include "core/bench/roofline.hpp"
#include "core/bench/seed_reference.hpp"
#include "core/bench/suites.hpp"
#include "core/bench/timing.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/linear/linear_inspect.hpp"
#include "core/table/table.hpp"
#include "core/workload/key_stream.hpp"

namespace hs::bench::detail {

namespace {

constexpr std::uint64_t k_capacity = std::uint64_t{1} << 27;
constexpr std::uint64_t k_batch = std::uint64_t{1} << 22;  // 4,194,304 keys per kernel
using clock = std::chrono::steady_clock;

double ms_since(clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
}

std::unique_ptr<table> gpu_table(const bench_options& opt) {
  table_config cfg;
  cfg.backend = backend::gpu;
  cfg.capacity = k_capacity;
  cfg.hash = hash_kind::murmur3;  // the seed's hash
  cfg.linear.tuning = opt.linear;
  return make_table(cfg);
}

/// Random keys and values as the seed's test makes them (independent draws; duplicates possible).
void seed_style_keys(std::uint64_t n, std::vector<key_type>& keys,
                     std::vector<value_type>& values) {
  keys.resize(n);
  values.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    key_type k = workload::random_u32(2020, 1, i);
    keys[i] = is_reserved_key(k) ? k - 2 : k;
    values[i] = workload::random_u32(2020, 2, i) & 0x7fffffffu;
  }
}

void experiment1(report& r, const bench_options& opt, stream_view s) {
  const std::uint64_t n_insert = 16 * k_batch, n_erase = 8 * k_batch;
  std::vector<key_type> keys;
  std::vector<value_type> values;
  seed_style_keys(n_insert, keys, values);

  result_table tab;
  tab.name = "experiment1";
  tab.title =
      "Experiment 1: 64M random keys inserted in 16 batches of 4M, 32M erased in 8 batches (kernel "
      "times)";
  tab.columns = {"operation", "batch", "ms", "M keys/s"};
  const auto t0 = clock::now();
  double gpu_ms = 0;
  {
    auto t = gpu_table(opt);
    buffer<key_type> dk(memory_space::device, k_batch);
    buffer<value_type> dv(memory_space::device, k_batch);
    for (std::uint64_t b = 0; b < 16; ++b) {
      dk.upload(std::span<const key_type>(keys).subspan(b * k_batch, k_batch), s);
      dv.upload(std::span<const value_type>(values).subspan(b * k_batch, k_batch), s);
      const double ms = time_once(s, true, [&] { t->insert(dk.cspan(), dv.cspan(), {}, s); });
      gpu_ms += ms;
      tab.add({"insert", cell(double(b), "%.0f"), cell(ms, "%.3f"),
               cell(k_batch / (ms * 1e3), "%.1f")});
    }
    for (std::uint64_t b = 0; b < 8; ++b) {
      dk.upload(std::span<const key_type>(keys).subspan(b * k_batch, k_batch), s);
      const double ms = time_once(s, true, [&] { t->erase(dk.cspan(), {}, s); });
      gpu_ms += ms;
      tab.add(
          {"erase", cell(double(b), "%.0f"), cell(ms, "%.3f"), cell(k_batch / (ms * 1e3), "%.1f")});
    }
    // Iterate: every live pair back to the host, as the seed's test does.
    const table_stats st = t->stats(s);
    buffer<key_type> out_k(memory_space::device, st.live);
    buffer<value_type> out_v(memory_space::device, st.live);
    const std::uint64_t live = t->retrieve_all(out_k.span(), out_v.span(), s);
    const auto host_k = out_k.download(live, s);
    const auto host_v = out_v.download(live, s);
    if (st.failed_full || host_k.size() != live)
      throw gpu_error("bench seed-linear: experiment 1 lost keys");
    r.notes.push_back(
        strprintf("experiment 1: %s live keys retrieved after the deletes (random keys repeat "
                  "a little, as in the seed's test)",
                  format_count(live).c_str()));
  }  // the table is freed here, inside the total
  const double total_ms = ms_since(t0);
  r.tables.push_back(std::move(tab));
  r.notes.push_back(
      strprintf("experiment 1: GPU kernels %.1f ms in all; with allocation, copies, iteration and "
                "free %.1f ms (the seed on a GTX 1060: 271 ms and 984 ms)",
                gpu_ms, total_ms));
  if (opt.cpu_baseline) {
    const auto c0 = clock::now();
    {
      std::unordered_map<key_type, value_type> m;
      for (std::uint64_t i = 0; i < n_insert; ++i) m[keys[i]] = values[i];
      for (std::uint64_t i = 0; i < n_erase; ++i) m.erase(keys[i]);
    }
    r.notes.push_back(
        strprintf("experiment 1: std::unordered_map (one CPU thread, same keys, including its "
                  "destruction) %.0f ms (the seed's machine: 70691 ms)",
                  ms_since(c0)));
  }
}

probe_histogram histogram_of(const linear::slot_word* slots, stream_view s) {
  buffer<linear::detail::device_histogram> h(memory_space::device, 1);
  linear::detail::launch_probe_histogram(hash_kind::murmur3, probe_policy::linear, slots,
                                         k_capacity, h.data(), s);
  return to_probe_histogram(h.download(1, s)[0]);
}

void experiment2(report& r, const bench_options& opt, stream_view s, const roofline& rf) {
  const std::uint64_t batches = 31, n = batches * k_batch;  // 124M keys: load 0.97
  const key_set ks = unique_keys(memory_space::device, n, 7);
  auto t = gpu_table(opt);
  seed_reference_table seed(k_capacity);

  result_table tab;
  tab.name = "experiment2";
  tab.title =
      "Experiment 2: 4,194,304 new keys per kernel into 2^27 slots (the seed's table); load before "
      "each "
      "kernel; median of " +
      std::to_string(opt.reps) + " sweeps";
  tab.columns = {"load",     "HashScope ms", "HashScope G/s", "%CAS", "seed algorithm ms",
                 "seed G/s", "speed-up"};
  result_table probes;
  probes.name = "probe_lengths";
  probes.title = "Probe lengths (displacement from the home slot) over all stored keys";
  probes.columns = {"load", "table", "mean",  "max",
                    "p50",  "p99",   "p99.9", "seed document (GTX 1060)"};
  auto add_probe_rows = [&](double load, const char* doc) {
    inspect_request req;
    req.probe_histogram = true;
    inspect_result res;
    t->inspect(req, res, s);
    const probe_histogram seed_h = histogram_of(seed.slots(), s);
    for (const auto& [name, h] :
         {std::pair{"HashScope", res.histogram}, std::pair{"seed algorithm", seed_h}}) {
      auto q = [&](double p) {
        const quantile v = h.percentile(p);
        return cell(v.value, v.exact ? "%.0f" : "~%.0f");
      };
      probes.add({cell(load, "%.2f"), name, cell(h.mean(), "%.4f"), cell(double(h.max), "%.0f"),
                  q(0.5), q(0.99), q(0.999), doc});
    }
  };
  // Each kernel inserts new keys, so a row cannot be repeated alone: the whole sweep is repeated
  // on cleared tables, alternating which table goes first, and each row reports its median.
  std::vector<std::vector<double>> ours(batches), theirs(batches);
  for (int rep = 0; rep < opt.reps; ++rep) {
    t->clear(s);
    seed.clear(s);
    const bool last = rep + 1 == opt.reps;
    for (std::uint64_t b = 0; b < batches; ++b) {
      const auto k = ks.keys.cspan().subspan(b * k_batch, k_batch);
      const auto v = ks.values.cspan().subspan(b * k_batch, k_batch);
      auto run_ours = [&] {
        ours[b].push_back(time_once(s, true, [&] { t->insert(k, v, {}, s); }));
      };
      auto run_seed = [&] {
        theirs[b].push_back(
            time_once(s, true, [&] { seed.insert(k.data(), v.data(), k_batch, s); }));
      };
      if (rep % 2 == 0)
        run_ours(), run_seed();
      else
        run_seed(), run_ours();
      // Probe lengths after every kernel of the last sweep (a curve, not two points); the seed
      // document gives its own at 0.5 and at the end.
      if (last)
        add_probe_rows(double((b + 1) * k_batch) / k_capacity, b + 1 == 16 ? "mean 0.4774, max 60"
                                                               : b + 1 == batches
                                                                   ? "mean 10.1757, max 6474"
                                                                   : "");
    }
  }
  for (std::uint64_t b = 0; b < batches; ++b) {
    const double load = double(b * k_batch) / k_capacity;
    const double a = median(ours[b]), z = median(theirs[b]);
    const double rate = k_batch / (a * 1e-3);
    tab.add({cell(load, "%.2f"), cell(a, "%.3f"), cell(rate / 1e9, "%.2f"),
             cell(100.0 * rate / rf.random_cas_per_s, "%.0f%%"), cell(z, "%.3f"),
             cell(k_batch / (z * 1e-3) / 1e9, "%.2f"), cell(z / a, "%.2fx")});
  }
  const table_stats st = t->stats(s);
  if (st.live != n || st.failed_full) throw gpu_error("bench seed-linear: experiment 2 lost keys");
  r.tables.push_back(std::move(tab));
  r.tables.push_back(std::move(probes));
}

}  // namespace

report seed_linear_suite(const bench_options& opt) {
  report r = new_report("seed-linear", opt);
  owned_stream stream(true);
  const roofline rf = measure_for(r, opt, stream.view());
  r.metadata.emplace_back(
      "table", strprintf("linear, 2^27 slots, murmur3, %s", describe(opt.linear).c_str()));
  experiment1(r, opt, stream.view());
  experiment2(r, opt, stream.view(), rf);
  return r;
}

}  // namespace hs::bench::detail
