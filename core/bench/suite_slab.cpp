// bench slab: the SlabHash paper's experiments on the slab table (Fig. 4: build and search against
// memory utilization; Fig. 5: against n at 60%; Fig. 6: incremental batches; Fig. 7a: concurrent
// mixes against initial utilization; SlabAlloc's allocation rate), and bench slab-tile (2, 4, 8, 16
// or 32 threads sharing a slab). Pools are sized up front so no timed batch waits for a pool check.
#include <algorithm>
#include <numeric>
#include <random>

#include "core/bench/profile_row.hpp"
#include "core/bench/suites.hpp"
#include "core/bench/table_filter.hpp"
#include "core/bench/timing.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/slab/slab_family.hpp"
#include "core/slab/slab_layout.hpp"
#include "core/slab/slab_sizing.hpp"
#if HS_WITH_CUDA
#include "core/slab/slab_table.hpp"
#endif

namespace hs::bench::detail {

namespace {

/// Distinct keys: murmur3's finalizer is a bijection, so distinct inputs give distinct keys.
std::vector<key_type> keys_from(std::uint64_t first, std::uint64_t n) {
  std::vector<key_type> k(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    key_type x = murmur3_hash{}(static_cast<std::uint32_t>(first + i));
    if (is_reserved_key(x)) x = murmur3_hash{}(static_cast<std::uint32_t>(first + i) | 0x80000000u);
    k[i] = x;
  }
  return k;
}

struct bench_ctx {
  const bench_options& opt;
  bool gpu;
  memory_space space;
  stream_view s;
  template <class T>
  buffer<T> upload(const std::vector<T>& v) const {
    buffer<T> b(space, v.size());
    b.upload(std::span<const T>(v), s);
    synchronize(s);
    return b;
  }
  std::unique_ptr<table> make(std::uint64_t buckets, std::uint64_t max_keys,
                              slab_mode mode = slab_mode::unique) const {
    table_config c;
    c.family = family::slab;
    c.backend = opt.backend;
    c.hash = hash_kind::universal;
    c.slab.mode = mode;
    c.slab.buckets = buckets;
    c.slab.tile = opt.slab_tile;
    // One slab per key is the most any insert batch can take; 1.3x keeps the pool check quiet.
    c.slab.pool_slabs = max_keys + max_keys * 3 / 10 + 4096;
    return make_table(c);
  }
  timing time(const std::function<void()>& setup, const std::function<void()>& work) const {
    return measure(s, gpu, opt.warmup, opt.reps, setup, work);
  }
};

double rate(std::uint64_t n, const timing& t) { return n / (t.median_ms * 1e-3) / 1e9; }

std::uint64_t count_of(const buffer<op_status>& st, std::uint64_t n, op_status want,
                       stream_view s) {
  const auto h = st.download(n, s);
  return static_cast<std::uint64_t>(std::count(h.begin(), h.end(), want));
}

/// Builds n keys into buckets and times build, search-all-present and search-none-present.
struct build_search {
  double utilization, build, hit, miss;
  std::uint64_t chained;
  timing build_t, hit_t, miss_t;  // the repetitions behind the rates (their range)
};

/// Each rate's slowest and fastest repetition ("<column> min" and "max": plot's error bars).
void add_range_columns(result_table& tab) {
  for (const char* op : {"build", "search-all", "search-none"})
    tab.columns.insert(tab.columns.end(), {std::string(op) + " min", std::string(op) + " max"});
}
void add_ranges(result_table& tab, std::uint64_t n, const build_search& r) {
  for (const timing* t : {&r.build_t, &r.hit_t, &r.miss_t}) {
    const rate_range rr = rates_of(n, *t);
    tab.rows.back().push_back(cell(rr.slowest, "%.2f"));
    tab.rows.back().push_back(cell(rr.fastest, "%.2f"));
  }
}

build_search run_build_search(const bench_ctx& c, std::uint64_t n, std::uint64_t buckets) {
  auto t = c.make(buckets, n);
  const auto hk = keys_from(0, n), mk = keys_from(n, n);
  auto keys = c.upload(hk), misses = c.upload(mk), values = c.upload(hk);
  buffer<value_type> out(c.space, n);
  buffer<op_status> st(c.space, n);
  build_search r{};
  const timing b =
      c.time([&] { t->clear(c.s); }, [&] { t->insert(keys.cspan(), values.cspan(), {}, c.s); });
  const table_stats after = t->stats(c.s);
  if (after.live != n || after.failed_full)
    throw gpu_error(strprintf("bench slab: the build stored %llu of %llu keys",
                              (unsigned long long)after.live, (unsigned long long)n));
  const timing h = c.time(nullptr, [&] { t->find(keys.cspan(), out.span(), st.span(), c.s); });
  if (count_of(st, n, op_status::found, c.s) != n)
    throw gpu_error("bench slab: a present key was not found");
  const timing m = c.time(nullptr, [&] { t->find(misses.cspan(), out.span(), st.span(), c.s); });
  if (count_of(st, n, op_status::missing, c.s) != n)
    throw gpu_error("bench slab: an absent key was found");
  r.utilization = after.slab.utilization;
  r.chained = after.slab.chained_slabs;
  r.build = rate(n, b);
  r.hit = rate(n, h);
  r.miss = rate(n, m);
  r.build_t = b, r.hit_t = h, r.miss_t = m;
  return r;
}

result_table fig4(const bench_ctx& c, std::uint64_t n) {
  result_table tab;
  tab.name = "fig4-utilization";
  tab.title = "Fig. 4: build and search of " + format_count(n) +
              " keys against memory utilization (G ops/s)";
  tab.columns = {"beta",  "buckets",    "utilization", "chained slabs",
                 "build", "search-all", "search-none"};
  add_range_columns(tab);
  // The seed's betas, or (--loads) the smallest beta expected to reach each memory utilization:
  // utilization is what the table reaches, so it is measured, not set.
  std::vector<double> betas = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8,
                               0.9, 1.0, 1.2, 1.5, 2.0, 3.0, 5.0};
  if (!c.opt.loads.empty()) {
    betas.clear();
    for (double u : c.opt.loads) betas.push_back(slab::beta_for_utilization(u));
  }
  for (double beta : betas) {
    const std::uint64_t b = slab::buckets_for_beta(n, beta);
    const build_search r = run_build_search(c, n, b);
    tab.add({cell(beta, "%.3f"), cell(double(b), "%.0f"), cell(r.utilization, "%.3f"),
             cell(double(r.chained), "%.0f"), cell(r.build, "%.2f"), cell(r.hit, "%.2f"),
             cell(r.miss, "%.2f")});
    add_ranges(tab, n, r);
  }
  return tab;
}

result_table fig5(const bench_ctx& c, int lo_log, int hi_log) {
  const double beta = slab::beta_for_utilization(0.6);
  result_table tab;
  tab.name = "fig5-size";
  tab.title = strprintf(
      "Fig. 5: build and search against n at 60%% expected utilization (beta %.3f; G ops/s)", beta);
  tab.columns = {"n", "buckets", "utilization", "build", "search-all", "search-none"};
  add_range_columns(tab);
  for (int e = lo_log; e <= hi_log; ++e) {
    const std::uint64_t n = std::uint64_t{1} << e;
    const std::uint64_t b = slab::buckets_for_beta(n, beta);
    const build_search r = run_build_search(c, n, b);
    tab.add({cell("2^" + std::to_string(e)), cell(double(b), "%.0f"), cell(r.utilization, "%.3f"),
             cell(r.build, "%.2f"), cell(r.hit, "%.2f"), cell(r.miss, "%.2f")});
    add_ranges(tab, n, r);
  }
  return tab;
}

result_table target(const bench_ctx& c, std::uint64_t n) {
  const double beta = slab::beta_for_utilization(0.55);
  const std::uint64_t b = slab::buckets_for_beta(n, beta);
  const build_search r = run_build_search(c, n, b);
  result_table tab;
  tab.name = "target";
  tab.title = "The issue's point: " + format_count(n) + " keys at utilization about 0.55 (G ops/s)";
  tab.columns = {"buckets", "utilization", "build", "search-all", "search-none"};
  tab.add({cell(double(b), "%.0f"), cell(r.utilization, "%.3f"), cell(r.build, "%.2f"),
           cell(r.hit, "%.2f"), cell(r.miss, "%.2f")});
  return tab;
}

result_table fig6(const bench_ctx& c) {
  const std::uint64_t total = 2000000;
  const std::uint64_t b = slab::buckets_for_beta(total, slab::beta_for_utilization(0.65));
  const auto hk = keys_from(0, total);
  auto keys = c.upload(hk);
  auto t = c.make(b, total);
  result_table tab;
  tab.name = "fig6-incremental";
  tab.title =
      "Fig. 6: batches inserted until 2M keys are stored, final utilization about 0.65 (total ms)";
  tab.columns = {"batch",   "batches",          "incremental ms", "rebuild-each-time ms",
                 "speedup", "final utilization"};
  for (std::uint64_t batch : {32768ull, 65536ull, 131072ull}) {
    const std::uint64_t batches = (total + batch - 1) / batch;
    const timing inc =
        c.time([&] { t->clear(c.s); },
               [&] {
                 for (std::uint64_t i = 0; i < batches; ++i) {
                   const std::uint64_t lo = i * batch, n = std::min(batch, total - lo);
                   t->insert(keys.cspan().subspan(lo, n), keys.cspan().subspan(lo, n), {}, c.s);
                 }
               });
    const double util = t->stats(c.s).slab.utilization;
    const timing rebuild =
        c.time(nullptr, [&] {  // what a static table must do: build everything again
          for (std::uint64_t i = 0; i < batches; ++i) {
            const std::uint64_t n = std::min(total, (i + 1) * batch);
            t->clear(c.s);
            t->insert(keys.cspan().first(n), keys.cspan().first(n), {}, c.s);
          }
        });
    tab.add({cell(double(batch), "%.0f"), cell(double(batches), "%.0f"),
             cell(inc.median_ms, "%.2f"), cell(rebuild.median_ms, "%.2f"),
             cell(rebuild.median_ms / inc.median_ms, "%.1fx"), cell(util, "%.3f")});
  }
  return tab;
}

/// Fig. 7a's mixes: the shares of new inserts, deletes, searches of present keys and searches of
/// absent keys.
struct fig7_mix {
  const char* name;
  double a, b, cc, d;
};
constexpr fig7_mix fig7_mixes[] = {{"G0 (0.5,0.5,0,0)", 0.5, 0.5, 0, 0},
                                   {"G1 (0.2,0.2,0.3,0.3)", 0.2, 0.2, 0.3, 0.3},
                                   {"G2 (0.1,0.1,0.4,0.4)", 0.1, 0.1, 0.4, 0.4}};

struct mixed_batch {
  buffer<op_kind> kinds;
  buffer<key_type> keys;
  buffer<value_type> values;
};

// One batch per mix: new inserts, deletes and searches of present keys, searches of absent keys,
// each key once, in random order (every warp holds every kind).
mixed_batch make_mixed_batch(const bench_ctx& c, const fig7_mix& g, std::uint64_t batch,
                             const std::vector<key_type>& present,
                             const std::vector<key_type>& fresh,
                             const std::vector<key_type>& absent, std::mt19937_64& rng) {
  std::vector<op_kind> kinds;
  std::vector<key_type> keys;
  const auto na = static_cast<std::uint64_t>(g.a * batch),
             nb = static_cast<std::uint64_t>(g.b * batch);
  const auto nc = static_cast<std::uint64_t>(g.cc * batch), nd = batch - na - nb - nc;
  for (std::uint64_t i = 0; i < na; ++i) kinds.push_back(op_kind::insert), keys.push_back(fresh[i]);
  for (std::uint64_t i = 0; i < nb; ++i)
    kinds.push_back(op_kind::erase), keys.push_back(present[i]);
  for (std::uint64_t i = 0; i < nc; ++i)
    kinds.push_back(op_kind::find), keys.push_back(present[present.size() - 1 - i]);
  for (std::uint64_t i = 0; i < nd; ++i) kinds.push_back(op_kind::find), keys.push_back(absent[i]);
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<op_kind> k2(order.size());
  std::vector<key_type> keys2(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) k2[i] = kinds[order[i]], keys2[i] = keys[order[i]];
  return {c.upload(k2), c.upload(keys2), c.upload(keys2)};
}

// Every mix starts from the same fill, so each timed repetition refills the table first.
std::vector<cell> fig7_row(const bench_ctx& c, double beta, std::uint64_t initial,
                           std::uint64_t batch, const buffer<key_type>& init_keys,
                           const std::vector<mixed_batch>& batches, buffer<value_type>& results,
                           buffer<op_status>& st) {
  const std::uint64_t b = slab::buckets_for_beta(initial, beta);
  auto t = c.make(b, initial + batch);
  auto fill = [&] {
    t->clear(c.s);
    t->insert(init_keys.cspan(), init_keys.cspan(), {}, c.s);
  };
  fill();
  const double util = t->stats(c.s).slab.utilization;
  std::vector<cell> row{cell(beta, "%.2f"), cell(double(b), "%.0f"), cell(util, "%.3f")};
  std::vector<cell> ranges;
  for (std::size_t g = 0; g < batches.size(); ++g) {
    const mixed_batch& m = batches[g];
    const op_batch ops{m.kinds.cspan(), m.keys.cspan(), m.values.cspan()};
    const profile_row named(strprintf("slab mixed beta %.2f G%zu", beta, g));
    const timing tm = c.time(fill, [&] { t->apply(ops, results.span(), st.span(), c.s); });
    if (count_of(st, batch, op_status::failed_full, c.s) ||
        count_of(st, batch, op_status::none, c.s))
      throw gpu_error("bench slab: a concurrent batch left an operation undone");
    row.push_back(cell(rate(batch, tm), "%.2f"));
    const rate_range rr = rates_of(batch, tm);
    ranges.push_back(cell(rr.slowest, "%.2f"));
    ranges.push_back(cell(rr.fastest, "%.2f"));
  }
  for (cell& r : ranges) row.push_back(std::move(r));
  return row;
}

result_table fig7(const bench_ctx& c, std::uint64_t initial, std::uint64_t batch) {
  const auto present = keys_from(0, initial), fresh = keys_from(initial, batch),
             absent = keys_from(initial + batch, batch);
  auto init_keys = c.upload(present);
  std::vector<mixed_batch> batches;
  std::mt19937_64 rng(7);
  for (const fig7_mix& g : fig7_mixes)
    batches.push_back(make_mixed_batch(c, g, batch, present, fresh, absent, rng));
  buffer<value_type> results(c.space, batch);
  buffer<op_status> st(c.space, batch);
  result_table tab;
  tab.name = "fig7a-concurrent";
  tab.title = "Fig. 7a: concurrent mixed batches of " + format_count(batch) + " operations on " +
              format_count(initial) + " stored keys, against initial utilization (G ops/s)";
  tab.columns = {"beta",
                 "buckets",
                 "initial utilization",
                 fig7_mixes[0].name,
                 fig7_mixes[1].name,
                 fig7_mixes[2].name};
  for (const auto& g : fig7_mixes)  // each mix's slowest and fastest repetition (error bars)
    tab.columns.insert(tab.columns.end(),
                       {std::string(g.name) + " min", std::string(g.name) + " max"});
  for (double beta : {0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0})
    tab.add(fig7_row(c, beta, initial, batch, init_keys, batches, results, st));
  return tab;
}

#if HS_WITH_CUDA
result_table allocator(const bench_ctx& c, std::uint64_t n) {
  result_table tab;
  tab.name = "slaballoc";
  tab.title = "SlabAlloc: " + format_count(n) +
              " allocations, one per thread, then as many frees (M slabs/s)";
  tab.columns = {"threads per slab", "allocate", "free"};
  for (int tile : {32, 16, 8, 4, 2}) {
    table_config cfg;
    cfg.family = family::slab;
    cfg.backend = backend::gpu;
    cfg.slab.buckets = 1024;
    cfg.slab.tile = tile;
    cfg.slab.pool_slabs = 2 * n;
    auto t = make_table(cfg);
    auto& st = static_cast<slab::slab_table&>(*t);
    buffer<std::uint32_t> addresses(memory_space::device, n);
    fill_bytes(addresses.data(), memory_space::device, 0xff, n * 4, c.s);
    const timing a = c.time([&] { st.free_slabs(addresses.cspan(), c.s); },
                            [&] { st.allocate_slabs(addresses.span(), c.s); });
    const auto got = addresses.download(n, c.s);
    if (std::count(got.begin(), got.end(), slab::k_null_address))
      throw gpu_error("bench slab: SlabAlloc failed an allocation");
    const timing f = c.time([&] { st.allocate_slabs(addresses.span(), c.s); },
                            [&] { st.free_slabs(addresses.cspan(), c.s); });
    tab.add({cell(double(tile), "%.0f"), cell(n / (a.median_ms * 1e-3) / 1e6, "%.0f"),
             cell(n / (f.median_ms * 1e-3) / 1e6, "%.0f")});
  }
  return tab;
}
#endif

}  // namespace

