// How a sharded table runs a batch (included by sharded_table.cpp only). Each local rank:
//   1. partition: counts its keys by owner and packs them (with values, kinds) in owner order;
//   2. counts: an all-to-all of the counts, so that every receive is sized from what is sent;
//   3. out: the packed lanes to their owners, one exchange step;
//   4. table: each shard runs its own family's call on what it received;
//   5. back: statuses and found values return along the transposed step;
//   6. restore: each answer goes to its key's place in the caller's order.
#pragma once
#include <algorithm>
#include <numeric>

#include "core/common/error.hpp"
#include "core/shard/rank_scope.hpp"
#include "core/shard/shard_lanes.hpp"
#include "core/shard/sharded_table.hpp"

namespace hs {

template <class K, class V>
struct sharded_table<K, V>::rank_buffers {
  buffer<std::uint32_t> pos;     ///< each input key's place in the send order
  buffer<std::uint64_t> counts;  ///< [0, N) sent to each rank, [N, 2N) received, [2N, 3N) cursors
  buffer<K> send_keys, recv_keys;
  buffer<V> send_values, recv_values, answer_values, back_values;
  buffer<op_kind> send_kinds, recv_kinds;
  buffer<op_status> answer_status, back_status;
  std::vector<stream_timer> phases;  ///< one a phase (shard_phase), made with the rank's stream
  stream_timer& timer(bool gpu, shard_phase p) {
    while (phases.size() < k_shard_phases) phases.emplace_back(gpu);
    return phases[static_cast<int>(p)];
  }
};

template <class K, class V>
struct sharded_table<K, V>::batch_plan {
  std::uint32_t n = 0;                            ///< ranks
  std::vector<std::vector<std::uint64_t>> sent;   ///< [local k][peer]: keys this rank sends
  std::vector<std::vector<std::uint64_t>> taken;  ///< [local k][peer]: keys it receives
  std::uint64_t sent_total(std::size_t k) const {
    return std::accumulate(sent[k].begin(), sent[k].end(), std::uint64_t{0});
  }
  std::uint64_t taken_total(std::size_t k) const {
    return std::accumulate(taken[k].begin(), taken[k].end(), std::uint64_t{0});
  }
};

namespace detail {

/// Grows a kept buffer to hold n elements (with a quarter to spare, so that batches that vary a
/// little do not reallocate).
template <class T>
void fit(buffer<T>& b, memory_space space, std::size_t n) {
  if (b.size() >= n) return;
  b = buffer<T>();
  b = buffer<T>(space, n + n / 4);
}

/// The segments of one lane: element e bytes, `from` holding the sends in peer order and `to`
/// the receives in peer order, each sized by the plan's counts.
inline rank_segments lane_segments(std::uint32_t rank, std::uint32_t n, stream_view s,
                                   const void* from, const std::vector<std::uint64_t>& sends,
                                   void* to, const std::vector<std::uint64_t>& receives,
                                   std::size_t e) {
  rank_segments l;
  l.rank = rank;
  l.stream = s;
  std::uint64_t out = 0, in = 0;
  for (std::uint32_t j = 0; j < n; ++j) {
    l.send.push_back(static_cast<const unsigned char*>(from) + out * e);
    l.send_bytes.push_back(sends[j] * e);
    l.recv.push_back(static_cast<unsigned char*>(to) + in * e);
    l.recv_bytes.push_back(receives[j] * e);
    out += sends[j];
    in += receives[j];
  }
  return l;
}

}  // namespace detail

template <class K, class V>
void sharded_table<K, V>::run(sharded_op op, std::span<const rank_io<K, V>> io) {
  const auto local = exchange_->local_ranks();
  if (io.size() != local.size())
    throw user_error("a sharded batch takes one part per local rank: " +
                     std::to_string(local.size()) + ", not " + std::to_string(io.size()));
  bool want_status = false;
  for (const rank_io<K, V>& part : io) {
    if (part.keys.size() >= (std::uint64_t{1} << 32))
      throw user_error("a sharded batch takes fewer than 2^32 keys a device");
    want_status = want_status || !part.status.empty();
  }
  bool want_values = op == sharded_op::find;
  if (op == sharded_op::apply)
    for (const rank_io<K, V>& part : io) want_values = want_values || !part.results.empty();
  partition(op, io);
  const batch_plan plan = exchange_counts();
  send_out(op, plan);
  run_shards(op, plan, want_status, want_values);
  send_back(plan, io, want_status, want_values);
  sync_all();
  record(plan, op, want_status, want_values);
}

template <class K, class V>
void sharded_table<K, V>::partition(sharded_op op, std::span<const rank_io<K, V>> io) {
  const auto local = exchange_->local_ranks();
  const std::uint32_t n = exchange_->ranks();
  const memory_space sp = space();
  for (std::size_t k = 0; k < local.size(); ++k) {
    const std::uint32_t r = local[k];
    const detail::rank_scope on(sp == memory_space::device, r);
    rank_buffers& b = *buffers_[r];
    const rank_io<K, V>& part = io[k];
    const std::size_t count = part.keys.size();
    const stream_view st = stream_of(r);
    stream_timer& clock = b.timer(sp == memory_space::device, shard_phase::partition);
    clock.start(st);
    detail::fit(b.counts, sp, 3 * std::size_t{n});
    detail::fit(b.pos, sp, count);
    detail::fit(b.send_keys, sp, count);
    // regpus's step spans more ranks than the map has devices: those receive nothing.
    fill_bytes(b.counts.data(), sp, 0, n * sizeof(std::uint64_t), st);
    detail::count_owners<K>(sp, map_, part.keys, b.counts.data(), st);
    detail::place_by_owner<K>(sp, map_, part.keys, b.counts.data(), b.counts.data() + 2 * n,
                              b.pos.data(), st);
    detail::scatter_by(sp, b.pos.data(), count, part.keys.data(), b.send_keys.data(), sizeof(K),
                       st);
    if (op == sharded_op::insert || op == sharded_op::apply) {
      detail::fit(b.send_values, sp, count);
      detail::scatter_by(sp, b.pos.data(), count, part.values.data(), b.send_values.data(),
                         sizeof(V), st);
    }
    if (op == sharded_op::apply) {
      detail::fit(b.send_kinds, sp, count);
      detail::scatter_by(sp, b.pos.data(), count, part.kinds.data(), b.send_kinds.data(),
                         sizeof(op_kind), st);
    }
    clock.stop(st);
  }
}

template <class K, class V>
void sharded_table<K, V>::timed_step(shard_phase phase, std::span<const rank_segments> lanes) {
  const bool gpu = space() == memory_space::device;
  for (const std::uint32_t r : exchange_->local_ranks()) {
    const detail::rank_scope on(gpu, r);
    buffers_[r]->timer(gpu, phase).start(stream_of(r));
  }
  exchange_->all_to_all(lanes);
  for (const std::uint32_t r : exchange_->local_ranks()) {
    const detail::rank_scope on(gpu, r);
    buffers_[r]->timer(gpu, phase).stop(stream_of(r));
  }
}

template <class K, class V>
typename sharded_table<K, V>::batch_plan sharded_table<K, V>::exchange_counts() {
  const auto local = exchange_->local_ranks();
  const std::uint32_t n = exchange_->ranks();
  const std::vector<std::uint64_t> ones(n, 1);
  std::vector<rank_segments> lanes;
  for (const std::uint32_t r : local) {
    rank_buffers& b = *buffers_[r];
    lanes.push_back(detail::lane_segments(r, n, stream_of(r), b.counts.data(), ones,
                                          b.counts.data() + n, ones, sizeof(std::uint64_t)));
  }
  timed_step(shard_phase::counts, lanes);
  batch_plan plan;
  plan.n = n;
  for (const std::uint32_t r : local) {
    std::vector<std::uint64_t> both(2 * std::size_t{n});
    copy_bytes(both.data(), memory_space::host, buffers_[r]->counts.data(), space(),
               both.size() * sizeof(std::uint64_t), stream_of(r));
    synchronize(stream_of(r));
    plan.sent.emplace_back(both.begin(), both.begin() + n);
    plan.taken.emplace_back(both.begin() + n, both.end());
  }
  return plan;
}

template <class K, class V>
void sharded_table<K, V>::send_out(sharded_op op, const batch_plan& plan) {
  const auto local = exchange_->local_ranks();
  const memory_space sp = space();
  std::vector<rank_segments> lanes;
  for (std::size_t k = 0; k < local.size(); ++k) {
    const std::uint32_t r = local[k];
    const detail::rank_scope on(sp == memory_space::device, r);
    rank_buffers& b = *buffers_[r];
    const std::size_t m = plan.taken_total(k);
    const auto& out = plan.sent[k];
    const auto& in = plan.taken[k];
    detail::fit(b.recv_keys, sp, m);
    lanes.push_back(detail::lane_segments(r, plan.n, stream_of(r), b.send_keys.data(), out,
                                          b.recv_keys.data(), in, sizeof(K)));
    if (op == sharded_op::insert || op == sharded_op::apply) {
      detail::fit(b.recv_values, sp, m);
      lanes.push_back(detail::lane_segments(r, plan.n, stream_of(r), b.send_values.data(), out,
                                            b.recv_values.data(), in, sizeof(V)));
    }
    if (op == sharded_op::apply) {
      detail::fit(b.recv_kinds, sp, m);
      lanes.push_back(detail::lane_segments(r, plan.n, stream_of(r), b.send_kinds.data(), out,
                                            b.recv_kinds.data(), in, sizeof(op_kind)));
    }
  }
  timed_step(shard_phase::out, lanes);
}

template <class K, class V>
void sharded_table<K, V>::run_shards(sharded_op op, const batch_plan& plan, bool want_status,
                                     bool want_values) {
  const auto local = exchange_->local_ranks();
  const memory_space sp = space();
  for (std::size_t k = 0; k < local.size(); ++k) {
    const std::uint32_t r = local[k];
    const std::size_t m = plan.taken_total(k);
    const detail::rank_scope on(sp == memory_space::device, r);
    rank_buffers& b = *buffers_[r];
    if (r >= shards_.size()) {  // a rank regpus empties: it owns nothing, receives nothing
      b.timer(sp == memory_space::device, shard_phase::table).start(stream_of(r));
      b.timer(sp == memory_space::device, shard_phase::table).stop(stream_of(r));
      continue;
    }
    if (want_status) detail::fit(b.answer_status, sp, m);
    if (want_values) detail::fit(b.answer_values, sp, m);
    const std::span<const K> keys(b.recv_keys.data(), m);
    const std::span<const V> values(b.recv_values.data(), m);
    const std::span<op_status> status =
        want_status ? std::span<op_status>(b.answer_status.data(), m) : std::span<op_status>{};
    const std::span<V> found =
        want_values ? std::span<V>(b.answer_values.data(), m) : std::span<V>{};
    table& t = *shards_[r];
    const stream_view st = stream_of(r);
    stream_timer& clock = b.timer(sp == memory_space::device, shard_phase::table);
    clock.start(st);
    switch (op) {
      case sharded_op::insert: t.insert(keys, values, status, st); break;
      case sharded_op::find: t.find(keys, found, status, st); break;
      case sharded_op::erase: t.erase(keys, status, st); break;
      case sharded_op::apply:
        t.apply(
            basic_op_batch<K, V>{std::span<const op_kind>(b.recv_kinds.data(), m), keys, values},
            found, status, st);
        break;
    }
    clock.stop(st);
  }
}

template <class K, class V>
void sharded_table<K, V>::send_back(const batch_plan& plan, std::span<const rank_io<K, V>> io,
                                    bool want_status, bool want_values) {
  const auto local = exchange_->local_ranks();
  const memory_space sp = space();
  if (!want_status && !want_values) {  // nothing returns: the phase is empty, not stale
    for (const std::uint32_t r : local) {
      const detail::rank_scope on(sp == memory_space::device, r);
      stream_timer& clock = buffers_[r]->timer(sp == memory_space::device, shard_phase::back);
      clock.start(stream_of(r));
      clock.stop(stream_of(r));
    }
    return;
  }
  std::vector<rank_segments> lanes;
  for (std::size_t k = 0; k < local.size(); ++k) {
    const std::uint32_t r = local[k];
    const detail::rank_scope on(sp == memory_space::device, r);
    rank_buffers& b = *buffers_[r];
    const std::size_t count = io[k].keys.size();
    // The transposed step: what came in from j goes back to j, into the place j sent it from.
    const auto& out = plan.taken[k];
    const auto& in = plan.sent[k];
    if (want_status) {
      detail::fit(b.back_status, sp, count);
      lanes.push_back(detail::lane_segments(r, plan.n, stream_of(r), b.answer_status.data(), out,
                                            b.back_status.data(), in, sizeof(op_status)));
    }
    if (want_values) {
      detail::fit(b.back_values, sp, count);
      lanes.push_back(detail::lane_segments(r, plan.n, stream_of(r), b.answer_values.data(), out,
                                            b.back_values.data(), in, sizeof(V)));
    }
  }
  for (const std::uint32_t r : local) {
    const detail::rank_scope on(sp == memory_space::device, r);
    buffers_[r]->timer(sp == memory_space::device, shard_phase::back).start(stream_of(r));
  }
  exchange_->all_to_all(lanes);
  for (std::size_t k = 0; k < local.size(); ++k) {
    const std::uint32_t r = local[k];
    const detail::rank_scope on(sp == memory_space::device, r);
    rank_buffers& b = *buffers_[r];
    const std::size_t count = io[k].keys.size();
    if (want_status && !io[k].status.empty())
      detail::gather_by(sp, b.pos.data(), count, b.back_status.data(), io[k].status.data(),
                        sizeof(op_status), stream_of(r));
    if (want_values && !io[k].results.empty())
      detail::gather_by(sp, b.pos.data(), count, b.back_values.data(), io[k].results.data(),
                        sizeof(V), stream_of(r));
    b.timer(sp == memory_space::device, shard_phase::back).stop(stream_of(r));
  }
}

template <class K, class V>
void sharded_table<K, V>::record(const batch_plan& plan, sharded_op op, bool want_status,
                                 bool want_values) {
  last_ = batch_exchange{};
  last_.devices = plan.n;
  last_.keys.assign(std::size_t{plan.n} * plan.n, 0);
  const std::size_t out = sizeof(K) +
                          (op == sharded_op::insert || op == sharded_op::apply ? sizeof(V) : 0) +
                          (op == sharded_op::apply ? sizeof(op_kind) : 0);
  const std::size_t back = (want_status ? sizeof(op_status) : 0) + (want_values ? sizeof(V) : 0);
  const auto local = exchange_->local_ranks();
  for (std::size_t k = 0; k < local.size(); ++k)
    for (std::uint32_t j = 0; j < plan.n; ++j) {
      last_.keys[std::size_t{local[k]} * plan.n + j] = plan.sent[k][j];
      if (j == local[k]) continue;  // a rank's own keys never leave it
      last_.bytes_out += plan.sent[k][j] * out;
      last_.bytes_back += plan.sent[k][j] * back;
    }
  const bool gpu = space() == memory_space::device;
  last_.phase_ms.assign(plan.n, {});
  for (const std::uint32_t r : local)
    for (int p = 0; p < k_shard_phases; ++p)
      last_.phase_ms[r][p] = buffers_[r]->timer(gpu, static_cast<shard_phase>(p)).elapsed_ms();
}

template <class K, class V>
void sharded_table<K, V>::sync_all() {
  for (const std::uint32_t r : exchange_->local_ranks()) synchronize(stream_of(r));
}

}  // namespace hs
