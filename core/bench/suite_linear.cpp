// bench linear: bulk insert, find (all hits / all misses) and erase at several load factors on
// 2^27 slots, each a median after warm-up, also as a fraction of the roofline.
#include <algorithm>
#include <optional>

#include "core/bench/bench_keys.hpp"
#include "core/bench/load_sweep.hpp"
#include "core/bench/profile_row.hpp"
#include "core/bench/roofline.hpp"
#include "core/bench/suite_linear_full.hpp"
#include "core/bench/suites.hpp"
#include "core/bench/table_filter.hpp"
#include "core/bench/timing.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/table.hpp"

namespace hs::bench::detail {

namespace {
std::uint64_t count_status(const buffer<op_status>& st, std::uint64_t n, op_status want) {
  const auto host = st.download(n);
  return static_cast<std::uint64_t>(std::count(host.begin(), host.end(), want));
}
// Inserts into a table at load 0.5 whose slots also hold 0.25 of dead keys: erased values (value
// mode) or tombstones (tombstone mode, where inserts walk on to the key or an empty slot and then
// reuse the first tombstone they passed). Same keys, same occupancy: the cost of reusing.
template <class K, class V>
result_table dead_slots_table(const bench_options& opt, table_config cfg,
                              const bench::basic_key_set<K, V>& keys, stream_view s) {
  const bool gpu = opt.backend == backend::gpu;
  const auto filled = static_cast<std::uint64_t>(0.75 * cfg.capacity), live = cfg.capacity / 2;
  const auto fresh = static_cast<std::uint64_t>(0.1 * cfg.capacity);
  result_table tab;
  tab.name = "dead-slots";
  tab.title = "Inserts into a table at load 0.5 holding 0.25 of dead slots (G inserts/s)";
  tab.columns = {"delete mode", "load", "dead slots", "inserted", "insert", "x value mode"};
  double value_rate = 0;
  for (const linear_delete_mode mode : {linear_delete_mode::value, linear_delete_mode::tombstone}) {
    cfg.linear.deletes = mode;
    auto t = make_table(cfg);
    const auto k = keys.keys.cspan(), v = keys.values.cspan();
    const timing tm = measure(
        s, gpu, opt.warmup, opt.reps,
        [&] {
          t->clear(s);
          t->insert(k.first(filled), v.first(filled), {}, s);
          t->erase(k.subspan(live, filled - live), {}, s);
        },
        [&] { t->insert(k.subspan(filled, fresh), v.subspan(filled, fresh), {}, s); });
    const table_stats st = t->stats(s);
    if (st.live != live + fresh || st.failed_full)
      throw gpu_error(
          strprintf("bench linear: inserting into dead slots left %llu live keys of %llu",
                    (unsigned long long)st.live, (unsigned long long)(live + fresh)));
    const double rate = fresh / (tm.median_ms * 1e-3);
    if (mode == linear_delete_mode::value) value_rate = rate;
    tab.add({cell(mode == linear_delete_mode::value ? "value (erased keys stay)"
                                                    : "tombstone (reused)"),
             cell(0.5, "%.2f"), cell(0.25, "%.2f"), cell(double(fresh), "%.0f"),
             cell(rate / 1e9, "%.2f"), cell(rate / value_rate, "%.2f")});
  }
  return tab;
}

table_config linear_config(const bench_options& opt) {
  table_config cfg;
  cfg.backend = opt.backend;
  cfg.capacity = opt.capacity ? opt.capacity : default_capacity(opt.backend);
  cfg.hash = opt.hash;
  cfg.linear.tuning = opt.linear;
  cfg.linear.probe = opt.probe;
  cfg.width = opt.width;
  return cfg;
}

/// What the bulk rows share: the table, the keys (of the table's width), and the buffers the timed
/// calls write.
template <class K, class V>
struct bulk_setup {
  const bench_options& opt;
  const table_config& cfg;
  table& t;
  const bench::basic_key_set<K, V>& keys;
  const buffer<K>& misses;
  buffer<V>& found;
  buffer<op_status>& status;
  const roofline& rf;
  stream_view s;
};

/// One load's timed operations, and the probe lengths after its insert.
struct bulk_timings {
  timing ins, hit, miss, era;
  probe_histogram probe_lengths;
};

/// Times insert, find-hit, find-miss and erase of n keys at one load, each checked afterwards.
template <class K, class V>
bulk_timings time_bulk_ops(const bulk_setup<K, V>& b, double load, std::uint64_t n) {
  const bench_options& opt = b.opt;
  const stream_view s = b.s;
  const bool gpu = opt.backend == backend::gpu;
  table* const t = &b.t;
  buffer<V>& found = b.found;
  buffer<op_status>& status = b.status;
  const auto k = b.keys.keys.cspan().first(n);
  const auto v = b.keys.values.cspan().first(n);
  const std::span<op_status> st = opt.statuses ? status.span().first(n) : std::span<op_status>{};
  auto fill = [&] {
    t->clear(s);
    t->insert(k, v, {}, s);
  };
  const char* probing = b.cfg.linear.probe == probe_policy::double_hash ? " double" : "";
  const char* width = sizeof(K) == 8 ? " 64-bit" : "";
  const auto named = [&](const char* what) {
    return strprintf("linear%s%s %s load %.2f", probing, width, what, load);
  };
  bulk_timings tm;
  std::optional<profile_row> p(std::in_place, named("insert"));
  tm.ins =
      measure(s, gpu, opt.warmup, opt.reps, [&] { t->clear(s); }, [&] { t->insert(k, v, st, s); });
  p.reset();
  const table_stats after = t->stats(s);
  inspect_request probes;  // how long the probes are: what the rates below are the price of
  probes.probe_histogram = true;
  inspect_result ph;
  t->inspect(probes, ph, s);
  tm.probe_lengths = ph.histogram;
  if (after.live != n || after.failed_full)
    throw gpu_error(
        strprintf("bench linear: after inserting %llu keys the table holds %llu (failed %llu)",
                  (unsigned long long)n, (unsigned long long)after.live,
                  (unsigned long long)after.failed_full));
  p.emplace(named("find-hit"));
  tm.hit = measure(s, gpu, opt.warmup, opt.reps, nullptr,
                   [&] { t->find(k, found.span().first(n), status.span().first(n), s); });
  if (count_status(status, n, op_status::found) != n)
    throw gpu_error("bench linear: a find-hit missed");
  p.emplace(named("find-miss"));
  tm.miss = measure(s, gpu, opt.warmup, opt.reps, nullptr, [&] {
    t->find(b.misses.cspan().first(n), found.span().first(n), status.span().first(n), s);
  });
  if (count_status(status, n, op_status::missing) != n)
    throw gpu_error("bench linear: a find-miss hit");
  p.emplace(named("erase"));
  tm.era = measure(s, gpu, opt.warmup, opt.reps, fill, [&] { t->erase(k, st, s); });
  p.reset();
  if (t->stats(s).live != 0) throw gpu_error("bench linear: erase left live keys");
  return tm;
}

/// One load's row: rates as medians and as fractions of the roofline (random 8-byte reads and
/// 64-bit CAS for 32-bit keys, their 16-byte counterparts for 64-bit ones), then each rate's
/// range.
template <class K, class V>
std::vector<cell> bulk_row(const bulk_setup<K, V>& b, double load, std::uint64_t n,
                           const bulk_timings& tm) {
  const bool gpu = b.opt.backend == backend::gpu;
  const roofline& rf = b.rf;
  const bool wide = sizeof(K) == 8;
  const double reads = wide ? rf.random_reads16_per_s : rf.random_reads_per_s;
  const double cas = wide ? rf.random_cas16_per_s : rf.random_cas_per_s;
  const probe_histogram& h = tm.probe_lengths;
  auto rate = [&](const timing& t) { return n / (t.median_ms * 1e-3); };
  auto pct = [&](double v, double ceiling) {
    return gpu && ceiling > 0 ? cell(100.0 * v / ceiling, "%.0f%%") : cell("-");
  };
  std::vector<cell> row{cell(load, "%.2f"),
                        cell(static_cast<double>(n), "%.0f"),
                        cell(h.mean(), "%.3f"),
                        cell(static_cast<double>(h.max), "%.0f"),
                        cell(rate(tm.ins) / 1e9, "%.2f"),
                        pct(rate(tm.ins), cas),
                        cell(rate(tm.hit) / 1e9, "%.2f"),
                        pct(rate(tm.hit), reads),
                        cell(rate(tm.miss) / 1e9, "%.2f"),
                        pct(rate(tm.miss), reads),
                        cell(rate(tm.era) / 1e9, "%.2f"),
                        pct(rate(tm.era), reads)};
  for (const timing* t : {&tm.ins, &tm.hit, &tm.miss, &tm.era}) {
    const rate_range r = rates_of(n, *t);
    row.push_back(cell(r.slowest, "%.2f"));
    row.push_back(cell(r.fastest, "%.2f"));
  }
  return row;
}

template <class K, class V>
result_table bulk_table(const bulk_setup<K, V>& b, const std::vector<double>& loads) {
  result_table tab;
  tab.name = "bulk";
  tab.title = "Bulk operations on " + format_count(b.cfg.capacity) + " slots" +
              (sizeof(K) == 8 ? " of 64-bit keys and values" : "") +
              " (G ops/s; % of the roofline ceiling)";
  tab.columns = {"load",     "keys",  "probe mean", "probe max", "insert", "%CAS",
                 "find-hit", "%read", "find-miss",  "%read",     "erase",  "%read"};
  // Each rate's least and greatest over the repetitions (the column above is their median).
  for (const char* op : {"insert", "find-hit", "find-miss", "erase"})
    tab.columns.insert(tab.columns.end(), {std::string(op) + " min", std::string(op) + " max"});
  for (double load : loads) {
    const auto n = static_cast<std::uint64_t>(load * b.cfg.capacity);
    tab.add(bulk_row(b, load, n, time_bulk_ops(b, load, n)));
  }
  return tab;
}

/// The suite's tables for keys K and values V (the table's width).
template <class K, class V>
void run_linear_suite(const bench_options& opt, report& r) {
  const table_filter only("linear", opt.only, {"bulk", "dead-slots", "full"});
  const bool gpu = opt.backend == backend::gpu;
  const memory_space space = gpu ? memory_space::device : memory_space::host;
  owned_stream stream(gpu);
  const stream_view s = stream.view();

  const roofline rf = gpu ? measure_for(r, opt, s) : roofline{};
  const table_config cfg = linear_config(opt);
  auto t = make_table(cfg);
  const std::uint64_t slot_bytes = sizeof(K) == 8 ? 16 : 8;
  r.metadata.emplace_back(
      "table",
      strprintf("linear, %s slots (%s), %u-bit keys and values, hash %s, probing %s, %s, "
                "statuses %s",
                format_count(cfg.capacity).c_str(), format_bytes(cfg.capacity * slot_bytes).c_str(),
                bits_of(cfg.width), std::string(to_string(cfg.hash)).c_str(),
                std::string(to_string(cfg.linear.probe)).c_str(), describe(opt.linear).c_str(),
                opt.statuses ? "written" : "not written"));

  // Dense enough to draw curves; the rows the README quotes (0.5, 0.8, 0.9, 0.95) are among them.
  const std::vector<double> loads = opt.loads.empty() ? default_load_sweep({0.97}) : opt.loads;
  const std::uint64_t max_n =
      static_cast<std::uint64_t>(*std::max_element(loads.begin(), loads.end()) * cfg.capacity);
  const auto keys = bench::unique_keys_of<K, V>(space, max_n, 42);
  const buffer<K> misses = bench::miss_keys_of<K>(space, max_n, 42);
  buffer<V> found(space, max_n);
  buffer<op_status> status(space, max_n);

  if (only.wants("bulk")) {
    r.tables.push_back(
        bulk_table(bulk_setup<K, V>{opt, cfg, *t, keys, misses, found, status, rf, s}, loads));
    r.notes.push_back(
        "insert: n distinct random keys into an empty table (\"insert to load L\"); find-hit: the "
        "same "
        "keys; find-miss: n keys known absent; erase: all n keys. Every run is checked "
        "afterwards.");
  }
  if (cfg.linear.probe == probe_policy::linear && only.wants("dead-slots")) {
    r.tables.push_back(dead_slots_table(opt, cfg, keys, s));
    r.notes.push_back(
        "into dead slots: 0.75 of the slots filled, a third of those keys erased (value mode "
        "leaves "
        "them occupied, tombstone mode leaves tombstones that inserts reuse), then 0.1 of the "
        "slots in "
        "new keys inserted.");
  }
  if (sizeof(K) == 8) {
    // The full table's streams draw 32-bit keys from the workload generator.
    if (!opt.only.empty() && only.wants("full"))
      throw user_error("bench linear --only full runs tables of 32-bit keys (leave --key-bits)");
  } else if (gpu && only.wants("full")) {
    r.tables.push_back(full_table(opt, cfg, s));
    r.notes.push_back(
        "full: 2^20 slots filled to 0.9 on one stream, then 0.4 of the slots in new keys inserted "
        "from 1 or 8 streams (4 batches each, round-robin, no waits; rates in G keys/s), then the "
        "same keys looked up from those streams; every refusal and miss is checked.");
  } else if (!gpu && !opt.only.empty() && only.wants("full")) {
    throw user_error("bench linear --only full needs the GPU (its batches run on 8 streams)");
  }
}

}  // namespace

report linear_suite(const bench_options& opt) {
  report r = new_report("linear", opt);
  with_key_width(opt.width, [&](auto key) {
    using K = decltype(key);
    run_linear_suite<K, value_of_key<K>>(opt, r);
  });
  return r;
}

}  // namespace hs::bench::detail
