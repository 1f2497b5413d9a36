// bench hive: the Hive paper's experiments on the hive table. Bulk insert into an empty table up to
// load 0.9-0.99 across sizes, lookups by hit ratio, the mixed workloads (0.5:0.3:0.2 and
// 0.5:0.4:0.1 insert:lookup:delete), hash-policy and bucket-size comparisons, resize rates, the
// insert-step breakdown from load 0.55 to 0.97 (Fig. 9) and the instrumentation's overhead.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <numeric>
#include <random>

#include "core/bench/bench_keys.hpp"
#include "core/bench/load_sweep.hpp"
#include "core/bench/profile_row.hpp"
#include "core/bench/suites.hpp"
#include "core/bench/table_filter.hpp"
#include "core/bench/timing.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/hive/hive_family.hpp"

namespace hs::bench::detail {

namespace {

struct shape {
  int slots = 0, tile = 0;
  std::string hashes;
  bool instrument = false;
  std::uint64_t batch = 0;  ///< resize steps (K buckets); 0: the table's default
};

struct hive_ctx {
  const bench_options& opt;
  stream_view s;
  std::unique_ptr<table> make(std::uint64_t capacity, const shape& sh = {}) const {
    table_config c;
    c.family = family::hive;
    c.backend = backend::gpu;
    c.capacity = capacity;
    c.hive.bucket_slots = sh.slots ? sh.slots : opt.hive_slots;
    c.hive.tile = sh.tile ? sh.tile : opt.hive_tile;
    c.hive.hashes = sh.hashes.empty() ? opt.hive_hashes : sh.hashes;
    c.hive.instrument = sh.instrument;
    c.hive.bulk = opt.hive_bulk;
    c.hive.resize_batch = sh.batch;
    return make_table(c);
  }
  timing time(const std::function<void()>& setup, const std::function<void()>& work) const {
    return measure(s, true, opt.warmup, opt.reps, setup, work);
  }
};

double grate(std::uint64_t n, const timing& t) { return n / (t.median_ms * 1e-3) / 1e9; }

std::uint64_t count_status(const buffer<op_status>& st, std::uint64_t n, op_status want,
                           stream_view s) {
  const auto h = st.download(n, s);
  return static_cast<std::uint64_t>(std::count(h.begin(), h.end(), want));
}

/// A row's name for profilers ("hive find 2^25 load 0.90"; see profile_row.hpp).
std::string row_name(const char* what, std::uint64_t capacity, double load, const shape& sh) {
  std::string name = strprintf("hive %s 2^%d load %.2f", what, std::countr_zero(capacity), load);
  if (!sh.hashes.empty()) name += " hashes " + sh.hashes;
  if (sh.slots || sh.tile) name += strprintf(" slots %d tile %d", sh.slots, sh.tile);
  return name;
}

/// Inserts n keys into an empty table (timed, median), then looks them all up (timed).
struct fill_result {
  double insert = 0, find = 0;
  double insert_min = 0, insert_max = 0, find_min = 0, find_max = 0;  // over the repetitions
  std::uint64_t stashed = 0, pending = 0;
};

fill_result fill_and_find(const hive_ctx& c, std::uint64_t capacity, double load,
                          const shape& sh = {}) {
  auto t = c.make(capacity, sh);
  const auto n = static_cast<std::uint64_t>(load * double(capacity));
  const key_set ks = unique_keys(memory_space::device, n, 1);
  buffer<value_type> out(memory_space::device, n);
  buffer<op_status> st(memory_space::device, n);
  fill_result r;
  timing ti;
  {
    const profile_row row(row_name("insert", capacity, load, sh));
    ti = c.time([&] { t->clear(c.s); },
                [&] { t->insert(ks.keys.cspan(), ks.values.cspan(), {}, c.s); });
  }
  const table_stats after = t->stats(c.s);
  if (after.live + after.failed_full != n)
    throw gpu_error(strprintf("bench hive: %llu keys stored and %llu refused of %llu",
                              (unsigned long long)after.live, (unsigned long long)after.failed_full,
                              (unsigned long long)n));
  timing tf;
  {
    const profile_row row(row_name("find", capacity, load, sh));
    tf = c.time(nullptr, [&] { t->find(ks.keys.cspan(), out.span(), {}, c.s); });
  }
  t->find(ks.keys.cspan(), out.span(), st.span(), c.s);
  if (count_status(st, n, op_status::found, c.s) != after.live)
    throw gpu_error("bench hive: a stored key was not found");
  r.insert = grate(n, ti);
  r.find = grate(n, tf);
  const rate_range ri = rates_of(n, ti), rf = rates_of(n, tf);
  r.insert_min = ri.slowest, r.insert_max = ri.fastest;
  r.find_min = rf.slowest, r.find_max = rf.fastest;
  r.stashed = after.hive.stash_live;
  r.pending = after.failed_full;
  return r;
}

result_table bulk_insert(const hive_ctx& c, const std::vector<int>& logs) {
  result_table tab;
  tab.name = "bulk-insert";
  tab.title =
      "Bulk insert into an empty table up to a load, then lookups of every key (G ops/s; stashed / "
      "refused keys)";
  tab.columns = {"slots",   "load",       "insert",     "find (all hit)",     "stashed",
                 "refused", "insert min", "insert max", "find (all hit) min", "find (all hit) max"};
  // Dense enough to draw curves; the rows the README quotes (0.9 to 0.99) are among them.
  const std::vector<double> loads =
      c.opt.loads.empty() ? default_load_sweep({0.97, 0.99}) : c.opt.loads;
  for (int e : logs)
    for (double load : loads) {
      const fill_result r = fill_and_find(c, std::uint64_t{1} << e, load);
      tab.add({cell("2^" + std::to_string(e)), cell(load, "%.2f"), cell(r.insert, "%.2f"),
               cell(r.find, "%.2f"), cell(double(r.stashed), "%.0f"),
               cell(double(r.pending), "%.0f"), cell(r.insert_min, "%.2f"),
               cell(r.insert_max, "%.2f"), cell(r.find_min, "%.2f"), cell(r.find_max, "%.2f")});
    }
  return tab;
}

/// Lookups of n keys at load 0.9, a share of them stored, on each table size.
result_table hit_ratio(const hive_ctx& c, const std::vector<int>& logs) {
  result_table tab;
  tab.name = "lookup-hit-ratio";
  tab.title = "Bulk lookup of as many keys as stored at load 0.9, by hit ratio (G lookups/s)";
  tab.columns = {"slots", "hit ratio", "lookups"};
  for (int e : logs) {
    const std::uint64_t capacity = std::uint64_t{1} << e;
    auto t = c.make(capacity);
    const auto n = static_cast<std::uint64_t>(0.9 * double(capacity));
    const key_set ks = unique_keys(memory_space::device, n, 2);
    const buffer<key_type> misses = miss_keys(memory_space::device, n, 2);
    t->insert(ks.keys.cspan(), ks.values.cspan(), {}, c.s);
    std::vector<key_type> hits = ks.keys.download(n, c.s), absent = misses.download(n, c.s);
    buffer<key_type> q(memory_space::device, n);
    buffer<value_type> out(memory_space::device, n);
    std::mt19937_64 rng(3);
    for (int pct : {0, 25, 50, 75, 100}) {
      std::vector<key_type> mix(n);
      const std::uint64_t h = n * pct / 100;
      std::copy(hits.begin(), hits.begin() + h, mix.begin());
      std::copy(absent.begin(), absent.begin() + (n - h), mix.begin() + h);
      std::shuffle(mix.begin(), mix.end(), rng);
      q.upload(mix, c.s);
      const profile_row row(strprintf("hive find 2^%d load 0.90 hits %d%%", e, pct));
      const timing tm = c.time(nullptr, [&] { t->find(q.cspan(), out.span(), {}, c.s); });
      tab.add({cell("2^" + std::to_string(e)), cell(std::to_string(pct) + "%"),
               cell(grate(n, tm), "%.2f")});
    }
  }
  return tab;
}

result_table mixed(const hive_ctx& c, std::uint64_t capacity, std::uint64_t ops) {
  struct mix {
    const char* name;
    double ins, look, del;
  };
  const mix mixes[] = {{"0.5:0.3:0.2", 0.5, 0.3, 0.2}, {"0.5:0.4:0.1", 0.5, 0.4, 0.1}};
  result_table tab;
  tab.name = "mixed";
  tab.title = "Mixed batches of " + format_count(ops) +
              " operations (insert:lookup:delete, each key once, shuffled) on " +
              format_count(capacity) + " slots, against the load before the batch (G ops/s)";
  tab.columns = {"initial load", mixes[0].name, "wrong / refused", mixes[1].name,
                 "wrong / refused "};
  auto t = c.make(capacity);
  for (double load : {0.3, 0.5, 0.7}) {
    const auto n0 = static_cast<std::uint64_t>(load * double(capacity));
    const key_set present = unique_keys(memory_space::device, n0 + ops, 4);
    const auto hp = present.keys.download(n0 + ops, c.s);
    std::vector<cell> row{cell(load, "%.2f")};
    for (const mix& m : mixes) {
      const auto ni = static_cast<std::uint64_t>(m.ins * ops),
                 nl = static_cast<std::uint64_t>(m.look * ops);
      const std::uint64_t nd = ops - ni - nl;
      std::vector<op_kind> kinds;
      std::vector<key_type> keys;
      for (std::uint64_t i = 0; i < ni; ++i)
        kinds.push_back(op_kind::insert), keys.push_back(hp[n0 + i]);
      for (std::uint64_t i = 0; i < nl; ++i) kinds.push_back(op_kind::find), keys.push_back(hp[i]);
      for (std::uint64_t i = 0; i < nd; ++i)
        kinds.push_back(op_kind::erase), keys.push_back(hp[n0 - 1 - i]);
      std::vector<std::size_t> order(ops);
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), std::mt19937_64(5));
      std::vector<op_kind> k2(ops);
      std::vector<key_type> keys2(ops);
      for (std::uint64_t i = 0; i < ops; ++i) k2[i] = kinds[order[i]], keys2[i] = keys[order[i]];
      buffer<op_kind> dk(memory_space::device, ops);
      buffer<key_type> dkeys(memory_space::device, ops);
      dk.upload(k2, c.s);
      dkeys.upload(keys2, c.s);
      buffer<value_type> results(memory_space::device, ops);
      buffer<op_status> st(memory_space::device, ops);
      const op_batch batch{dk.cspan(), dkeys.cspan(), dkeys.cspan()};
      const auto refill = [&] {
        t->clear(c.s);
        t->insert(present.keys.cspan().first(n0), present.values.cspan().first(n0), {}, c.s);
      };
      const timing tm = c.time(refill, [&] { t->apply(batch, results.span(), {}, c.s); });
      refill();
      t->apply(batch, results.span(), st.span(), c.s);
      // Every lookup and delete targets a stored key and every insert a new one: anything but
      // found / erased / inserted is reported beside the rate.
      const auto h = st.download(ops, c.s);
      std::uint64_t wrong = 0, refused = 0;
      for (std::uint64_t i = 0; i < ops; ++i) {
        const op_status want = k2[i] == op_kind::insert ? op_status::inserted
                               : k2[i] == op_kind::find ? op_status::found
                                                        : op_status::erased;
        if (h[i] == op_status::failed_full)
          ++refused;
        else if (h[i] != want)
          ++wrong;
      }
      row.push_back(cell(grate(ops, tm), "%.2f"));
      row.push_back(
          cell(strprintf("%llu / %llu", (unsigned long long)wrong, (unsigned long long)refused)));
    }
    tab.add(std::move(row));
  }
  return tab;
}

