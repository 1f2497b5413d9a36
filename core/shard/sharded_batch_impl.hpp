// How a sharded table runs a batch (included by sharded_table.cpp only). Each local rank:
//   1. partition: counts its keys by owner and packs them (with values, kinds) in owner order,
//      each owner's run from a multiple of k_run_align on;
//   2. counts: an all-to-all of the counts, so that every receive is sized from what is sent;
//   3. out: the lanes to their owners, one exchange step, each run's bulk and rest apart so that
//      the bulks start on 16 bytes at both ends and the shard receives them with no gap;
//   4. table: each shard runs its own family's call on what it received;
//   5. back: statuses and found values return along the transposed step;
//   6. restore: each answer goes to its key's place in the caller's order.
// A large batch runs in chunks of chunk_keys() keys a rank, pipelined over two streams a rank and
// two sets of lanes: the table calls of chunk c (the work stream) run while the exchange stream
// returns chunk c-1's answers and partitions and sends chunk c+1.
#pragma once
#include <algorithm>
#include <chrono>
#include <numeric>
#include <optional>

#include "core/common/error.hpp"
#include "core/shard/rank_scope.hpp"
#include "core/shard/run_layout.hpp"
#include "core/shard/shard_lanes.hpp"
#include "core/shard/sharded_table.hpp"
#include "core/table/family_registry.hpp"

