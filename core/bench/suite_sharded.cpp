// bench sharded: one linear table sharded over 1, 2, 4, ... GPUs through NCCL. Weak scaling (2^27
// slots and 2^26 keys a GPU) and strong scaling (2^28 slots and 2^27 keys in all); inserts, hits,
// misses, erases and a mix; 32- and 64-bit keys; each with the phases of its slowest GPU. Beside
// them, in the same run, the one-GPU table and NCCL's own all-to-all of the same bytes. Every GPU
// starts a batch with its own slice of the keys, as a program over several hosts would, so the
// partition and the exchange are all-to-all. Host clock around each whole batch (it returns with
// every GPU done); medians after warm-up. `batches`: what one batch costs by its size.
#include <algorithm>
#include <memory>
#include <string>

#include "core/bench/bench_keys.hpp"
#include "core/bench/nccl_rate.hpp"
#include "core/bench/suites.hpp"
#include "core/bench/table_filter.hpp"
#include "core/bench/timing.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/shard/nccl_exchange.hpp"
#include "core/shard/one_rank_table.hpp"
#include "core/shard/sharded_table.hpp"

namespace hs::bench::detail {

namespace {

/// Each GPU's slice of the keys, in that GPU's memory, and room for its answers. `mixed`: the
/// window's mix, its keys and kinds in one batch (a tenth of them misses).
template <class K, class V>
struct rank_keys {
  std::vector<buffer<K>> keys, misses, mixed;
  std::vector<buffer<V>> values, found;
  std::vector<buffer<op_kind>> kinds;
  std::vector<buffer<op_status>> status;
};

template <class K, class V>
rank_keys<K, V> spread_keys(std::uint32_t gpus, std::uint64_t per) {
  auto all = unique_keys_of<K, V>(memory_space::device, per * gpus, 17);
  auto miss = miss_keys_of<K>(memory_space::device, per * gpus, 17);
  // The window's mix in tenths: inserts 2 (here replacing), hits 5, misses 1, erases 2.
  std::vector<op_kind> kinds(per);
  for (std::uint64_t i = 0; i < per; ++i)
    kinds[i] = i % 10 < 2 ? op_kind::insert : i % 10 < 8 ? op_kind::find : op_kind::erase;
  const auto is_miss = [](std::uint64_t i) { return i % 10 == 7; };
  rank_keys<K, V> r;
  constexpr memory_space sp = memory_space::device;
  for (std::uint32_t g = 0; g < gpus; ++g) {
    const device_scope on(static_cast<int>(g));
    r.keys.emplace_back(sp, per);
    r.misses.emplace_back(sp, per);
    r.mixed.emplace_back(sp, per);
    r.values.emplace_back(sp, per);
    r.found.emplace_back(sp, per);
    r.kinds.emplace_back(sp, per);
    r.status.emplace_back(sp, per);
    copy_bytes(r.keys[g].data(), sp, all.keys.data() + g * per, sp, per * sizeof(K), {});
    copy_bytes(r.values[g].data(), sp, all.values.data() + g * per, sp, per * sizeof(V), {});
    copy_bytes(r.misses[g].data(), sp, miss.data() + g * per, sp, per * sizeof(K), {});
    r.kinds[g].upload(kinds);
    std::vector<K> hit(per), miss_keys(per);
    copy_bytes(hit.data(), memory_space::host, r.keys[g].data(), sp, per * sizeof(K), {});
    copy_bytes(miss_keys.data(), memory_space::host, r.misses[g].data(), sp, per * sizeof(K), {});
    for (std::uint64_t i = 0; i < per; ++i)
      if (is_miss(i)) hit[i] = miss_keys[i];
    r.mixed[g].upload(hit);
    synchronize({});
  }
  return r;
}

enum class key_choice { inserted, misses, mixed };

struct bench_op {
  const char* name;
  sharded_op op;
  key_choice keys;
  bool refill;  ///< the table is emptied and filled with the keys before each run
};
constexpr bench_op k_ops[] = {{"insert", sharded_op::insert, key_choice::inserted, false},
                              {"find-hit", sharded_op::find, key_choice::inserted, false},
                              {"find-miss", sharded_op::find, key_choice::misses, false},
                              {"erase", sharded_op::erase, key_choice::inserted, true},
                              {"mix", sharded_op::apply, key_choice::mixed, true}};

struct op_result {
  timing t;
  std::array<double, k_shard_phases> phases{};  ///< the slowest GPU's, last timed run
};

/// One batch of every GPU's slice: through the sharded table's run, or the one-GPU table's call.
template <class K, class V>
void run_batch(table& t, sharded_op op, key_choice choice, rank_keys<K, V>& k) {
  auto* sharded = dynamic_cast<sharded_table<K, V>*>(&t);
  const std::size_t gpus = sharded ? sharded->devices() : 1;
  std::vector<rank_io<K, V>> io(gpus);
  for (std::size_t g = 0; g < gpus; ++g) {
    io[g].keys = (choice == key_choice::misses  ? k.misses[g]
                  : choice == key_choice::mixed ? k.mixed[g]
                                                : k.keys[g])
                     .cspan();
    io[g].values = k.values[g].cspan();
    io[g].kinds = k.kinds[g].cspan();
    if (op == sharded_op::find || op == sharded_op::apply) io[g].results = k.found[g].span();
  }
  if (sharded) return sharded->run(op, io);
  const rank_io<K, V>& one = io[0];
  switch (op) {
    case sharded_op::insert: t.insert(one.keys, one.values, {}, {}); break;
    case sharded_op::find: t.find(one.keys, one.results, {}, {}); break;
    case sharded_op::erase: t.erase(one.keys, {}, {}); break;
    case sharded_op::apply:
      t.apply(basic_op_batch<K, V>{one.kinds, one.keys, one.values}, one.results, {}, {});
      break;
  }
  synchronize({});
}

template <class K, class V>
op_result time_op(table& t, const bench_op& op, rank_keys<K, V>& k, const bench_options& opt) {
  const auto setup = [&] {
    if (op.op == sharded_op::insert || op.refill) t.clear({});
    if (op.refill) run_batch(t, sharded_op::insert, key_choice::inserted, k);
  };
  op_result r;
  r.t = measure({}, false, opt.warmup, opt.reps, setup, [&] { run_batch(t, op.op, op.keys, k); });
  if (auto* v = as_sharded(t)) {
    const batch_exchange& x = v->last_exchange();
    r.phases = x.phase_ms[x.slowest()];
  }
  return r;
}

struct scaling {
  const char* name;
  bool weak;
};

/// Rows of one width and scaling at `gpus` GPUs; per_gpu_one holds the one-GPU rates (G ops/s a
/// GPU) of each op, filled by the first call (gpus = 1).
template <class K, class V>
void width_rows(result_table& tab, const scaling& sc, std::uint32_t gpus,
                std::vector<double>& one_gpu, double& insert_exchange_ms,
                const bench_options& opt) {
  const std::uint64_t slots = sc.weak ? (std::uint64_t{1} << 27) * gpus : std::uint64_t{1} << 28;
  const std::uint64_t per = sc.weak ? std::uint64_t{1} << 26 : (std::uint64_t{1} << 27) / gpus;
  table_config cfg;
  cfg.backend = backend::gpu;
  cfg.capacity = opt.capacity ? opt.capacity * gpus : slots;
  cfg.width = width_of<K>;
  cfg.devices = gpus;
  auto t = make_table(cfg);
  if (sharded_view* v = as_sharded(*t); v && opt.chunk_keys) v->set_chunk_keys(opt.chunk_keys);
  auto keys = spread_keys<K, V>(gpus, per);
  for (std::size_t i = 0; i < std::size(k_ops); ++i) {
    const op_result r = time_op(*t, k_ops[i], keys, opt);
    const double rate = double(per * gpus) / (r.t.median_ms * 1e6);
    if (gpus == 1) one_gpu[i] = rate;
    if (i == 0) insert_exchange_ms = r.phases[2];
    std::vector<cell> row = {std::to_string(gpus),
                             std::to_string(bits_of(cfg.width)),
                             sc.name,
                             format_count(cfg.capacity),
                             format_count(per),
                             k_ops[i].name,
                             cell(rate, "%.2f"),
                             cell(rate / gpus, "%.2f"),
                             cell(rate / gpus / one_gpu[i], "%.2f")};
    for (const double ms : r.phases) row.push_back(gpus > 1 ? cell(ms, "%.2f") : cell("-"));
    tab.add(std::move(row));
  }
}

/// Every GPU count of one width and scaling, with NCCL's all-to-all of the inserts' bytes.
template <class K, class V>
void width_block(result_table& tab, result_table& a2a, const scaling& sc, std::uint32_t most,
                 const bench_options& opt) {
  std::vector<double> one_gpu(std::size(k_ops), 0);
  for (std::uint32_t g = 1; g <= most; g *= 2) {
    double exchange_ms = 0;
    width_rows<K, V>(tab, sc, g, one_gpu, exchange_ms, opt);
    if (g == 1) continue;
    const std::uint64_t per = sc.weak ? std::uint64_t{1} << 26 : (std::uint64_t{1} << 27) / g;
    const std::uint64_t bytes = per * (sizeof(K) + sizeof(V));
    const double ms = nccl_all_to_all_ms(g, bytes, opt.reps);
    // The same bytes as the inserts send them: keys and values, a lane each to every peer.
    const double two = nccl_all_to_all_ms(g, bytes, opt.reps, 2);
    a2a.add({std::to_string(g), std::to_string(sizeof(K) * 8), sc.name, format_bytes(bytes),
             cell(ms, "%.2f"), cell(double(bytes) / (ms * 1e6), "%.1f"), cell(two, "%.2f"),
             cell(exchange_ms, "%.2f"), cell(ms / exchange_ms, "%.2f")});
  }
}

/// One insert batch with statuses at each size, as the window's sessions run them: every key made
/// on GPU 0 (the hs::table call), and, beside it, every GPU starting with its own slice. A small
/// batch shows the fixed cost a batch pays: its host steps, NCCL's launches, the host's read of
/// the counts. The one-GPU table's batch of the same keys a GPU is the baseline; on one GPU the
/// second column is the sharded path over one rank.
template <class K, class V>
void batch_cost_rows(result_table& tab, std::uint32_t most, const bench_options& opt) {
  for (const int bits : {10, 14, 18, 20, 22}) {
    const std::uint64_t per = std::uint64_t{1} << bits;
    double one_gpu_ms = 0;
    for (std::uint32_t g = 1; g <= most; g *= 2) {
      table_config cfg;
      cfg.backend = backend::gpu;
      cfg.width = width_of<K>;
      cfg.devices = g;
      cfg.capacity = std::max<std::uint64_t>(per * 4, std::uint64_t{1} << 16) * g;  // load 1/4
      auto t = make_table(cfg);
      auto from0 = unique_keys_of<K, V>(memory_space::device, per * g, 29);
      buffer<op_status> status(memory_space::device, per * g);
      const timing whole = measure(
          {}, false, opt.warmup, opt.reps, [&] { t->clear({}); },
          [&] {
            t->insert(from0.keys.cspan(), from0.values.cspan(), status.span(), {});
            synchronize({});
          });
      if (g == 1) one_gpu_ms = whole.median_ms;
      std::vector<cell> row = {std::to_string(g), std::to_string(bits_of(cfg.width)),
                               format_count(per), cell(whole.median_ms * 1e3, "%.0f"),
                               cell(one_gpu_ms / whole.median_ms, "%.2f")};
      std::unique_ptr<sharded_table<K, V>> one_rank;
      if (g == 1 && HS_WITH_NCCL) one_rank = make_one_rank_table<K, V>(cfg);  // it needs NCCL
      auto* sharded = g == 1 ? one_rank.get() : dynamic_cast<sharded_table<K, V>*>(t.get());
      if (!sharded) {
        for (std::size_t c = 0; c < 2 + k_shard_phases; ++c) row.push_back(cell("-"));
        tab.add(std::move(row));
        continue;
      }
      batch_exchange x = sharded->last_exchange();  // the batch from GPU 0's
      auto k = spread_keys<K, V>(g, per);
      std::vector<rank_io<K, V>> io(g);
      for (std::uint32_t r = 0; r < g; ++r)
        io[r] = {{}, k.keys[r].cspan(), k.values[r].cspan(), {}, k.status[r].span()};
      const timing spread = measure(
          {}, false, opt.warmup, opt.reps, [&] { sharded->clear({}); },
          [&] { sharded->run(sharded_op::insert, io); });
      if (g == 1) x = sharded->last_exchange();
      row.push_back(cell(spread.median_ms * 1e3, "%.0f"));
      row.push_back(cell(one_gpu_ms / spread.median_ms, "%.2f"));
      for (const double ms : x.phase_ms[x.slowest()]) row.push_back(cell(ms * 1e3, "%.0f"));
      tab.add(std::move(row));
    }
  }
}

/// `--only weak|strong|batches|32|64`: the named tables and widths; naming none of one kind keeps
/// all.
struct sharded_filter {
  bool scaling[3] = {true, true, true};  // weak, strong, batches
  bool width[2] = {true, true};          // 32, 64
  explicit sharded_filter(const std::vector<std::string>& only) {
    const table_filter known("sharded", only, {"weak", "strong", "batches", "32", "64"});
    const auto has = [&](const char* n) {
      return std::find(only.begin(), only.end(), n) != only.end();
    };
    if (has("weak") || has("strong") || has("batches"))
      scaling[0] = has("weak"), scaling[1] = has("strong"), scaling[2] = has("batches");
    if (has("32") || has("64")) width[0] = has("32"), width[1] = has("64");
  }
};

}  // namespace

report sharded_suite(const bench_options& opt) {
  // Started as one rank of several processes (bench sharded --processes, mpirun): that path.
  if (const auto join = rank_join_from_environment(gpu_count()))
    return sharded_ranks_suite(*join, opt);
  report r = new_report("sharded", opt);
  const std::uint32_t have = static_cast<std::uint32_t>(gpu_count());
  const std::uint32_t most = opt.gpus ? std::min(opt.gpus, have) : have;
  if (opt.gpus > have)
    throw user_error("bench sharded --gpus " + std::to_string(opt.gpus) + ": this machine has " +
                     std::to_string(have) + " GPUs");
  result_table tab;
  tab.name = "scaling";
  tab.title = "One linear table over 1 to " + std::to_string(most) +
              " GPUs (NCCL): G ops/s in all and a GPU, a GPU against the one-GPU table, and "
              "the slowest GPU's phases (ms, last timed run)";
  tab.columns = {"GPUs", "key bits", "scaling",       "slots",        "keys a GPU",
                 "op",   "G ops/s",  "G ops/s a GPU", "a GPU / 1 GPU"};
  for (const std::string_view p : k_shard_phase_names)
    tab.columns.push_back(std::string(p) + " ms");
  result_table a2a;
  a2a.name = "exchange";
  a2a.title = "The inserts' exchange against NCCL's own all-to-all of the same bytes";
  a2a.columns = {"GPUs",
                 "key bits",
                 "scaling",
                 "bytes a GPU",
                 "NCCL all-to-all ms",
                 "NCCL GB/s a GPU",
                 "NCCL in two lanes ms",
                 "insert exchange ms",
                 "exchange / NCCL rate"};
  const sharded_filter only(opt.only);
  for (const scaling sc : {scaling{"weak", true}, scaling{"strong", false}}) {
    if (!only.scaling[sc.weak ? 0 : 1]) continue;
    if (only.width[0]) width_block<key_type, value_type>(tab, a2a, sc, most, opt);
    if (only.width[1]) width_block<wide_key, wide_value>(tab, a2a, sc, most, opt);
  }
  result_table batches;
  batches.name = "batches";
  batches.title =
      "One insert batch with statuses by its size (us): every key from GPU 0 (as the window's "
      "sessions), and every GPU starting with its own slice, the one-GPU table's batch over each; "
      "on 1 GPU the second is the sharded path over one NCCL rank. Phases: the slowest GPU's, of "
      "the batch from GPU 0 (on 1 GPU, of the one rank's)";
  batches.columns = {"GPUs",          "key bits",           "keys a GPU",
                     "from GPU 0 us", "1 GPU / from GPU 0", "spread us",
                     "1 GPU / spread"};
  for (const std::string_view p : k_shard_phase_names)
    batches.columns.push_back(std::string(p) + " us");
  if (only.scaling[2]) {
    if (only.width[0]) batch_cost_rows<key_type, value_type>(batches, most, opt);
    if (only.width[1]) batch_cost_rows<wide_key, wide_value>(batches, most, opt);
  }
  for (result_table* t : {&tab, &a2a, &batches})
    if (!t->rows.empty()) r.tables.push_back(std::move(*t));
  r.metadata.emplace_back("chunk", opt.chunk_keys ? format_count(opt.chunk_keys) + " keys a GPU"
                                                  : "the table's default (67,108,864 keys a GPU)");
  r.notes.push_back(
      "mix: the window's, in one batch: 2 tenths inserts (replacing), 5 finds that hit, 1 that "
      "misses, 2 erases; erase and mix refill the table before each run");
  return r;
}

}  // namespace hs::bench::detail
