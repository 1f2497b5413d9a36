// bench linear-churn: a long-lived table kept at a steady load through cycles of erases (the
// oldest keys) and inserts (as many new ones), under three policies: erase by value (A Simple GPU
// Hash Table), tombstones without rehash (Reusing Deleted Slots), and tombstones rebuilt in place
// when a quarter of the slots are dead. Per cycle: throughput of each phase and the probe lengths
// after it. Then the rebuild rates themselves (rehash in place, grow, shrink), also as a fraction
// of copy bandwidth.
#include <algorithm>

#include "core/bench/profile_row.hpp"
#include "core/bench/roofline.hpp"
#include "core/bench/suites.hpp"
#include "core/bench/table_filter.hpp"
#include "core/bench/timing.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/table.hpp"
#include "core/workload/workload.hpp"

namespace hs::bench::detail {

namespace {

constexpr double k_load = 0.5;    // live keys kept at half the slots
constexpr double k_cycle = 0.04;  // each cycle erases and inserts 4% of the slots
constexpr int k_cycles = 24;
constexpr double k_rehash_at = 0.25;  // dead slots that trigger a rebuild in the third policy

/// Keys of one unique stream, generated on demand in the table's memory space.
struct key_stream {
  workload::workload_spec spec;
  memory_space space;
  buffer<op_kind> kinds;
  buffer<key_type> keys;
  buffer<value_type> values;
  key_stream(memory_space sp, std::uint64_t room)
      : space(sp), kinds(sp, room), keys(sp, room), values(sp, room) {
    spec.keys.dist = workload::distribution::uniform_unique;
    spec.keys.seed = 2026;
  }
  /// Keys [first, first + n) of the stream into the buffers.
  void make(std::uint64_t first, std::uint64_t n, stream_view s) {
    workload::batch_plan p;
    p.index = first;  // any index: only inserts, so the shuffle does not matter
    p.size = n;
    p.inserts = n;
    p.insert_begin = first;
    workload::generate(spec, p, space, {kinds.span(), keys.span(), values.span()}, s);
  }
};

struct policy {
  const char* name;
  linear_delete_mode deletes;
  bool rehash;
};

/// What every run of the suite shares: its sizes, the key stream and the finds' output.
struct churn_setup {
  const bench_options& opt;
  std::uint64_t capacity, live, step;
  bool gpu;
  key_stream& ks;
  buffer<value_type>& found;
  stream_view s;
};

/// A table with the suite's options and `deletes`, holding the stream's first `live` keys.
std::unique_ptr<table> filled_table(const churn_setup& c, linear_delete_mode deletes) {
  table_config cfg;
  cfg.backend = c.opt.backend;
  cfg.capacity = c.capacity;
  cfg.hash = c.opt.hash;
  cfg.linear.deletes = deletes;
  cfg.linear.tuning = c.opt.linear;
  auto t = make_table(cfg);
  c.ks.make(0, c.live, c.s);
  t->insert(c.ks.keys.cspan(), c.ks.values.cspan(), {}, c.s);
  return t;
}

/// One cycle's rates (ops/s), and the table as the cycle leaves it.
struct cycle_result {
  double erase_rate = 0, insert_rate = 0, find_rate = 0;
  table_stats stats;
  double dead = 0;  // erased and tombstoned slots over all slots, before any rebuild
  bool rebuilt = false;
  double rebuild_ms = 0;
  probe_histogram probes;
};

/// One cycle: the oldest `step` keys erased, as many new ones inserted, the oldest live ones found
/// (the longest-standing positions), then a rebuild if the policy asks for one.
cycle_result run_cycle(const churn_setup& c, table& t, bool rehash, int cycle,
                       std::uint64_t& oldest, std::uint64_t& next) {
  key_stream& ks = c.ks;
  const std::uint64_t step = c.step;
  const stream_view s = c.s;
  const bool gpu = c.gpu;
  cycle_result out;
  ks.make(oldest, step, s);
  out.erase_rate =
      step / (time_once(s, gpu, [&] { t.erase(ks.keys.cspan().first(step), {}, s); }) * 1e-3);
  oldest += step;
  ks.make(next, step, s);
  out.insert_rate = step / (time_once(s, gpu,
                                      [&] {
                                        t.insert(ks.keys.cspan().first(step),
                                                 ks.values.cspan().first(step), {}, s);
                                      }) *
                            1e-3);
  next += step;
  ks.make(oldest, step, s);
  out.find_rate =
      step /
      (time_once(s, gpu,
                 [&] { t.find(ks.keys.cspan().first(step), c.found.span().first(step), {}, s); }) *
       1e-3);
  out.stats = t.stats(s);
  const table_stats& st = out.stats;
  if (st.live != c.live || st.failed_full)
    throw gpu_error(strprintf("bench linear-churn: cycle %d holds %llu live keys (failed %llu)",
                              cycle, (unsigned long long)st.live,
                              (unsigned long long)st.failed_full));
  out.dead = double(st.erased + st.tombstones) / c.capacity;
  if (rehash && out.dead > k_rehash_at) {
    out.rebuild_ms = time_once(s, gpu, [&] { t.rehash(c.capacity, s); });
    out.rebuilt = true;
  }
  inspect_request req;
  req.probe_histogram = true;
  inspect_result ins;
  t.inspect(req, ins, s);
  out.probes = ins.histogram;
  return out;
}

std::vector<cell> cycle_row(int cycle, const cycle_result& cr) {
  const probe_histogram& h = cr.probes;
  return {cell(double(cycle), "%.0f"),
          cell(cr.dead, "%.3f"),
          cell(cr.stats.occupancy(), "%.3f"),
          cell(cr.erase_rate / 1e9, "%.2f"),
          cell(cr.insert_rate / 1e9, "%.2f"),
          cell(cr.find_rate / 1e9, "%.2f"),
          cell(h.mean(), "%.3f"),
          cell(double(h.max), "%.0f"),
          cr.rebuild_ms > 0 ? cell(cr.rebuild_ms, "%.2f") : cell("-")};
}

/// Runs the cycles under one policy: returns its table of cycles, adds its last cycle to
/// `summary` and a note to `r` when it stops early.
result_table run_policy(const churn_setup& c, const policy& pol, const char* name, report& r,
                        result_table& summary) {
  auto t = filled_table(c, pol.deletes);
  std::uint64_t oldest = 0, next = c.live;

  result_table tab;
  tab.name = name;
  tab.title = std::string("Churn, ") + pol.name;
  tab.columns = {"cycle",    "dead slots", "occupied", "erase G/s", "insert G/s",
                 "find G/s", "mean probe", "longest",  "rebuild ms"};
  int rebuilds = 0, cycle = 0;
  cycle_result last;
  for (cycle = 1; cycle <= k_cycles; ++cycle) {
    last = run_cycle(c, *t, pol.rehash, cycle, oldest, next);
    if (last.rebuilt) ++rebuilds;
    tab.add(cycle_row(cycle, last));
    // Erase by value keeps every key in its slot: stop before the table is full.
    if (last.stats.occupancy() + k_cycle > 0.97) {
      r.notes.push_back(std::string(pol.name) + ": stopped after cycle " + std::to_string(cycle) +
                        ", the next would leave under 3% of the slots empty");
      break;
    }
  }
  const table_stats& st = last.stats;
  const probe_histogram& h = last.probes;
  summary.add({pol.name, cell(double(std::min(cycle, k_cycles)), "%.0f"),
               cell(double(rebuilds), "%.0f"),
               cell(double(st.erased + st.tombstones) / c.capacity, "%.3f"), cell(h.mean(), "%.3f"),
               cell(double(h.max), "%.0f"), cell(last.insert_rate / 1e9, "%.2f"),
               cell(last.erase_rate / 1e9, "%.2f"), cell(last.find_rate / 1e9, "%.2f")});
  return tab;
}

/// Rows of `rates` for one delete mode: rehash in place, grow and shrink, medians after warm-up.
/// Rehash in place repeats on the same table; grow and shrink alternate, each timed on its own
/// (so every grow starts from the small table and every shrink from the large one).
void add_rebuild_rates(const churn_setup& c, const roofline& rf, linear_delete_mode mode,
                       result_table& rates) {
  const bench_options& opt = c.opt;
  const std::uint64_t capacity = c.capacity, live = c.live;
  const stream_view s = c.s;
  const bool gpu = c.gpu;
  auto t = filled_table(c, mode);
  const std::string m = mode == linear_delete_mode::tombstone ? " (tombstones)" : " (value)";
  auto add = [&](const std::string& name, std::uint64_t from, std::uint64_t to,
                 const std::vector<double>& times) {
    const double ms = median(times);
    const double bytes = double(from + to) * sizeof(std::uint64_t);
    rates.add(
        {name + m, cell(double(from), "%.0f"), cell(double(to), "%.0f"), cell(double(live), "%.0f"),
         cell(ms, "%.2f"), cell(live / (ms * 1e-3) / 1e9, "%.2f G"),
         cell(bytes / (ms * 1e-3) / 1e12, "%.3f T"),
         gpu ? cell(100.0 * bytes / (ms * 1e-3) / rf.copy_bytes_per_s, "%.0f%%") : cell("-")});
  };
  std::vector<double> in_place, grow, shrink;
  for (int i = 0; i < opt.warmup + opt.reps; ++i) {
    const auto timed = [&](const char* what, std::uint64_t to) {
      const profile_row row(std::string("linear ") + what + m);
      return time_once(s, gpu, [&] { t->rehash(to, s); });
    };
    const double a = timed("rehash in place", capacity);
    const double b = timed("grow", capacity * 2);
    const double d = timed("shrink", capacity);
    if (i < opt.warmup) continue;
    in_place.push_back(a), grow.push_back(b), shrink.push_back(d);
  }
  add("rehash in place", capacity, capacity, in_place);
  add("grow", capacity, capacity * 2, grow);
  add("shrink", capacity * 2, capacity, shrink);
  if (t->stats(s).live != live) throw gpu_error("bench linear-churn: a rebuild lost keys");
}

}  // namespace

report linear_churn_suite(const bench_options& opt) {
  report r = new_report("linear-churn", opt);
  const table_filter only("linear-churn", opt.only,
                          {"summary", "value", "tombstone", "tombstone-rehash", "rebuild"});
  const bool gpu = opt.backend == backend::gpu;
  owned_stream stream(gpu);
  const stream_view s = stream.view();
  const roofline rf = gpu ? measure_for(r, opt, s) : roofline{};
  const std::uint64_t capacity = opt.capacity ? opt.capacity : default_capacity(opt.backend);
  const auto live = static_cast<std::uint64_t>(k_load * capacity);
  const auto step = static_cast<std::uint64_t>(k_cycle * capacity);
  const memory_space space = gpu ? memory_space::device : memory_space::host;
  key_stream ks(space, live);
  buffer<value_type> found(space, live);
  r.metadata.emplace_back(
      "churn", strprintf("%s slots, %s live keys (load %.2f); each cycle erases the oldest %s and "
                         "inserts as many new ones; %d cycles",
                         format_count(capacity).c_str(), format_count(live).c_str(), k_load,
                         format_count(step).c_str(), k_cycles));
  const churn_setup c{opt, capacity, live, step, gpu, ks, found, s};

  result_table summary;
  summary.name = "summary";
  summary.title = "Churn: last cycle of each policy";
  summary.columns = {"policy",  "cycles",     "rebuilds",  "dead slots", "mean probe",
                     "longest", "insert G/s", "erase G/s", "find G/s"};
  for (const policy pol :
       {policy{"erase by value (A Simple GPU Hash Table)", linear_delete_mode::value, false},
        policy{"tombstones (Reusing Deleted Slots)", linear_delete_mode::tombstone, false},
        policy{"tombstones, rehash at 25% dead", linear_delete_mode::tombstone, true}}) {
    const char* name = pol.deletes == linear_delete_mode::value ? "value"
                       : pol.rehash                             ? "tombstone-rehash"
                                                                : "tombstone";
    if (!only.wants(name) && !only.wants("summary")) continue;
    result_table tab = run_policy(c, pol, name, r, summary);
    if (only.wants(name)) r.tables.push_back(std::move(tab));
  }
  if (only.wants("summary")) r.tables.insert(r.tables.begin(), std::move(summary));

  // Rebuild rates: every slot of the old table is read and every slot of the new one written.
  result_table rates;
  rates.name = "rebuild";
  rates.title = "Rebuilds from the live keys (no host round trip)";
  rates.columns = {"rebuild", "from", "to", "live keys", "ms", "entries/s", "bytes/s", "% of copy"};
  // Both delete modes: their dead slots differ, the rebuild is the same.
  for (const linear_delete_mode mode : {linear_delete_mode::tombstone, linear_delete_mode::value}) {
    if (!only.wants("rebuild")) break;
    add_rebuild_rates(c, rf, mode, rates);
  }
  if (only.wants("rebuild")) r.tables.push_back(std::move(rates));
  r.notes.push_back(
      "rebuilds: medians after warm-up, each including the new slots' allocation (grow, shrink: "
      "from the "
      "memory pool, which after warm-up holds what the previous rebuild freed), the scratch and "
      "the "
      "check that no key was lost");
  return r;
}

}  // namespace hs::bench::detail
