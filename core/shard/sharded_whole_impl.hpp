// A sharded table's calls on the whole table (included by sharded_table.cpp only): making its
// shards, the hs::table batch calls on rank 0's keys, counters, clear, rehash, retrieve_all and
// inspect, each over every shard.
#pragma once
#include <algorithm>

#include "core/common/format.hpp"
#include "core/shard/sharded_batch_impl.hpp"
#include "core/table/table_state.hpp"

namespace hs {

template <class K, class V>
sharded_table<K, V>::sharded_table(const table_config& cfg, shard_parts parts)
    : cfg_(cfg), parts_(std::move(parts)) {
  map_ = shard_map::spread(cfg.owner, cfg.hash, cfg.devices);
  exchange_ = parts_.exchange(cfg.devices);
  make_shards(cfg.devices, cfg.capacity / cfg.devices);
}

template <class K, class V>
sharded_table<K, V>::~sharded_table() {
  for (const std::uint32_t r : exchange_->local_ranks()) {
    if (r >= shards_.size() || 2 * r + 1 >= buffers_.size()) continue;  // a failed regpus's
    const auto on = scope_of(r);
    shards_[r].reset();
    buffers_[2 * r].reset();
    buffers_[2 * r + 1].reset();
  }
}

template <class K, class V>
void sharded_table<K, V>::make_shards(std::uint32_t devices, std::uint64_t shard_capacity) {
  table_config one = cfg_;
  one.devices = 1;
  one.owner = owner_bits::independent;  // a shard is one table: the owner rule is the whole's
  one.capacity = shard_capacity;
  shards_.clear();
  shards_.resize(devices);  // another process's rank holds no shard here
  for (const std::uint32_t r : exchange_->local_ranks())
    if (r < devices) {
      const auto on = scope_of(r);
      shards_[r] = parts_.make(r, one);
    }
  keep_ranks(devices);
}

template <class K, class V>
void sharded_table<K, V>::keep_ranks(std::uint32_t ranks) {
  const auto local = exchange_->local_ranks();
  for (std::uint32_t r = static_cast<std::uint32_t>(streams_.size()); r < ranks; ++r) {
    // Another process's rank gets host stand-ins, never used: the vectors stay indexed by rank.
    const bool gpu =
        space() == memory_space::device && std::find(local.begin(), local.end(), r) != local.end();
    const detail::rank_scope on(gpu, gpu ? exchange_->device_of(r) : 0);
    streams_.emplace_back(gpu);
    work_streams_.emplace_back(gpu);
    buffers_.push_back(std::make_unique<rank_buffers>(gpu));
    buffers_.push_back(std::make_unique<rank_buffers>(gpu));
  }
  if (streams_.size() > ranks) {
    streams_.erase(streams_.begin() + ranks, streams_.end());
    work_streams_.erase(work_streams_.begin() + ranks, work_streams_.end());
    buffers_.erase(buffers_.begin() + 2 * ranks, buffers_.end());
  }
}

template <class K, class V>
table& sharded_table<K, V>::shard(std::uint32_t d) {
  if (d >= shards_.size())
    throw user_error("device " + std::to_string(d) + " of a table over " +
                     std::to_string(devices()));
  if (!shards_[d])
    throw user_error("device " + std::to_string(d) + "'s shard lives in rank " + std::to_string(d) +
                     "'s process (" + exchange_->describe() + ")");
  return *shards_[d];
}

template <class K, class V>
void sharded_table<K, V>::require_one_process(const char* call) const {
  if (exchange_->spans_processes())
    throw user_error(std::string(call) + " needs every shard in one process; this table is " +
                     exchange_->describe() + ", which runs batches, stats, clear, rehash and " +
                     "retrieve_all of its own shard");
}

template <class K, class V>
template <class Check>
bool sharded_table<K, V>::checked_together(Check check) {
  try {
    check();
    return true;
  } catch (const user_error& e) {
    if (!exchange_->spans_processes()) throw;
    refusal_ = e.what();  // run() shares it: every rank then refuses the batch, none hangs in it
    return false;
  }
}

template <class K, class V>
void sharded_table<K, V>::whole_batch(sharded_op op, rank_io<K, V> io, stream_view s) {
  synchronize(s);  // the caller's keys may still be in the making on its stream
  std::vector<rank_io<K, V>> parts(exchange_->local_ranks().size());
  parts[0] = io;  // every key starts on rank 0, whose memory the caller's spans are in
  run(op, parts);
}

template <class K, class V>
void sharded_table<K, V>::insert_batch(std::span<const K> keys, std::span<const V> values,
                                       std::span<op_status> status, stream_view s) {
  if (checked_together(
          [&] { detail::check_bulk("insert", keys.size(), values.size(), status.size()); }))
    whole_batch(sharded_op::insert, {{}, keys, values, {}, status}, s);
  else
    whole_batch(sharded_op::insert, {}, s);
}

template <class K, class V>
void sharded_table<K, V>::find_batch(std::span<const K> keys, std::span<V> values_out,
                                     std::span<op_status> status, stream_view s) {
  if (checked_together(
          [&] { detail::check_bulk("find", keys.size(), values_out.size(), status.size()); }))
    whole_batch(sharded_op::find, {{}, keys, {}, values_out, status}, s);
  else
    whole_batch(sharded_op::find, {}, s);
}

template <class K, class V>
void sharded_table<K, V>::erase_batch(std::span<const K> keys, std::span<op_status> status,
                                      stream_view s) {
  if (checked_together(
          [&] { detail::check_bulk("erase", keys.size(), keys.size(), status.size()); }))
    whole_batch(sharded_op::erase, {{}, keys, {}, {}, status}, s);
  else
    whole_batch(sharded_op::erase, {}, s);
}

template <class K, class V>
void sharded_table<K, V>::apply_batch(const basic_op_batch<K, V>& ops, std::span<V> results,
                                      std::span<op_status> status, stream_view s) {
  if (checked_together([&] { detail::check_apply(ops, results.size(), status.size()); }))
    whole_batch(sharded_op::apply, {ops.kinds, ops.keys, ops.values, results, status}, s);
  else
    whole_batch(sharded_op::apply, {}, s);
}

template <class K, class V>
table_config sharded_table<K, V>::config() const {
  table_config c = cfg_;
  c.devices = devices();
  c.capacity = 0;
  for (const auto& t : shards_)
    if (t) c.capacity += t->capacity();
  // Across processes only this rank's shard is here; the others are made as large.
  c.capacity = c.capacity / exchange_->local_ranks().size() * devices();
  return c;
}

template <class K, class V>
void sharded_table<K, V>::clear(stream_view s) {
  synchronize(s);
  for (const std::uint32_t r : exchange_->local_ranks()) {
    if (r >= shards_.size() || !shards_[r]) continue;  // a rank a failed regpus left empty
    const auto on = scope_of(r);
    shards_[r]->clear(stream_of(r));
  }
  sync_all();
  std::lock_guard hold(last_lock_);
  last_ = batch_exchange{};
}

template <class K, class V>
std::vector<table_stats> sharded_table<K, V>::shard_stats(stream_view s) {
  synchronize(s);
  std::vector<table_stats> each(devices());
  for (const std::uint32_t r : exchange_->local_ranks()) {
    if (r >= shards_.size() || !shards_[r]) continue;
    const auto on = scope_of(r);
    each[r] = shards_[r]->stats(stream_of(r));
  }
  if (exchange_->spans_processes()) share_between_ranks(each);
  return each;
}

template <class K, class V>
table_stats sharded_table<K, V>::stats(stream_view s) {
  return add_up(shard_stats(s));
}

template <class K, class V>
void sharded_table<K, V>::rehash(std::uint64_t capacity, stream_view s) {
  if (capacity % devices() != 0)
    throw user_error("a table over " + std::to_string(devices()) +
                     " devices rehashes to a capacity they share evenly, not " +
                     std::to_string(capacity));
  synchronize(s);
  const std::uint64_t per = capacity / devices();
  // A shard that refuses (its keys do not fit a smaller share: a skewed table; or no memory for a
  // larger one) leaves the shards before it rehashed: they go back to the size they had, which
  // held their keys, so that every shard keeps one size. `done`: each shard rehashed, its size
  // before.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> done;
  std::uint32_t refused = devices();  // the first device that refused, if any
  std::string why;
  bool user_fault = false;  // a refusal (the keys do not fit), not a device failing
  for (const std::uint32_t r : exchange_->local_ranks()) {
    if (r >= shards_.size() || !shards_[r]) continue;
    const auto on = scope_of(r);
    const std::uint64_t had = shards_[r]->capacity();
    try {
      shards_[r]->rehash(per, stream_of(r));
    } catch (const std::exception& e) {
      refused = r;
      why = e.what();
      user_fault = dynamic_cast<const user_error*>(&e) != nullptr;
      break;
    }
    done.emplace_back(r, had);
  }
  // Across processes each knows only its own shard's answer: every rank hears who refused, names
  // the lowest such device with its kind of error, and puts its shard back.
  if (exchange_->spans_processes()) {
    const std::uint32_t me = exchange_->local_ranks().front();
    std::vector<std::uint32_t> each(exchange_->ranks(), 0);  // 1: refused; 2: a user_error
    each[me] = refused < devices() ? 1u + (user_fault ? 2u : 0u) : 0u;
    try {
      share_between_ranks(each);
    } catch (const std::exception& e) {  // the others' answers are unknown: undo this rank's
      const std::string unshared =
          std::string("the ranks could not share how their rehash went (") + e.what() + ")";
      rehash_back(done, unshared);
      throw gpu_error(unshared + "; this rank's shard keeps its keys and its size");
    }
    const auto first = std::find_if(each.begin(), each.end(), [](std::uint32_t v) { return v; });
    if (first != each.end()) {
      const auto r = static_cast<std::uint32_t>(first - each.begin());
      if (r != me) why = "its process says why";
      refused = r;
      user_fault = (*first & 2u) != 0;
    }
  }
  if (refused < devices()) {
    why = "device " + std::to_string(refused) + " cannot rehash to " + format_count(per) +
          " slots: " + why;
    rehash_back(done, why);
    const std::string kept = "; every device keeps its keys and its size";
    if (user_fault) throw user_error(why + kept);
    throw gpu_error(why + kept);
  }
  cfg_.capacity = capacity;
  sync_all();
}

template <class K, class V>
void sharded_table<K, V>::rehash_back(
    const std::vector<std::pair<std::uint32_t, std::uint64_t>>& done, const std::string& why) {
  for (const auto& [d, size] : done) try {
      const auto back = scope_of(d);
      shards_[d]->rehash(size, stream_of(d));
    } catch (const std::exception& again) {
      throw gpu_error(why + "; device " + std::to_string(d) + " could not go back to " +
                      format_count(size) + " slots (" + again.what() +
                      "), so the shards differ in size; every key is kept");
    }
}

template <class K, class V>
std::uint64_t sharded_table<K, V>::retrieve_pairs(std::span<K> keys, std::span<V> values,
                                                  stream_view s) {
  detail::check_bulk("retrieve_all", keys.size(), values.size(), 0);
  synchronize(s);
  if (exchange_->spans_processes()) {  // a process of one rank holds, and returns, its own shard
    const std::uint32_t r = exchange_->local_ranks().front();
    const auto on = scope_of(r);
    return shards_[r]->retrieve_all(keys, values, stream_of(r));
  }
  const memory_space sp = space();
  const std::uint32_t n = devices();
  std::vector<std::uint64_t> live(n), taken(n);
  std::uint64_t total = 0, room = keys.size();
  for (std::uint32_t r = 0; r < n; ++r) {
    const auto on = scope_of(r);
    live[r] = shards_[r]->retrieve_all(std::span<K>{}, std::span<V>{}, stream_of(r));
    taken[r] = std::min(live[r], room);
    room -= taken[r];
    total += live[r];
    if (taken[r] == 0) continue;  // a count, or no room left: nothing to stage
    rank_buffers& b = buffers_of(r, 0);
    detail::fit(b.send_keys, sp, live[r]);
    detail::fit(b.send_values, sp, live[r]);
    shards_[r]->retrieve_all(std::span<K>(b.send_keys.data(), live[r]),
                             std::span<V>(b.send_values.data(), live[r]), stream_of(r));
  }
  if (keys.empty()) return total;
  // Every shard's pairs go to rank 0, in rank order, through the exchange.
  std::vector<rank_segments> lanes;
  for (std::uint32_t r = 0; r < n; ++r) {
    std::vector<std::uint64_t> out(n, 0), in(n, 0);
    out[0] = taken[r];
    if (r == 0) in = taken;
    rank_buffers& b = buffers_of(r, 0);
    lanes.push_back(detail::lane_segments(r, n, stream_of(r), b.send_keys.data(), out, keys.data(),
                                          in, sizeof(K)));
    lanes.push_back(detail::lane_segments(r, n, stream_of(r), b.send_values.data(), out,
                                          values.data(), in, sizeof(V)));
  }
  exchange_->all_to_all(lanes, "retrieve_all");
  sync_all();
  return total;
}

template <class K, class V>
template <class T>
void sharded_table<K, V>::share_between_ranks(std::vector<T>& each) {
  // Every rank's entry to every rank, as bytes through the exchange (one binary, one layout).
  static_assert(std::is_trivially_copyable_v<T>);
  const std::uint32_t n = exchange_->ranks();
  const std::vector<std::uint64_t> ones(n, 1);
  std::vector<buffer<T>> in(n), out(n);
  std::vector<rank_segments> lanes;
  for (const std::uint32_t r : exchange_->local_ranks()) {
    const auto on = scope_of(r);
    out[r] = buffer<T>(space(), n);
    in[r] = buffer<T>(space(), n);
    const std::vector<T> mine(n, each[r]);
    copy_bytes(out[r].data(), space(), mine.data(), memory_space::host, n * sizeof(T),
               stream_of(r));
    lanes.push_back(detail::lane_segments(r, n, stream_of(r), out[r].data(), ones, in[r].data(),
                                          ones, sizeof(T)));
  }
  exchange_->all_to_all(lanes, "share");
  const std::uint32_t r = exchange_->local_ranks().front();
  const auto on = scope_of(r);
  copy_bytes(each.data(), memory_space::host, in[r].data(), space(), n * sizeof(T), stream_of(r));
  exchange_->wait(r, stream_of(r));
}

}  // namespace hs
