// One batch of the session's pipeline: buffers, launch and outcome.
#include "app/session/batch.hpp"

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

void batch::reserve(std::uint64_t n) {
  if (n <= room) return;
  kinds = buffer<op_kind>(space, n);
  keys = buffer<key_type>(space, n);
  values = buffer<value_type>(space, n);
  results = buffer<value_type>(space, n);
  status = buffer<op_status>(space, n);
  room = n;
}

namespace {
// The step's operations as generated, each with what it will find (stream-ordered after every
// earlier batch, before this one).
std::shared_ptr<step_trace> trace_before(batch& b, std::uint64_t n, const launch_context& c,
                                         stream_view s) {
  auto t = std::make_shared<step_trace>();
  const auto kinds = b.kinds.download(n, s);
  const auto keys = b.keys.download(n, s);
  const auto values = b.values.download(n, s);
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
}  // namespace

void launch(batch& b, const workload::workload_spec& spec, bool traced, const launch_context& c,
            batch_streams streams) {
  table& t = c.tbl;
  const std::uint64_t n = b.plan.size;
  b.reserve(n);
  // The buffers are free: a batch is reused only after its last launch retired (done passed).
  if (b.given) {  // typed keys: copied in as they are
    std::vector<op_kind> kinds;
    std::vector<key_type> keys;
    std::vector<value_type> values;
    for (const given_op& o : *b.given) {
      kinds.push_back(o.kind);
      keys.push_back(o.key);
      values.push_back(o.kind == op_kind::insert ? o.value : k_empty);
    }
    b.kinds.upload(std::span<const op_kind>(kinds), streams.generate);
    b.keys.upload(std::span<const key_type>(keys), streams.generate);
    b.values.upload(std::span<const value_type>(values), streams.generate);
    synchronize(streams.generate);  // the host vectors go at the end of this block
  } else {
    workload::generate(spec, b.plan, t.space(), {b.kinds.span(), b.keys.span(), b.values.span()},
                       streams.generate);
  }
  b.generated.record(streams.generate);
  const stream_view s = streams.work;
  b.generated.make_wait(s);
  b.trace = traced ? trace_before(b, n, c, s) : nullptr;
  const auto keys = b.keys.cspan().first(n);
  const auto st = b.status.span().first(n);
  b.timer.start(s);
  if (b.plan.only(op_kind::insert))
    t.insert(keys, b.values.cspan().first(n), st, s);
  else if (b.plan.only(op_kind::erase))
    t.erase(keys, st, s);
  else if (b.plan.only(op_kind::find))
    t.find(keys, b.results.span().first(n), st, s);
  else
    t.apply({b.kinds.cspan().first(n), keys, b.values.cspan().first(n)}, b.results.span().first(n),
            st, s);
  b.timer.stop(s);
  // In stream order after this batch, before the next: the counters are this batch's.
  if (c.fam.copy_batch_counters) c.fam.copy_batch_counters(t, b.family_counts.data(), s);
  b.ran.record(s);
  b.ran.make_wait(streams.tally);
  count_statuses(st, t.space(), b.scratch.data(), b.counts.data(), b.counts.space(), streams.tally);
  b.done.record(streams.tally);
}

batch_outcome finish(batch& b, std::uint64_t serial) {
  batch_outcome o;
  o.ms = b.timer.elapsed_ms();  // the calls that can fail come before any counting
  if (b.trace) {
    const std::uint64_t n = b.trace->ops.size();
    const auto status = b.status.download(n);
    const auto results = b.results.download(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      b.trace->ops[i].status = status[i];
      b.trace->ops[i].result = b.trace->ops[i].kind == op_kind::find ? results[i] : 0;
    }
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