result_table policies(const hive_ctx& c, std::uint64_t capacity) {
  result_table tab;
  tab.name = "hash-policy";
  tab.title = "Hash functions: bulk insert to load 0.9 and lookups on " + format_count(capacity) +
              " slots (G ops/s)";
  tab.columns = {"functions", "insert", "find", "stashed"};
  for (const char* p : {"bithash1+bithash2", "murmur3+city", "murmur3+bithash1", "crc32+murmur3",
                        "city+crc32", "bithash1+bithash2+city", "murmur3+city+crc32"}) {
    shape sh;
    sh.hashes = p;
    const fill_result r = fill_and_find(c, capacity, 0.9, sh);
    tab.add(
        {cell(p), cell(r.insert, "%.2f"), cell(r.find, "%.2f"), cell(double(r.stashed), "%.0f")});
  }
  return tab;
}

result_table bucket_sizes(const hive_ctx& c, std::uint64_t capacity) {
  result_table tab;
  tab.name = "bucket-size";
  tab.title =
      "Bucket size and threads per operation: bulk insert to load 0.9 and 0.97, lookups at 0.9, "
      "on " +
      format_count(capacity) + " slots (G ops/s)";
  tab.columns = {"slots", "threads", "insert 0.9", "find 0.9", "insert 0.97"};
  for (int slots : {8, 16, 32})
    for (int tile : {2, 4, 8, 16, 32}) {
      if (tile > slots) continue;
      shape sh;
      sh.slots = slots;
      sh.tile = tile;
      const fill_result a = fill_and_find(c, capacity, 0.9, sh),
                        b = fill_and_find(c, capacity, 0.97, sh);
      tab.add({cell(double(slots), "%.0f"), cell(double(tile), "%.0f"), cell(a.insert, "%.2f"),
               cell(a.find, "%.2f"), cell(b.insert, "%.2f")});
    }
  return tab;
}

