// One batch of the session's pipeline: buffers, launch and outcome.
#include "app/session/batch.hpp"

#include <algorithm>
#include <vector>

namespace hs::app {

batch::batch(memory_space s, bool gpu, std::size_t family_counters)
    : space(s),
      scratch(s, k_op_status_count),
      counts(gpu ? memory_space::pinned : memory_space::host, k_op_status_count),
      family_counts(gpu ? memory_space::pinned : memory_space::host,
                    std::max<std::size_t>(family_counters, 1)),
      timer(gpu),
      generated(gpu),
      ran(gpu),
      done(gpu) {}

namespace {
template <class K, class V>
void reserve_operands(batch_buffers<K, V>& o, memory_space space, std::uint64_t n) {
  o.keys = buffer<K>(space, n);
  o.values = buffer<V>(space, n);
  o.results = buffer<V>(space, n);
}

template <class K, class V>
batch_buffers<K, V>& operands_of(batch& b) {
  if constexpr (sizeof(K) == 8)
    return b.wide;
  else
    return b.narrow;
}

// Room for `n` operations of keys K: the buffers only grow, and the other width's are freed.
template <class K, class V>
void reserve(batch& b, std::uint64_t n) {
  batch_buffers<K, V>& o = operands_of<K, V>(b);
  if (n <= b.room && o.keys.size() >= b.room) return;
  n = std::max(n, b.room);
  b.kinds = buffer<op_kind>(b.space, n);
  b.status = buffer<op_status>(b.space, n);
  b.narrow = {};
  b.wide = {};
  reserve_operands(o, b.space, n);
  b.room = n;
}

// The step's operations as generated, each with what it will find (stream-ordered after every
// earlier batch, before this one).
template <class K, class V>
std::shared_ptr<step_trace> trace_before(batch& b, std::uint64_t n, const launch_context& c,
                                         stream_view s) {
  auto t = std::make_shared<step_trace>();
  const batch_buffers<K, V>& o = operands_of<K, V>(b);
  const auto kinds = b.kinds.download(n, s);
  const auto keys = o.keys.download(n, s);
  const auto values = o.values.download(n, s);
  for (std::uint64_t i = 0; i < n; ++i) {
    stepped_op op;
    op.kind = kinds[i];
    op.key = keys[i];
    op.value = values[i];
    if (c.fam.trace_before) c.fam.trace_before(c.tbl, c.config, c.capacity, op, s);
    t->ops.push_back(std::move(op));
  }
  return t;
}

// Typed keys: copied in as they are.
template <class K, class V>
void upload_given(batch& b, const std::vector<given_op>& given, stream_view s) {
  std::vector<op_kind> kinds;
  std::vector<K> keys;
  std::vector<V> values;
  for (const given_op& o : given) {
    kinds.push_back(o.kind);
    keys.push_back(static_cast<K>(o.key));  // the session refused keys wider than the table's
    values.push_back(o.kind == op_kind::insert ? static_cast<V>(o.value) : key_limits<V>::empty);
  }
  batch_buffers<K, V>& ops = operands_of<K, V>(b);
  b.kinds.upload(std::span<const op_kind>(kinds), s);
  ops.keys.upload(std::span<const K>(keys), s);
  ops.values.upload(std::span<const V>(values), s);
  synchronize(s);  // the host vectors go at the end of this call
}

// A traced step's statuses and found values.
template <class V>
void finish_trace(batch& b, const buffer<V>& results_buffer) {
  const std::uint64_t n = b.trace->ops.size();
  const auto status = b.status.download(n);
  const auto results = results_buffer.download(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    b.trace->ops[i].status = status[i];
    b.trace->ops[i].result = b.trace->ops[i].kind == op_kind::find ? results[i] : 0;
  }
}

template <class K, class V>
void launch_as(batch& b, const workload::workload_spec& spec, bool traced, const launch_context& c,
               batch_streams streams) {
  table& t = c.tbl;
  const std::uint64_t n = b.plan.size;
  reserve<K, V>(b, n);
  batch_buffers<K, V>& o = operands_of<K, V>(b);
  // The buffers are free: a batch is reused only after its last launch retired (done passed).
  if (b.given)
    upload_given<K, V>(b, *b.given, streams.generate);
  else
    workload::generate(spec, b.plan, t.space(), {b.kinds.span(), o.keys.span(), o.values.span()},
                       streams.generate);
  b.generated.record(streams.generate);
  const stream_view s = streams.work;
  b.generated.make_wait(s);
  b.trace = traced ? trace_before<K, V>(b, n, c, s) : nullptr;
  b.complete_trace = [](batch& done) { finish_trace(done, operands_of<K, V>(done).results); };
  // A traced step reads every result back, and only finds write theirs: the rest read as 0.
  if (b.trace) fill_bytes(o.results.data(), t.space(), 0, n * sizeof(V), s);
  const auto keys = o.keys.cspan().first(n);
  const auto st = b.status.span().first(n);
  b.timer.start(s);
  if (b.plan.only(op_kind::insert))
    t.insert(keys, o.values.cspan().first(n), st, s);
  else if (b.plan.only(op_kind::erase))
    t.erase(keys, st, s);
  else if (b.plan.only(op_kind::find))
    t.find(keys, o.results.span().first(n), st, s);
  else
    t.apply(basic_op_batch<K, V>{b.kinds.cspan().first(n), keys, o.values.cspan().first(n)},
            o.results.span().first(n), st, s);
  b.timer.stop(s);
  // In stream order after this batch, before the next: the counters are this batch's.
  if (c.fam.copy_batch_counters) c.fam.copy_batch_counters(t, b.family_counts.data(), s);
  b.ran.record(s);
  b.ran.make_wait(streams.tally);
  count_statuses(st, t.space(), b.scratch.data(), b.counts.data(), b.counts.space(), streams.tally);
  b.done.record(streams.tally);
}
}  // namespace

void launch(batch& b, const workload::workload_spec& spec, bool traced, const launch_context& c,
            batch_streams streams) {
  with_key_width(c.tbl.width(), [&](auto key) {
    using K = decltype(key);
    launch_as<K, value_of_key<K>>(b, spec, traced, c, streams);
  });
}

batch_outcome finish(batch& b, std::uint64_t serial) {
  batch_outcome o;
  o.ms = b.timer.elapsed_ms();  // the calls that can fail come before any counting
  if (b.trace) {
    b.complete_trace(b);
    b.trace->serial = serial;
  }
  const std::uint64_t* c = b.counts.data();
  o.inserted = c[static_cast<int>(op_status::inserted)];
  o.erased = c[static_cast<int>(op_status::erased)];
  o.failed_full = c[static_cast<int>(op_status::failed_full)];
  o.rejected =
      c[static_cast<int>(op_status::rejected_key)] + c[static_cast<int>(op_status::rejected_value)];
  return o;
}

}  // namespace hs::app
