// bench sharded run as one rank of a table across processes (HS_RANK and HS_RANKS set, by
// `bench sharded --processes N`, mpirun or Slurm): the weak-scaling rows of `bench sharded` at the
// joined number of GPUs, one process a GPU, each rank's batch its own slice of the keys; beside
// them NCCL's all-to-all of the inserts' bytes between the same processes. Every rank runs every
// batch (they are collective); rank 0's clock and phases are reported.
#include <string>

#include "core/bench/bench_keys.hpp"
#include "core/bench/suites.hpp"
#include "core/bench/timing.hpp"
#include "core/common/device.hpp"
#include "core/common/format.hpp"
#include "core/shard/nccl_exchange.hpp"
#include "core/shard/rank_table.hpp"
#include "core/shard/sharded_table.hpp"

namespace hs::bench::detail {

namespace {

struct rank_op {
  const char* name;
  sharded_op op;
  bool misses, refill;
};
constexpr rank_op k_rank_ops[] = {{"insert", sharded_op::insert, false, false},
                                  {"find-hit", sharded_op::find, false, false},
                                  {"find-miss", sharded_op::find, true, false},
                                  {"erase", sharded_op::erase, false, true}};

/// NCCL's all-to-all of `bytes` a rank between the joined processes (host clock, median).
double ranks_all_to_all_ms(const rank_join& join, std::uint64_t bytes, int reps) {
  auto exchange = make_nccl_rank_exchange(join);
  const std::uint32_t n = join.ranks;
  const std::uint64_t seg = bytes / n;
  buffer<unsigned char> send(memory_space::device, seg * n), recv(memory_space::device, seg * n);
  fill_bytes(send.data(), memory_space::device, 0x5a, seg * n, {});
  owned_stream stream(true);
  rank_segments l;
  l.rank = join.rank;
  l.stream = stream.view();
  for (std::uint32_t j = 0; j < n; ++j) {
    l.send.push_back(send.data() + j * seg);
    l.send_bytes.push_back(seg);
    l.recv.push_back(recv.data() + j * seg);
    l.recv_bytes.push_back(seg);
  }
  const auto once = [&] {
    exchange->all_to_all({&l, 1}, "all-to-all");
    exchange->wait(join.rank, stream.view());
  };
  once();  // NCCL connects its peers on the first call
  return measure({}, false, 0, reps, [] {}, once).median_ms;
}

template <class K, class V>
void rank_rows(result_table& tab, result_table& a2a, const rank_join& join,
               const bench_options& opt) {
  const std::uint64_t per = std::uint64_t{1} << 26;
  table_config cfg;
  cfg.backend = backend::gpu;
  cfg.capacity = (opt.capacity ? opt.capacity : std::uint64_t{1} << 27) * join.ranks;
  cfg.width = width_of<K>;
  auto t = make_rank_table(cfg, join);
  auto& sharded = dynamic_cast<sharded_table<K, V>&>(*t);
  if (opt.chunk_keys) sharded.set_chunk_keys(opt.chunk_keys);
  // Every rank draws the keys of all and keeps its slice, so that the ranks' keys are distinct.
  const auto all = unique_keys_of<K, V>(memory_space::device, per * join.ranks, 17);
  const auto miss = miss_keys_of<K>(memory_space::device, per * join.ranks, 17);
  const std::size_t from = std::size_t{join.rank} * per;
  buffer<V> found(memory_space::device, per);
  const auto batch = [&](const rank_op& op) {
    rank_io<K, V> io;
    io.keys = (op.misses ? miss.cspan() : all.keys.cspan()).subspan(from, per);
    io.values = all.values.cspan().subspan(from, per);
    if (op.op == sharded_op::find) io.results = found.span();
    sharded.run(op.op, {&io, 1});
  };
  for (const rank_op& op : k_rank_ops) {
    const auto setup = [&] {
      if (op.op == sharded_op::insert || op.refill) t->clear({});
      if (op.refill) batch(k_rank_ops[0]);
    };
    const timing r = measure({}, false, opt.warmup, opt.reps, setup, [&] { batch(op); });
    const double rate = double(per * join.ranks) / (r.median_ms * 1e6);
    std::vector<cell> row = {std::to_string(join.ranks),
                             std::to_string(sizeof(K) * 8),
                             format_count(cfg.capacity),
                             format_count(per),
                             op.name,
                             cell(rate, "%.2f"),
                             cell(rate / join.ranks, "%.2f")};
    const batch_exchange last = sharded.last_exchange();  // a copy: its phases outlive the loop
    for (const double ms : last.phase_ms[join.rank]) row.push_back(cell(ms, "%.2f"));
    tab.add(std::move(row));
  }
  const std::uint64_t bytes = per * (sizeof(K) + sizeof(V));
  const double ms = ranks_all_to_all_ms(join, bytes, opt.reps);
  a2a.add({std::to_string(join.ranks), std::to_string(sizeof(K) * 8), format_bytes(bytes),
           cell(ms, "%.2f"), cell(double(bytes) / (ms * 1e6), "%.1f")});
}

}  // namespace

report sharded_ranks_suite(const rank_join& join, const bench_options& opt) {
  report r = new_report("sharded", opt);
  const device_scope on(join.device);
  result_table tab;
  tab.name = "scaling-processes";
  tab.title = "One linear table over " + std::to_string(join.ranks) +
              " processes, a GPU each (NCCL, ncclCommInitRank): weak scaling, rank 0's clock "
              "and phases (ms, last timed run)";
  tab.columns = {"GPUs", "key bits", "slots", "keys a GPU", "op", "G ops/s", "G ops/s a GPU"};
  for (const std::string_view p : k_shard_phase_names)
    tab.columns.push_back(std::string(p) + " ms");
  result_table a2a;
  a2a.name = "exchange-processes";
  a2a.title = "NCCL's own all-to-all between the same processes, of the inserts' bytes";
  a2a.columns = {"GPUs", "key bits", "bytes a GPU", "NCCL all-to-all ms", "NCCL GB/s a GPU"};
  rank_rows<key_type, value_type>(tab, a2a, join, opt);
  rank_rows<wide_key, wide_value>(tab, a2a, join, opt);
  r.tables.push_back(std::move(tab));
  r.tables.push_back(std::move(a2a));
  r.metadata.emplace_back("processes", std::to_string(join.ranks) + " (" + join.source + ")");
  return r;
}

}  // namespace hs::bench::detail