// A rebuild's share of copy bandwidth counts, as the linear family's rebuilds do, every slot of the
// table before read and every slot of the table after written: a whole round, from 2^24 slots to
// 2^25 or back, is (2^24 + 2^25) x 8 bytes either way.
result_table resize_rates(const hive_ctx& c, std::uint64_t capacity, const roofline& rf) {
  result_table tab;
  tab.name = "resize";
  tab.title = "Linear-hashing resize of a table of " + format_count(capacity) +
              " slots at load 0.85: one whole round";
  tab.columns = {"K (buckets per step)", "expand ms",  "buckets/s",  "entries/s", "% of copy",
                 "contract ms",          "buckets/s ", "entries/s ", "% of copy "};
  const double bytes = 3.0 * double(capacity) * sizeof(hive::word_type);
  const auto share = [&](double ms) {
    return cell(100.0 * bytes / (ms * 1e-3) / rf.copy_bytes_per_s, "%.0f%%");
  };
  const auto n = static_cast<std::uint64_t>(0.85 * double(capacity));
  const key_set ks = unique_keys(memory_space::device, n, 6);
  for (std::uint64_t k : {32768ull, 0ull}) {
    std::unique_ptr<table> t;
    std::uint64_t round = 0;
    shape sh;
    sh.batch = k;
    const auto fresh = [&] {
      t = c.make(capacity, sh);
      t->insert(ks.keys.cspan(), ks.values.cspan(), {}, c.s);
      round = t->stats(c.s).hive.round;
    };
    const std::string step = k ? std::to_string(k) : std::string("round/16");
    const std::string named = k ? step : std::string("default");  // NVTX filters split names at '/'
    timing te, tc;
    {
      const profile_row row("hive expand 2^" + std::to_string(std::countr_zero(capacity)) + " K " +
                            named);
      te = c.time(fresh, [&] { hive::as_hive(*t)->expand(round, c.s); });
    }
    {
      const profile_row row("hive contract 2^" + std::to_string(std::countr_zero(capacity)) +
                            " K " + named);
      tc = c.time(
          [&] {
            fresh();
            hive::as_hive(*t)->expand(round, c.s);
          },
          [&] { hive::as_hive(*t)->contract(round, c.s); });
    }
    tab.add({cell(step), cell(te.median_ms, "%.2f"),
             cell(double(round) / (te.median_ms * 1e-3), "%.3g"),
             cell(double(n) / (te.median_ms * 1e-3), "%.3g"), share(te.median_ms),
             cell(tc.median_ms, "%.2f"), cell(double(round) / (tc.median_ms * 1e-3), "%.3g"),
             cell(double(n) / (tc.median_ms * 1e-3), "%.3g"), share(tc.median_ms)});
  }
  return tab;
}