report slab_suite(const bench_options& opt) {
  for (double u : opt.loads) slab::beta_for_utilization(u);  // refused before anything runs
  report r = new_report("slab", opt);
  const bool gpu = opt.backend == backend::gpu;
  owned_stream stream(gpu);
  const bench_ctx c{opt, gpu, gpu ? memory_space::device : memory_space::host, stream.view()};
  r.metadata.emplace_back(
      "table", strprintf("slab, unique keys (REPLACE), universal hash, %s threads per slab",
                         opt.slab_tile ? std::to_string(opt.slab_tile).c_str() : "default"));
  if (gpu) measure_for(r, opt, c.s);
  // The CPU model runs the same experiments on smaller tables.
  const std::uint64_t n = gpu ? std::uint64_t{1} << 22 : std::uint64_t{1} << 17;
  const table_filter only("slab", opt.only,
                          {"fig4-utilization", "target", "fig5-size", "fig6-incremental",
                           "fig7a-concurrent", "slaballoc"});
  if (only.wants("fig4-utilization")) r.tables.push_back(fig4(c, n));
  if (only.wants("target"))
    r.tables.push_back(target(c, gpu ? std::uint64_t{1} << 25 : std::uint64_t{1} << 18));
  if (only.wants("fig5-size")) r.tables.push_back(gpu ? fig5(c, 18, 26) : fig5(c, 14, 18));
  if (gpu && only.wants("fig6-incremental")) r.tables.push_back(fig6(c));
  if (only.wants("fig7a-concurrent"))
    r.tables.push_back(fig7(c, n, gpu ? std::uint64_t{1} << 22 : std::uint64_t{1} << 16));
#if HS_WITH_CUDA
  if (gpu && only.wants("slaballoc")) r.tables.push_back(allocator(c, std::uint64_t{1} << 22));
#endif
  r.notes.push_back(
      "build: REPLACE of n distinct keys into an empty table; search-all: the same keys; "
      "search-none: n "
      "absent keys; utilization: stored bytes over the memory of base and chained slabs (the "
      "paper's "
      "definition); every run is checked afterwards.");
  r.notes.push_back(
      "Fig. 7a: each batch inserts new keys, deletes and searches stored keys and searches absent "
      "keys "
      "(each key once, in random order); the table is rebuilt before every timed batch.");
  return r;
}

