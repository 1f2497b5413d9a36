// bench linear, table "full": a table at load 0.9 sent 0.4 of its slots in new keys, from one
// stream or from eight at once (each stream's part in 4 batches, launched round-robin without
// waiting), so that three quarters of them must be refused; then all those keys looked up again
// from the same streams (the refused ones are misses in a full table). What a refusal and a miss
// cost once no slot is free.
#include "core/bench/suite_linear_full.hpp"

#include <algorithm>

#include "core/bench/bench_keys.hpp"
#include "core/bench/timing.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::bench::detail {

namespace {

constexpr double k_base_load = 0.9;
constexpr double k_sent = 0.4;  // new keys, as a fraction of the slots
constexpr int k_rounds = 4;

/// Runs launch(stream, part) for every stream's part, in rounds, each stream fenced by s: timed on
/// s as one piece of work.
template <class Launch>
void on_streams(stream_view s, const std::vector<owned_stream>& streams, std::uint64_t n,
                Launch&& launch) {
  stream_event start(true);
  start.record(s);
  for (const owned_stream& o : streams) start.make_wait(o.view());
  const std::uint64_t parts = streams.size() * k_rounds;
  for (int round = 0; round < k_rounds; ++round)
    for (std::size_t i = 0; i < streams.size(); ++i) {
      const std::uint64_t p = round * streams.size() + i;
      launch(streams[i].view(), n * p / parts, n * (p + 1) / parts);
    }
  for (const owned_stream& o : streams) {
    stream_event done(true);
    done.record(o.view());
    done.make_wait(s);
  }
}

std::uint64_t count(const buffer<op_status>& st, op_status want) {
  const auto host = st.download();
  return static_cast<std::uint64_t>(std::count(host.begin(), host.end(), want));
}

}  // namespace

result_table full_table(const bench_options& opt, table_config cfg, stream_view s) {
  if (opt.backend != backend::gpu) throw user_error("bench linear: the full table needs the GPU");
  cfg.capacity = std::uint64_t{1} << 20;  // the size the issue measured; misses cost ~capacity
  const auto base = static_cast<std::uint64_t>(k_base_load * cfg.capacity);
  const auto sent = static_cast<std::uint64_t>(k_sent * cfg.capacity);
  const std::uint64_t room = cfg.capacity - base;
  const key_set keys = unique_keys(memory_space::device, base + sent, 77);
  const auto k = keys.keys.cspan(), v = keys.values.cspan();
  buffer<op_status> status(memory_space::device, sent);
  buffer<value_type> found(memory_space::device, sent);

  result_table tab;
  tab.name = "full";
  tab.title = "A table at load 0.9 sent 0.4 of its slots in new keys, from 1 or 8 streams (" +
              format_count(cfg.capacity) + " slots)";
  tab.columns = {"streams", "slots",     "sent",   "refused", "longest probe",
                 "insert",  "insert ms", "misses", "find",    "find ms"};
  for (const int nstreams : {1, 8}) {
    std::vector<owned_stream> streams;
    for (int i = 0; i < nstreams; ++i) streams.emplace_back(true);
    auto t = make_table(cfg);
    const timing ins = measure(
        s, true, opt.warmup, opt.reps,
        [&] {
          t->clear(s);
          t->insert(k.first(base), v.first(base), {}, s);
          t->stats(s);  // the bound exact again: the batches below start from what is there
        },
        [&] {
          on_streams(s, streams, sent, [&](stream_view on, std::uint64_t lo, std::uint64_t hi) {
            t->insert(k.subspan(base + lo, hi - lo), v.subspan(base + lo, hi - lo),
                      status.span().subspan(lo, hi - lo), on);
          });
        });
    synchronize(s);
    const std::uint64_t refused = count(status, op_status::failed_full);
    const table_stats st = t->stats(s);
    if (refused != sent - room || st.occupied != cfg.capacity ||
        count(status, op_status::inserted) != room)
      throw gpu_error(
          strprintf("bench linear: filling past full from %d streams refused %llu "
                    "keys of %llu, where %llu had no slot",
                    nstreams, (unsigned long long)refused, (unsigned long long)sent,
                    (unsigned long long)(sent - room)));
    const timing fnd = measure(s, true, opt.warmup, opt.reps, nullptr, [&] {
      on_streams(s, streams, sent, [&](stream_view on, std::uint64_t lo, std::uint64_t hi) {
        t->find(k.subspan(base + lo, hi - lo), found.span().subspan(lo, hi - lo),
                status.span().subspan(lo, hi - lo), on);
      });
    });
    synchronize(s);
    const std::uint64_t misses = count(status, op_status::missing);
    if (misses != refused)
      throw gpu_error(strprintf("bench linear: %llu of %llu refused keys were missing afterwards",
                                (unsigned long long)misses, (unsigned long long)refused));
    tab.add({cell(double(nstreams), "%.0f"), cell(double(cfg.capacity), "%.0f"),
             cell(double(sent), "%.0f"), cell(double(refused), "%.0f"),
             cell(double(st.max_displacement), "%.0f"),
             cell(sent / (ins.median_ms * 1e-3) / 1e9, "%.4f"), cell(ins.median_ms, "%.2f"),
             cell(double(misses), "%.0f"), cell(sent / (fnd.median_ms * 1e-3) / 1e9, "%.4f"),
             cell(fnd.median_ms, "%.2f")});
  }
  return tab;
}

}  // namespace hs::bench::detail
