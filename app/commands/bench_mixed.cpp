// bench mixed: what a user of the window sees when the families run mixed work. Each case is a
// session (the window's pipeline: generation, the table's batches with statuses, the status
// counts, the family's per-batch counters) on a table filled to a load, then warm-up batches and
// measured batches of one mix. Its rates are the batches' own (CUDA events round each batch,
// medians) and the session's (operations over the wall time of the measured batches). A second
// table sets the session's insert batches (statuses written, as compare mode fills) beside one
// bulk insert without statuses of the same keys, as `bench hive` fills.
#include "app/commands/bench_mixed.hpp"

#include <algorithm>
#include <iostream>

#include "app/commands/bench_command.hpp"
#include "app/families/family_hooks.hpp"
#include "app/session/session.hpp"
#include "core/bench/bench_keys.hpp"
#include "core/bench/result_table.hpp"
#include "core/bench/suites.hpp"
#include "core/bench/table_filter.hpp"
#include "core/bench/timing.hpp"
#include "core/common/device.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/common/stream.hpp"
#include "core/table/table.hpp"
#include "core/workload/workload.hpp"

namespace hs::app {

namespace {

struct mix_case {
  const char* table;  ///< the report's table (and CSV) of the mix
  const char* name;   ///< as the rows and the figure name it
  workload::op_mix mix;
};

// The window's default mix, and the Hive paper's two mixes (insert:lookup:delete, every lookup of
// a stored key).
const mix_case k_mixes[] = {
    {"window-mix", "window 0.2/0.5/0.1/0.2", {0.2, 0.5, 0.1, 0.2}},
    {"paper-mix-5-3-2", "0.5:0.3:0.2", {0.5, 0.3, 0.0, 0.2}},
    {"paper-mix-5-4-1", "0.5:0.4:0.1", {0.5, 0.4, 0.0, 0.1}},
};
constexpr double k_loads[] = {0.3, 0.5, 0.7};

struct scale {
  std::uint64_t capacity, batch;
  int warmup, measured;
  std::uint32_t devices = 1;  ///< --gpus: one table over these, at the capacity and batch a device
};

scale scale_for(const cli_options& o, backend b) {
  scale s = b == backend::gpu ? scale{std::uint64_t{1} << 27, std::uint64_t{1} << 20, 5, 20}
                              : scale{std::uint64_t{1} << 16, std::uint64_t{1} << 12, 1, 4};
  if (o.capacity) s.capacity = *o.capacity;
  s.devices = devices_for(o, b);  // weak scaling: a device's share stays the one-device table's
  s.capacity *= s.devices;
  s.batch *= s.devices;
  return s;
}

struct family_case {
  family f;
  const char* name;
  bool instrumented;  ///< as the window runs it (the family's prepare), or with the hive's off
  key_width width = key_width::bits32;
  /// Whether the fill table runs it: the bulk fill beside the session's draws bench_keys' 32-bit
  /// keys, so the 64-bit case is left out.
  bool filled = true;
};

session_config config_for(const family_case& fc, backend b, const scale& sc) {
  session_config c;
  c.table.family = fc.f;
  c.table.backend = b;
  c.table.capacity = sc.capacity;
  c.table.devices = sc.devices;
  if (const auto prepare = hooks_of(fc.f).prepare) prepare(c.table);  // as the window runs it
  if (!fc.instrumented) c.table.hive.instrument = false;
  c.table.width = fc.width;
  // A slab table in unique mode keeps every erase until a FLUSH; the session compacts it as
  // `bench live` does (maintain rehash=0.25), or its lists grow without end under churn.
  if (fc.f == family::slab) c.maintenance.rehash_above = 0.25;
  c.workload.batch_size = sc.batch;
  c.workload.keys.dist = workload::distribution::uniform_unique;
  c.workload.keys.seed = 7;
  return c;
}

void run_or_throw(session& s, const char* what) {
  s.wait_idle();
  const session_status st = s.status();
  if (st.error) throw gpu_error(std::string(what) + ": " + st.note);
}

struct batch_rates {
  double median = 0, slowest = 0, fastest = 0, wall = 0;  // G ops/s
  double load_before = 0, load_after = 0;
};

// The rates of points [from, end): each batch's own, and the session's over their wall time.
batch_rates rates_of_points(const std::vector<batch_point>& p, std::size_t from) {
  batch_rates r;
  if (from >= p.size()) return r;
  std::vector<double> v;
  std::uint64_t ops = 0;
  for (std::size_t i = from; i < p.size(); ++i) v.push_back(p[i].ops_per_s / 1e9), ops += p[i].ops;
  r.median = bench::median(v);
  r.slowest = *std::min_element(v.begin(), v.end());
  r.fastest = *std::max_element(v.begin(), v.end());
  const double t0 = from > 0 ? p[from - 1].time_s : 0.0;
  const double seconds = p.back().time_s - t0;
  r.wall = seconds > 0 ? static_cast<double>(ops) / seconds / 1e9 : 0;
  r.load_before = p[from].load;
  r.load_after = p.back().load;
  return r;
}

// One row of the mixed table: a session filled to `load`, then the warm-up and measured batches.
batch_rates run_mixed_case(const family_case& fc, backend b, const scale& sc, const mix_case& m,
                           bool repeats, double load) {
  session_config cfg = config_for(fc, b, sc);
  if (repeats) {  // bench live's workload: keys from 1.5x the fill, so inserts replace some
    cfg.workload.keys.dist = workload::distribution::uniform_dup;
    cfg.workload.keys.universe =
        std::max<std::uint64_t>(1, static_cast<std::uint64_t>(1.5 * load * double(sc.capacity)));
  }
  cfg.workload.mix = m.mix;
  auto s = make_session(cfg);
  s->fill_to(load);
  run_or_throw(*s, "fill");
  const std::size_t before = s->throughput().size();
  script_step run;
  run.kind = script_step::run;
  run.batches = static_cast<std::uint64_t>(sc.warmup + sc.measured);
  s->queue({run});
  run_or_throw(*s, "mixed batches");
  return rates_of_points(s->throughput(), before + static_cast<std::size_t>(sc.warmup));
}

// One mix: a row per family case, keys and load.
bench::result_table mixed_table(const mix_case& m, const std::vector<family_case>& fams, backend b,
                                const scale& sc, const std::vector<double>& loads) {
  bench::result_table t{
      m.table,
      std::string("Mixed batches with statuses, insert/find-hit/find-miss/erase ") + m.name +
          ", run by the session (G ops/s)",
      {"table", "mix", "keys", "instrumentation", "load", "load after", "G ops/s", "G ops/s min",
       "G ops/s max", "session G ops/s", "series"},
      {}};
  for (const family_case& fc : fams)
    for (const bool repeats : {true, false})
      for (const double load : loads) {
        const batch_rates r = run_mixed_case(fc, b, sc, m, repeats, load);
        const std::string keys = repeats ? "repeats" : "unique";
        const std::string instr = fc.f != family::hive ? "-" : fc.instrumented ? "on" : "off";
        std::string series = std::string(fc.name) + ", " + keys;
        if (fc.f == family::hive) series += fc.instrumented ? ", instrumented" : ", plain";
        t.add({fc.name, m.name, keys, instr, bench::cell(load, "%.2f"),
               bench::cell(r.load_after, "%.3f"), bench::cell(r.median, "%.3f"),
               bench::cell(r.slowest, "%.3f"), bench::cell(r.fastest, "%.3f"),
               bench::cell(r.wall, "%.3f"), series});
        std::cout << "  " << fc.name << " " << m.name << " " << keys << " " << instr << " load "
                  << load << ": " << strprintf("%.2f", r.median) << " G ops/s\n"
                  << std::flush;
      }
  return t;
}

// The bulk way into an empty table (no statuses: the hive's grouped rounds where they apply), the
// same keys the session's fill would take: the first n of the uniform insert stream.
bench::timing bulk_fill(family f, backend b, const scale& sc, std::uint64_t from,
                        std::uint64_t to) {
  session_config cfg = config_for({f, "", true}, b, sc);
  auto t = make_table(cfg.table);
  const bool gpu = b == backend::gpu;
  const memory_space space = gpu ? memory_space::device : memory_space::host;
  const bench::key_set keys = bench::unique_keys(space, to, cfg.workload.keys.seed);
  owned_stream stream(gpu);
  const stream_view s = stream.view();
  const auto setup = [&] {
    t->clear(s);
    if (from) t->insert(keys.keys.cspan().first(from), keys.values.cspan().first(from), {}, s);
  };
  const auto work = [&] {
    t->insert(keys.keys.cspan().subspan(from, to - from),
              keys.values.cspan().subspan(from, to - from), {}, s);
  };
  return bench::measure(s, gpu, 1, 3, setup, work);
}

bench::result_table fill_table(const std::vector<family_case>& fams, backend b, const scale& sc) {
  bench::result_table t{
      "fill",
      "Fills of " + format_count(sc.capacity) + " slots: the session's insert batches of " +
          format_count(sc.batch) +
          " with statuses (the batches' median) against one insert "
          "without statuses from the load before (median of 3, G keys/s)",
      {"table", "from load", "to load", "session G keys/s", "bulk G keys/s", "session / bulk"},
      {}};
  for (const family_case& fc : fams) {
    if (!fc.instrumented && fc.f == family::hive) continue;  // fills: as the window runs them
    if (!fc.filled) continue;
    auto s = make_session(config_for(fc, b, sc));
    double from = 0;
    for (const double to : {0.5, 0.9}) {
      const std::size_t first = s->throughput().size();
      s->fill_to(to);
      run_or_throw(*s, "fill");
      const batch_rates r = rates_of_points(s->throughput(), first);
      const auto keys = [&](double l) {
        return static_cast<std::uint64_t>(l * double(sc.capacity));
      };
      const bench::timing bulk = bulk_fill(fc.f, b, sc, keys(from), keys(to));
      const double bulk_rate = double(keys(to) - keys(from)) / (bulk.median_ms * 1e-3) / 1e9;
      t.add({fc.name, bench::cell(from, "%.2f"), bench::cell(to, "%.2f"),
             bench::cell(r.median, "%.2f"), bench::cell(bulk_rate, "%.2f"),
             bench::cell(r.median / bulk_rate, "%.2f")});
      std::cout << "  " << fc.name << " fill " << from << " -> " << to << ": session "
                << strprintf("%.2f", r.median) << ", bulk " << strprintf("%.2f", bulk_rate)
                << " G keys/s\n"
                << std::flush;
      from = to;
    }
  }
  return t;
}

}  // namespace

int run_mixed_bench(const cli_options& o) {
  std::string note;
  const backend b = resolve_backend(o.backend, &note);
  std::cout << (b == backend::gpu ? "GPU backend: " : "CPU model backend: ") << note << "\n"
            << std::flush;
  const scale sc = scale_for(o, b);
  const bench::table_filter only("mixed", o.bench.only,
                                 {"linear", "linear-64", "slab", "hive", "fill"});
  std::vector<family_case> fams;
  for (const family_case& fc :
       {family_case{family::linear, "linear", true},
        family_case{family::linear, "linear-64", true, key_width::bits64, false},
        family_case{family::slab, "slab", true}, family_case{family::hive, "hive", true},
        family_case{family::hive, "hive", false}})
    if (only.wants(fc.name)) fams.push_back(fc);
  bench::bench_options bo = o.bench;
  bo.backend = b;
  bench::report rep = bench::detail::new_report("mixed", bo);
  // Each point is a median of batches, not of repeated runs: say so where `plot` looks.
  for (auto& [key, value] : rep.metadata)
    if (key == "timing")
      value = strprintf(
          "%s slots filled to each load, batches of %s, each point the median of %d "
          "batches after %d of warm-up",
          format_count(sc.capacity).c_str(), format_count(sc.batch).c_str(), sc.measured,
          sc.warmup);
  rep.metadata.emplace_back("capacity", format_count(sc.capacity));
  rep.metadata.emplace_back("devices", std::to_string(sc.devices));
  rep.metadata.emplace_back("batch", format_count(sc.batch));
  rep.metadata.emplace_back(
      "workload",
      "uniform keys; repeats: drawn from 1.5x the keys of the fill (inserts may replace, erases "
      "may miss); linear-64: the linear table of key-bits 64 (16-byte slots, keys over the 64-bit "
      "range); slab: maintain rehash=0.25; the hive instrumented as the window runs it, and "
      "plain");
  std::vector<double> loads(std::begin(k_loads), std::end(k_loads));
  if (!o.bench.loads.empty()) loads = o.bench.loads;  // --loads: one load to profile, say
  for (const mix_case& m : k_mixes) rep.tables.push_back(mixed_table(m, fams, b, sc, loads));
  if (only.wants("fill")) rep.tables.push_back(fill_table(fams, b, sc));
  rep.notes.push_back(
      "G ops/s is each batch's own rate (events round its kernels), the median of the measured "
      "batches with their range; session G ops/s counts them over the wall time between their "
      "retirements, as a user of the window gets them");
  publish_report(rep, o);
  return 0;
}

}  // namespace hs::app