result_table step_breakdown(const hive_ctx& c, std::uint64_t capacity) {
  shape sh;
  sh.instrument = true;
  auto t = c.make(capacity, sh);
  const auto total = static_cast<std::uint64_t>(0.97 * double(capacity));
  const key_set ks = unique_keys(memory_space::device, total, 7);
  result_table tab;
  tab.name = "steps";
  tab.title =
      "Fig. 9: which step completed the inserts that raised the load to each value (share of "
      "inserts; moves per eviction)";
  tab.columns = {"load",    "inserts",        "1 replace", "2 claim", "3 evict",
                 "4 stash", "moves/eviction", "locks",     "restarts"};
  std::uint64_t done = static_cast<std::uint64_t>(0.52 * double(capacity));
  t->insert(ks.keys.cspan().first(done), ks.values.cspan().first(done), {}, c.s);
  hive_counters before = t->stats(c.s).hive;
  for (int pct = 55; pct <= 97; pct += 3) {
    const auto upto = std::min(total, static_cast<std::uint64_t>(pct / 100.0 * double(capacity)));
    t->insert(ks.keys.cspan().subspan(done, upto - done),
              ks.values.cspan().subspan(done, upto - done), {}, c.s);
    const hive_counters now = t->stats(c.s).hive;
    const double n = double(upto - done);
    const double ev = double(now.steps[2] - before.steps[2]);
    tab.add({cell(pct / 100.0, "%.2f"), cell(n, "%.0f"),
             cell((now.steps[0] - before.steps[0]) / n, "%.4f"),
             cell((now.steps[1] - before.steps[1]) / n, "%.4f"), cell(ev / n, "%.4f"),
             cell((now.steps[3] - before.steps[3]) / n, "%.5f"),
             cell(ev ? (now.moves - before.moves) / ev : 0.0, "%.2f"),
             cell(double(now.locks - before.locks), "%.0f"),
             cell(double(now.restarts - before.restarts), "%.0f")});
    before = now;
    done = upto;
  }
  return tab;
}