report slab_tile_suite(const bench_options& opt) {
  report r = new_report("slab-tile", opt);
  owned_stream stream(true);
  measure_for(r, opt, stream.view());
  result_table tab;
  tab.name = "tile";
  tab.title =
      "Threads sharing a slab: 2^25 keys at utilization about 0.55, and 2^22 at beta 2 (G ops/s)";
  tab.columns = {"threads", "keys", "utilization", "build", "search-all", "search-none"};
  for (int tile : {32, 16, 8, 4, 2}) {
    bench_options o = opt;
    o.slab_tile = tile;
    const bench_ctx c{o, true, memory_space::device, stream.view()};
    for (auto [n, beta] : {std::pair{std::uint64_t{1} << 25, slab::beta_for_utilization(0.55)},
                           std::pair{std::uint64_t{1} << 22, 2.0}}) {
      const build_search b = run_build_search(c, n, slab::buckets_for_beta(n, beta));
      tab.add({cell(double(tile), "%.0f"), cell(double(n), "%.0f"), cell(b.utilization, "%.3f"),
               cell(b.build, "%.2f"), cell(b.hit, "%.2f"), cell(b.miss, "%.2f")});
    }
  }
  r.tables.push_back(std::move(tab));
  return r;
}

}  // namespace hs::bench::detail