namespace hs {

namespace detail {
/// The points a chunk's steps are marked at on a rank: a phase spans two of them (partition's end
/// is the counts' start: nothing comes between them), the work stream waits for out_end and the
/// exchange stream for table_end.
enum batch_mark : int {
  part_begin,
  part_end,
  counts_end,
  out_begin,
  out_end,
  table_begin,
  table_end,
  back_begin,
  back_end,
  k_batch_marks
};
/// Each shard_phase's first and last mark.
inline constexpr batch_mark k_phase_marks[k_shard_phases][2] = {{part_begin, part_end},
                                                                {part_end, counts_end},
                                                                {out_begin, out_end},
                                                                {table_begin, table_end},
                                                                {back_begin, back_end}};
}  // namespace detail

template <class K, class V>
struct sharded_table<K, V>::rank_buffers {
  buffer<std::uint32_t> pos;     ///< each input key's place in the send order
  buffer<std::uint64_t> counts;  ///< [0, N) sent to each rank, [N, 2N) received, [2N, 3N) cursors
  buffer<std::uint64_t> counts_read;  ///< where the host reads [0, 2N) (pinned on GPUs)
  buffer<K> send_keys, recv_keys;
  buffer<V> send_values, recv_values, answer_values, back_values;
  buffer<op_kind> send_kinds, recv_kinds;
  buffer<op_status> answer_status, back_status;
  stream_marks marks;  ///< detail::batch_mark: the phases' timing and the streams' handovers
  explicit rank_buffers(bool gpu) : marks(gpu, detail::k_batch_marks) {}
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

/// Each rank's part of a batch from key `first` on, at most `count` keys (empty past its end).
template <class K, class V>
std::vector<rank_io<K, V>> chunk_of(std::span<const rank_io<K, V>> io, std::size_t first,
                                    std::size_t count) {
  const auto cut = [&](auto span) {
    const std::size_t from = std::min(first, span.size());
    return span.subspan(from, std::min(count, span.size() - from));
  };
  std::vector<rank_io<K, V>> out;
  for (const rank_io<K, V>& part : io)
    out.push_back(
        {cut(part.kinds), cut(part.keys), cut(part.values), cut(part.results), cut(part.status)});
  return out;
}

}  // namespace detail

template <class K, class V>
void sharded_table<K, V>::run(sharded_op op, std::span<const rank_io<K, V>> io) {
  const auto local = exchange_->local_ranks();
  batch_terms mine;
  mine.refusal = std::exchange(refusal_, {});  // a batch call's checks that failed here
  if (io.size() != local.size())
    mine.refusal =
        "a sharded batch takes one part per local rank: " + std::to_string(local.size()) +
        ", not " + std::to_string(io.size());
  mine.op = op;
  mine.want_values = op == sharded_op::find;
  mine.chunk = chunk_;
  for (const rank_io<K, V>& part : io) {
    if (part.keys.size() >= (std::uint64_t{1} << 32))
      mine.refusal = "a sharded batch takes fewer than 2^32 keys a device";
    mine.want_status = mine.want_status || !part.status.empty();
    mine.want_values = mine.want_values || (op == sharded_op::apply && !part.results.empty());
    mine.most = std::max<std::uint64_t>(mine.most, part.keys.size());
  }
  // Across processes every rank must take the same steps: they agree on the terms first.
  const batch_terms terms = exchange_->spans_processes() ? agree(mine) : mine;
  if (!terms.refusal.empty()) throw user_error(terms.refusal);
  const bool want_status = terms.want_status, want_values = terms.want_values;
  const std::uint64_t most = terms.most;
  const family_descriptor& fam = describe(cfg_.family);
  const bool whole = op == sharded_op::apply && fam.apply_in_phases && fam.apply_in_phases(cfg_);
  const std::uint64_t chunk = whole ? std::max<std::uint64_t>(most, 1) : terms.chunk;
  const std::size_t chunks = std::max<std::size_t>(1, (most + chunk - 1) / chunk);
  try {
    run_chunks(op, io, chunk, chunks, want_status, want_values);
  } catch (const std::exception& e) {
    // Across processes the others are inside this batch's steps: stop the exchange, so that they
    // hear of it within their wait, and this rank's later batches say why.
    if (exchange_->spans_processes()) exchange_->abandon(e.what());
    throw;
  }
}

template <class K, class V>
typename sharded_table<K, V>::batch_terms sharded_table<K, V>::agree(const batch_terms& mine) {
  struct wire {  // what travels: the terms without the text
    std::uint64_t most, chunk;
    std::uint32_t op, flags;
  };
  std::vector<wire> each(exchange_->ranks());
  each[exchange_->local_ranks().front()] = {
      mine.most, mine.chunk, static_cast<std::uint32_t>(mine.op),
      (mine.want_status ? 1u : 0u) | (mine.want_values ? 2u : 0u) |
          (mine.refusal.empty() ? 0u : 4u)};
  share_between_ranks(each);
  batch_terms all = mine;
  all.chunk = each.front().chunk;  // rank 0's chunk size: every rank cuts the batch alike
  std::string refused, other_op;
  for (std::uint32_t r = 0; r < each.size(); ++r) {
    all.most = std::max(all.most, each[r].most);
    all.want_status = all.want_status || (each[r].flags & 1u);
    all.want_values = all.want_values || (each[r].flags & 2u);
    if (each[r].flags & 4u) refused += (refused.empty() ? "" : ", ") + std::to_string(r);
    if (each[r].op != static_cast<std::uint32_t>(mine.op)) other_op = std::to_string(r);
  }
  if (!refused.empty())
    all.refusal = "rank " + refused + " refused this batch, so no rank ran it" +
                  (mine.refusal.empty() ? "" : ": " + mine.refusal);
  else if (!other_op.empty())
    all.refusal = "rank " + other_op +
                  " called another operation in this batch; every rank of a "
                  "table across processes calls the same ones in the same order";
  return all;
}

template <class K, class V>
void sharded_table<K, V>::run_chunks(sharded_op op, std::span<const rank_io<K, V>> io,
                                     std::uint64_t chunk, std::size_t chunks, bool want_status,
                                     bool want_values) {
  const auto started = std::chrono::steady_clock::now();
  begin_record(op, want_status, want_values);
  std::optional<std::pair<batch_plan, std::vector<rank_io<K, V>>>> waiting;  // chunk c - 1
  for (std::size_t c = 0; c < chunks; ++c) {
    const int p = static_cast<int>(c % 2);
    if (c >= 2) collect_phases(p);  // chunk c - 2's marks, before this chunk reuses them
    std::vector<rank_io<K, V>> part = detail::chunk_of(io, c * chunk, chunk);
    partition(op, part, want_status || want_values, p);
    batch_plan plan = exchange_counts(p);
    send_out(op, plan, p);
    run_shards(op, plan, want_status, want_values, p);
    if (waiting) send_back(waiting->first, waiting->second, want_status, want_values, 1 - p);
    add_to_record(plan);
    waiting.emplace(std::move(plan), std::move(part));
  }
  const int last = static_cast<int>((chunks - 1) % 2);
  send_back(waiting->first, waiting->second, want_status, want_values, last);
  // The exchange streams end every chunk after its table call (they waited for it), so they
  // alone are waited for.
  for (const std::uint32_t r : exchange_->local_ranks()) {
    const auto on = scope_of(r);
    exchange_->wait(r, stream_of(r));
  }
  if (chunks >= 2) collect_phases(1 - last);
  collect_phases(last);
  building_.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  std::lock_guard hold(last_lock_);
  last_ = building_;
}

template <class K, class V>
void sharded_table<K, V>::partition(sharded_op op, std::span<const rank_io<K, V>> io, bool answers,
                                    int p) {
  const auto local = exchange_->local_ranks();
  const std::uint32_t n = exchange_->ranks();
  const memory_space sp = space();
  for (std::size_t k = 0; k < local.size(); ++k) {
    const std::uint32_t r = local[k];
    const auto on = scope_of(r);
    rank_buffers& b = buffers_of(r, p);
    const rank_io<K, V>& part = io[k];
    const std::size_t count = part.keys.size();
    const stream_view st = stream_of(r);
    b.marks.record(detail::part_begin, st);
    detail::fit(b.counts, sp, 3 * std::size_t{n});
    if (answers) detail::fit(b.pos, sp, count);  // where each answer comes back to
    const std::size_t padded = count + std::size_t{n} * (detail::k_run_align - 1);
    detail::fit(b.send_keys, sp, padded);
    detail::packed_lanes<K> out;
    out.keys = b.send_keys.data();
    if (op == sharded_op::insert || op == sharded_op::apply) {
      detail::fit(b.send_values, sp, padded);
      out.values_in = part.values.data();
      out.values = b.send_values.data();
    }
    if (op == sharded_op::apply) {
      detail::fit(b.send_kinds, sp, padded);
      out.kinds_in = part.kinds.data();
      out.kinds = b.send_kinds.data();
    }
    // The counts sent, received and the cursors, cleared in one fill (regpus's step spans more
    // ranks than the map has devices: those receive nothing).
    fill_bytes(b.counts.data(), sp, 0, 3 * n * sizeof(std::uint64_t), st);
    detail::count_owners<K>(sp, map_, part.keys, b.counts.data(), st);
    detail::place_by_owner<K>(sp, map_, part.keys, b.counts.data(), b.counts.data() + 2 * n,
                              answers ? b.pos.data() : nullptr, out, st);
    b.marks.record(detail::part_end, st);
  }
}

template <class K, class V>
void sharded_table<K, V>::mark_ranks(int mark, int p) {
  for (const std::uint32_t r : exchange_->local_ranks()) {
    const auto on = scope_of(r);
    buffers_of(r, p).marks.record(mark, stream_of(r));
  }
}

template <class K, class V>
typename sharded_table<K, V>::batch_plan sharded_table<K, V>::exchange_counts(int p) {
  const auto local = exchange_->local_ranks();
  const std::uint32_t n = exchange_->ranks();
  const std::vector<std::uint64_t> ones(n, 1);
  std::vector<rank_segments> lanes;
  for (const std::uint32_t r : local) {
    rank_buffers& b = buffers_of(r, p);
    lanes.push_back(detail::lane_segments(r, n, stream_of(r), b.counts.data(), ones,
                                          b.counts.data() + n, ones, sizeof(std::uint64_t)));
  }
  exchange_->all_to_all(lanes, "counts");
  mark_ranks(detail::counts_end, p);
  // Every rank's copy is queued before the first wait, so that the ranks' reads overlap.
  for (const std::uint32_t r : local) {
    const auto on = scope_of(r);
    rank_buffers& b = buffers_of(r, p);
    const memory_space read_space =
        space() == memory_space::device ? memory_space::pinned : memory_space::host;
    detail::fit(b.counts_read, read_space, 2 * std::size_t{n});
    copy_bytes(b.counts_read.data(), read_space, b.counts.data(), space(),
               2 * std::size_t{n} * sizeof(std::uint64_t), stream_of(r));
  }
  batch_plan plan;
  plan.n = n;
  for (const std::uint32_t r : local) {
    const auto on = scope_of(r);
    exchange_->wait(r, stream_of(r));
    const std::uint64_t* both = buffers_of(r, p).counts_read.data();
    plan.sent.emplace_back(both, both + n);
    plan.taken.emplace_back(both + n, both + 2 * std::size_t{n});
  }
  return plan;
}

template <class K, class V>
void sharded_table<K, V>::send_out(sharded_op op, const batch_plan& plan, int p) {
  const auto local = exchange_->local_ranks();
  const memory_space sp = space();
  std::vector<rank_segments> lanes;
  for (std::size_t k = 0; k < local.size(); ++k) {
    const std::uint32_t r = local[k];
    const auto on = scope_of(r);
    rank_buffers& b = buffers_of(r, p);
    const std::size_t m = plan.taken_total(k);
    const auto& out = plan.sent[k];
    const auto& in = plan.taken[k];
    // From the partition's padded runs to the shard's packed ones.
    const auto lane = [&](const void* from, void* to, std::size_t e) {
      for (const rank_segments& part :
           detail::split_lane(r, plan.n, stream_of(r), from, detail::run_layout::padded, out, to,
                              detail::run_layout::packed, in, e))
        lanes.push_back(part);
    };
    detail::fit(b.recv_keys, sp, m);
    lane(b.send_keys.data(), b.recv_keys.data(), sizeof(K));
    if (op == sharded_op::insert || op == sharded_op::apply) {
      detail::fit(b.recv_values, sp, m);
      lane(b.send_values.data(), b.recv_values.data(), sizeof(V));
    }
    if (op == sharded_op::apply) {
      detail::fit(b.recv_kinds, sp, m);
      lane(b.send_kinds.data(), b.recv_kinds.data(), sizeof(op_kind));
    }
  }
  mark_ranks(detail::out_begin, p);
  exchange_->all_to_all(lanes, "out");
  mark_ranks(detail::out_end, p);  // the chunk is in: its table call may start
}

template <class K, class V>
void sharded_table<K, V>::run_shards(sharded_op op, const batch_plan& plan, bool want_status,
                                     bool want_values, int p) {
  const auto local = exchange_->local_ranks();
  for (std::size_t k = 0; k < local.size(); ++k) {
    const std::uint32_t r = local[k];
    const std::size_t m = plan.taken_total(k);
    const auto on = scope_of(r);
    rank_buffers& b = buffers_of(r, p);
    const stream_view st = work_of(r);
    b.marks.make_wait(detail::out_end, st);
    b.marks.record(detail::table_begin, st);
    if (r < shards_.size() && shards_[r])  // a rank regpus empties owns nothing, receives nothing
      call_shard(op, r, m, want_status, want_values, p);
    b.marks.record(detail::table_end, st);
  }
}

template <class K, class V>
void sharded_table<K, V>::call_shard(sharded_op op, std::uint32_t r, std::size_t m,
                                     bool want_status, bool want_values, int p) {
  const memory_space sp = space();
  rank_buffers& b = buffers_of(r, p);
  {
    if (want_status) detail::fit(b.answer_status, sp, m);
    if (want_values) detail::fit(b.answer_values, sp, m);
    const std::span<const K> keys(b.recv_keys.data(), m);
    const std::span<const V> values(b.recv_values.data(), m);
    const std::span<op_status> status =
        want_status ? std::span<op_status>(b.answer_status.data(), m) : std::span<op_status>{};
    const std::span<V> found =
        want_values ? std::span<V>(b.answer_values.data(), m) : std::span<V>{};
    table& t = *shards_[r];
    const stream_view st = work_of(r);
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
  }
}

template <class K, class V>
void sharded_table<K, V>::send_back(const batch_plan& plan, std::span<const rank_io<K, V>> io,
                                    bool want_status, bool want_values, int p) {
  const auto local = exchange_->local_ranks();
  const memory_space sp = space();
  if (!want_status && !want_values) {  // nothing returns: the phase is empty, not stale
    for (const std::uint32_t r : local) {
      const auto on = scope_of(r);
      buffers_of(r, p).marks.make_wait(detail::table_end, stream_of(r));  // lanes free again
    }
    mark_ranks(detail::back_begin, p);
    mark_ranks(detail::back_end, p);
    return;
  }
  std::vector<rank_segments> lanes;
  for (std::size_t k = 0; k < local.size(); ++k) {
    const std::uint32_t r = local[k];
    const auto on = scope_of(r);
    rank_buffers& b = buffers_of(r, p);
    // The transposed step: what came in from j goes back to j, into the place j sent it from.
    const auto& out = plan.taken[k];
    const auto& in = plan.sent[k];
    const std::size_t padded = detail::padded_total(in);
    const auto lane = [&](const void* from, void* to, std::size_t e) {
      for (const rank_segments& part :
           detail::split_lane(r, plan.n, stream_of(r), from, detail::run_layout::packed, out, to,
                              detail::run_layout::padded, in, e))
        lanes.push_back(part);
    };
    if (want_status) {
      detail::fit(b.back_status, sp, padded);
      lane(b.answer_status.data(), b.back_status.data(), sizeof(op_status));
    }
    if (want_values) {
      detail::fit(b.back_values, sp, padded);
      lane(b.answer_values.data(), b.back_values.data(), sizeof(V));
    }
  }
  for (const std::uint32_t r : local) {
    const auto on = scope_of(r);
    buffers_of(r, p).marks.make_wait(detail::table_end, stream_of(r));
    buffers_of(r, p).marks.record(detail::back_begin, stream_of(r));
  }
  exchange_->all_to_all(lanes, "return");
  for (std::size_t k = 0; k < local.size(); ++k) {
    const std::uint32_t r = local[k];
    const auto on = scope_of(r);
    rank_buffers& b = buffers_of(r, p);
    const std::size_t count = io[k].keys.size();
    if (want_status && !io[k].status.empty())
      detail::gather_by(sp, b.pos.data(), count, b.back_status.data(), io[k].status.data(),
                        sizeof(op_status), stream_of(r));
    if (want_values && !io[k].results.empty())
      detail::gather_by(sp, b.pos.data(), count, b.back_values.data(), io[k].results.data(),
                        sizeof(V), stream_of(r));
    b.marks.record(detail::back_end, stream_of(r));
  }
}

template <class K, class V>
void sharded_table<K, V>::begin_record(sharded_op op, bool want_status, bool want_values) {
  const std::uint32_t n = exchange_->ranks();
  building_ = batch_exchange{};
  building_.devices = n;
  building_.keys.assign(std::size_t{n} * n, 0);
  building_.phase_ms.assign(n, {});
  out_bytes_ = sizeof(K) + (op == sharded_op::insert || op == sharded_op::apply ? sizeof(V) : 0) +
               (op == sharded_op::apply ? sizeof(op_kind) : 0);
  back_bytes_ = (want_status ? sizeof(op_status) : 0) + (want_values ? sizeof(V) : 0);
}

template <class K, class V>
void sharded_table<K, V>::add_to_record(const batch_plan& plan) {
  const auto local = exchange_->local_ranks();
  for (std::size_t k = 0; k < local.size(); ++k)
    for (std::uint32_t j = 0; j < plan.n; ++j) {
      building_.keys[std::size_t{local[k]} * plan.n + j] += plan.sent[k][j];
      if (j == local[k]) continue;  // a rank's own keys never leave it
      building_.bytes_out += plan.sent[k][j] * out_bytes_;
      building_.bytes_back += plan.sent[k][j] * back_bytes_;
    }
}

template <class K, class V>
void sharded_table<K, V>::collect_phases(int p) {
  for (const std::uint32_t r : exchange_->local_ranks())
    for (int ph = 0; ph < k_shard_phases; ++ph)
      building_.phase_ms[r][ph] += buffers_of(r, p).marks.elapsed_ms(detail::k_phase_marks[ph][0],
                                                                     detail::k_phase_marks[ph][1]);
}

template <class K, class V>
void sharded_table<K, V>::sync_all() {
  for (const std::uint32_t r : exchange_->local_ranks()) {
    const auto on = scope_of(r);
    exchange_->wait(r, stream_of(r));
    exchange_->wait(r, work_of(r));
  }
}

}  // namespace hs