result_table overhead(const hive_ctx& c, std::uint64_t capacity) {
  result_table tab;
  tab.name = "instrumentation";
  tab.title = "Instrumentation's cost: bulk insert to load 0.9 on " + format_count(capacity) +
              " slots (G keys/s)";
  tab.columns = {"instrumentation", "insert", "find"};
  for (bool on : {false, true}) {
    shape sh;
    sh.instrument = on;
    const fill_result r = fill_and_find(c, capacity, 0.9, sh);
    tab.add({cell(on ? "on" : "off"), cell(r.insert, "%.2f"), cell(r.find, "%.2f")});
  }
  return tab;
}

}  // namespace

report hive_suite(const bench_options& opt) {
  if (opt.backend != backend::gpu)
    throw user_error("bench hive measures the GPU table: run it with --backend gpu");
  report r = new_report("hive", opt);
  owned_stream stream(true);
  const roofline rf = measure_for(r, opt, stream.view());
  const hive_ctx c{opt, stream.view()};
  {
    auto t = c.make(1u << 20);
    const table_config cfg = t->config();
    r.metadata.emplace_back(
        "table", strprintf("hive, %d slots per bucket, %d threads per operation, hashes %s, "
                           "eviction depth %d, bulk inserts %s",
                           cfg.hive.bucket_slots ? cfg.hive.bucket_slots : hive::k_default_slots,
                           cfg.hive.tile ? cfg.hive.tile : hive::k_default_tile,
                           cfg.hive.hashes.empty() ? hive::to_string(hive::hash_policy{}).c_str()
                                                   : cfg.hive.hashes.c_str(),
                           cfg.hive.eviction_depth, std::string(to_string(cfg.hive.bulk)).c_str()));
  }
  const table_filter only("hive", opt.only,
                          {"bulk-insert", "lookup-hit-ratio", "mixed", "hash-policy", "bucket-size",
                           "resize", "steps", "instrumentation"});
  const auto run = [&](const char* name, const char* what, auto&& make) {
    if (!only.wants(name)) return;
    std::fprintf(stderr, "bench hive: %s\n", what);
    r.tables.push_back(make());
  };
  run("bulk-insert", "bulk insert", [&] { return bulk_insert(c, {22, 25, 27}); });
  run("lookup-hit-ratio", "lookups by hit ratio", [&] { return hit_ratio(c, {25, 27}); });
  run("mixed", "mixed batches",
      [&] { return mixed(c, std::uint64_t{1} << 25, std::uint64_t{1} << 24); });
  run("hash-policy", "hash policies", [&] { return policies(c, std::uint64_t{1} << 25); });
  run("bucket-size", "bucket sizes", [&] { return bucket_sizes(c, std::uint64_t{1} << 25); });
  run("resize", "resize", [&] { return resize_rates(c, std::uint64_t{1} << 24, rf); });
  run("steps", "insert steps", [&] { return step_breakdown(c, std::uint64_t{1} << 24); });
  run("instrumentation", "instrumentation", [&] { return overhead(c, std::uint64_t{1} << 25); });
  r.notes.push_back(
      "bulk insert: distinct uniform keys into an empty table, no resizing; refused keys found the "
      "stash full.");
  r.notes.push_back(
      "mixed: inserts of new keys, lookups and deletes of stored keys; the table is refilled "
      "before every timed batch.");
  return r;
}

}  // namespace hs::bench::detail
