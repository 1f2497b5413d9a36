// A sharded table's inspection, state and regpus (included by sharded_table.cpp only).
#pragma once
#include <algorithm>
#include <string>

#include "core/common/format.hpp"
#include "core/shard/sharded_whole_impl.hpp"

namespace hs {

namespace detail {
inline std::string shard_prefix(std::uint32_t r) { return "shard" + std::to_string(r) + "."; }
}  // namespace detail

namespace detail {

/// One shard's part of an occupancy grid over the whole table: pixels [p0, p1) of the grid, as a
/// query of its own slots.
struct occupancy_part {
  std::uint32_t shard = 0;
  std::uint64_t p0 = 0, p1 = 0;
  occupancy_query query;
};

/// Cuts a grid over the concatenated shards (shard r holds slots [r per, (r + 1) per)) into the
/// pixels whose first slot each shard holds; pixels past the table's end go with the last. A pixel
/// across two shards shows the first one's slots of it.
inline std::vector<occupancy_part> split_occupancy(const occupancy_query& q, std::uint64_t per,
                                                   std::uint32_t shards) {
  const std::uint64_t pixels = std::uint64_t{q.width} * q.height;
  const auto first_slot = [&](std::uint64_t p) {
    std::uint64_t lo, hi;
    pixel_slot_range(q, p, lo, hi);
    return lo;
  };
  const auto first_pixel_from = [&](std::uint64_t slot) {  // the first pixel starting at or past
    std::uint64_t a = 0, b = pixels;
    while (a < b) {
      const std::uint64_t m = (a + b) / 2;
      if (first_slot(m) < slot)
        a = m + 1;
      else
        b = m;
    }
    return a;
  };
  std::vector<occupancy_part> parts;
  const std::uint64_t end = std::min(q.first_slot + q.slot_count, per * shards);
  for (std::uint32_t r = 0; r < shards; ++r) {
    const std::uint64_t lo = std::uint64_t{r} * per, hi = lo + per;
    if (hi <= q.first_slot || lo >= end) continue;
    occupancy_part part;
    part.shard = r;
    part.p0 = first_pixel_from(std::max(lo, q.first_slot));
    part.p1 = hi >= end ? pixels : first_pixel_from(hi);
    if (part.p0 >= part.p1) continue;
    const std::uint64_t from = std::max(first_slot(part.p0), lo);
    part.query.first_slot = from - lo;
    part.query.slot_count = std::min(hi, end) - from;
    part.query.width = static_cast<std::uint32_t>(part.p1 - part.p0);
    part.query.height = 1;
    parts.push_back(part);
  }
  return parts;
}

}  // namespace detail

// A sample of the whole table: the probe histograms add up; the occupancy grid over the slots of
// every shard in turn is cut into each shard's pixels; slot dumps go to the shard that holds them.
// A family's own parts and the bucket strip come from shard 0 (each shard's own are read through
// shard(d)).
template <class K, class V>
void sharded_table<K, V>::inspect(const inspect_request& req, inspect_result& out, stream_view s) {
  require_one_process("inspect");
  synchronize(s);
  const memory_space sp = space();
  const std::uint32_t n = devices();
  const std::uint64_t per = shards_[0]->capacity();
  out = inspect_result{};
  std::vector<detail::occupancy_part> grid;
  if (req.occupancy) grid = detail::split_occupancy(*req.occupancy, per, n);
  for (std::uint32_t r = 0; r < n; ++r) {
    const auto on = scope_of(r);
    inspect_request mine;
    if (r == 0) {
      static_cast<family_inspect_requests&>(mine) = req;
      mine.strip = req.strip;
    }
    mine.probe_histogram = req.probe_histogram;
    const std::uint64_t lo = std::uint64_t{r} * per;
    if (req.dump_first && *req.dump_first >= lo && *req.dump_first < lo + per) {
      mine.dump_first = *req.dump_first - lo;
      mine.dump_count = static_cast<std::uint32_t>(
          std::min<std::uint64_t>(req.dump_count, lo + per - *req.dump_first));
    }
    buffer<occupancy_pixel> band;
    const detail::occupancy_part* part = nullptr;
    for (const detail::occupancy_part& g : grid)
      if (g.shard == r) part = &g;
    if (part) {
      band = buffer<occupancy_pixel>(sp, part->p1 - part->p0);
      mine.occupancy = part->query;
      mine.occupancy->out = band.data();
    }
    inspect_result got;
    shards_[r]->inspect(mine, got, stream_of(r));
    if (part)
      copy_bytes(req.occupancy->out + part->p0, sp, band.data(), sp,
                 band.size() * sizeof(occupancy_pixel), stream_of(r));
    synchronize(stream_of(r));
    if (r == 0) {
      static_cast<family_inspect_results&>(out) = std::move(got);
      out.strip = std::move(got.strip);
    }
    if (req.probe_histogram) out.per_device.push_back(got.histogram);
    for (std::uint32_t b = 0; b < got.histogram.counts.size() && req.probe_histogram; ++b)
      out.histogram.counts[b] += got.histogram.counts[b];
    out.histogram.total += got.histogram.total;
    out.histogram.sum += got.histogram.sum;
    out.histogram.max = std::max(out.histogram.max, got.histogram.max);
    for (slot_record rec : got.slots) {
      rec.slot += lo;
      rec.home += lo;
      out.slots.push_back(rec);
    }
  }
}

template <class K, class V>
table_state sharded_table<K, V>::save_state(stream_view s) {
  require_one_process("save_state");
  synchronize(s);
  table_state all;
  all.config = config();
  for (std::uint32_t r = 0; r < devices(); ++r) {
    const auto on = scope_of(r);
    table_state one = shards_[r]->save_state(stream_of(r));
    const std::string p = detail::shard_prefix(r);
    for (state_part& part : one.parts) all.parts.push_back({p + part.name, std::move(part.bytes)});
    for (const auto& [name, value] : one.numbers) all.set_number(p + name, value);
    all.set_number(p + "capacity", one.config.capacity);
  }
  all.add_part("owners", memory_space::host, map_.device_of.data(), memory_space::host,
               map_.device_of.size(), {});
  return all;
}

template <class K, class V>
void sharded_table<K, V>::restore_state(const table_state& st, stream_view s) {
  require_one_process("restore_state");
  check_restorable(st.config, config());
  synchronize(s);
  // Every shard's parts and numbers are looked up before any shard changes.
  std::vector<table_state> mine(devices());
  for (std::uint32_t r = 0; r < devices(); ++r) {
    const std::string p = detail::shard_prefix(r);
    mine[r].config = st.config;
    mine[r].config.devices = 1;
    mine[r].config.owner = owner_bits::independent;
    mine[r].config.capacity = st.number(p + "capacity");
    for (const auto& [name, value] : st.numbers)
      if (name.starts_with(p) && name != p + "capacity")
        mine[r].set_number(name.substr(p.size()), value);
    for (const state_part& part : st.parts)
      if (part.name.starts_with(p)) {
        const auto on = scope_of(r);
        mine[r].add_part(part.name.substr(p.size()), space(), part.bytes.data(), part.bytes.space(),
                         part.bytes.size(), stream_of(r));
      }
  }
  const auto owners = st.host_part<std::uint8_t>("owners", k_virtual_shards, {});
  for (const std::uint8_t d : owners)
    if (d >= devices()) throw user_error("the state's owners name device " + std::to_string(d));
  // A shard checks its own part only as it restores it: one that refuses (or finds no memory)
  // after others took theirs would leave a table of two states. Each shard's state now is kept in
  // its own memory first (a copy on the device: in host memory it cost 0.9 s at 2^27 slots), and
  // put back on every shard up to the one that failed.
  std::vector<table_state> kept = kept_shard_states();
  std::uint32_t r = 0;
  try {
    for (; r < devices(); ++r) {
      const auto on = scope_of(r);
      shards_[r]->restore_state(mine[r], stream_of(r));
    }
  } catch (const user_error& e) {
    put_back_states(kept, r, e.what());
    throw user_error("device " + std::to_string(r) + "'s part of the state: " + e.what() +
                     "; every device keeps the table it had");
  } catch (const std::exception& e) {
    put_back_states(kept, r, e.what());
    throw gpu_error("restoring device " + std::to_string(r) + "'s part of the state: " + e.what() +
                    "; every device keeps the table it had");
  }
  std::copy(owners.begin(), owners.end(), map_.device_of.begin());
  cfg_.capacity = st.config.capacity;
  sync_all();
  std::lock_guard hold(last_lock_);
  last_ = batch_exchange{};
}

template <class K, class V>
std::vector<table_state> sharded_table<K, V>::kept_shard_states() {
  std::vector<table_state> kept(devices());
  for (std::uint32_t r = 0; r < devices(); ++r) try {
      const auto on = scope_of(r);
      kept[r] = shards_[r]->save_state(stream_of(r));
    } catch (const gpu_error& e) {
      throw gpu_error(
          "a restore keeps every device's table until all have taken their parts, "
          "and device " +
          std::to_string(r) + " has no room for its copy (" + e.what() +
          "); the table is unchanged");
    }
  return kept;
}

template <class K, class V>
void sharded_table<K, V>::put_back_states(const std::vector<table_state>& kept,
                                          std::uint32_t failed, const std::string& why) {
  // The shard that failed too: its family may have changed it before it found what was wrong.
  for (std::uint32_t r = 0; r <= failed && r < devices(); ++r) try {
      const auto on = scope_of(r);
      shards_[r]->restore_state(kept[r], stream_of(r));
    } catch (const std::exception& again) {
      throw gpu_error("restoring device " + std::to_string(failed) +
                      "'s part of the state failed (" + why + "), and device " + std::to_string(r) +
                      " could not take back the table it had (" + again.what() +
                      "): the table holds parts of two states; clear it or open a table file");
    }
}

template <class K, class V>
regpus_result sharded_table<K, V>::regpus(std::uint32_t to, stream_view s) {
  require_one_process("regpus");
  synchronize(s);
  regpus_result res;
  res.from = devices();
  res.to = to;
  // The capacity now (a rehash or a restore may have changed it), and every check the new split
  // must pass made before any shard is touched: a refusal then leaves the table as it was.
  // (A family that rounds its capacity up, the slab's, is moved at the capacity it was asked for.)
  const std::uint64_t total =
      describe(cfg_.family).pow2_capacity ? config().capacity : cfg_.capacity;
  table_config next = cfg_;
  next.capacity = total;
  next.devices = to;
  detail::check_split(next);
  const memory_space sp = space();
  const std::uint32_t ranks = std::max(res.from, to);
  std::unique_ptr<shard_exchange> wide = parts_.exchange(ranks);
  // Each shard's live pairs, in its own memory, before the new shards are made beside them. They
  // stay there until the move is done: a move that fails puts them back where they were.
  std::vector<buffer<K>> keys(ranks);
  std::vector<buffer<V>> values(ranks);
  std::vector<buffer<op_status>> status(ranks);
  for (std::uint32_t r = 0; r < res.from; ++r) {
    const auto on = scope_of(r);
    const std::uint64_t live =
        shards_[r]->retrieve_all(std::span<K>{}, std::span<V>{}, stream_of(r));
    keys[r] = buffer<K>(sp, live);
    values[r] = buffer<V>(sp, live);
    status[r] = buffer<op_status>(sp, live);
    shards_[r]->retrieve_all(keys[r].span(), values[r].span(), stream_of(r));
    res.keys += live;
  }
  const shard_map before = map_;
  try {
    map_ = before.regrouped(to);
    for (std::uint32_t v = 0; v < k_virtual_shards; ++v)
      res.virtual_shards_moved += before.device_of[v] != map_.device_of[v];
    for (std::uint32_t r = 0; r < res.from; ++r) {  // their pairs are out: free them first
      const auto on = scope_of(r);
      shards_[r].reset();
    }
    cfg_.devices = to;
    exchange_ = std::move(wide);  // first: the new shards' ranks are among its ranks
    make_shards(to, total / to);
    keep_ranks(ranks);
    std::vector<rank_io<K, V>> io(ranks);
    for (std::uint32_t r = 0; r < ranks; ++r)
      io[r] = {{}, keys[r].cspan(), values[r].cspan(), {}, status[r].span()};
    run(sharded_op::insert, io);
    for (std::uint32_t i = 0; i < ranks; ++i)
      for (std::uint32_t j = 0; j < ranks; ++j)
        if (i != j) res.keys_moved += building_.keys_from_to(i, j);
    res.bytes_moved = res.keys_moved * (sizeof(K) + sizeof(V));
    if (ranks != to) exchange_ = parts_.exchange(to);
    keep_ranks(to);
    if (const std::uint64_t no_room = stats(s).failed_full)
      throw user_error(format_count(no_room) + " of " + format_count(res.keys) +
                       " pairs would find no room on their new devices");
  } catch (const std::exception& e) {
    put_back(before, res.from, total / res.from, keys, values, status);
    throw user_error(std::string(e.what()) + "; the table stays on " + std::to_string(res.from) +
                     " devices with every pair");
  }
  return res;
}

template <class K, class V>
void sharded_table<K, V>::put_back(const shard_map& before, std::uint32_t devices,
                                   std::uint64_t shard_capacity, std::vector<buffer<K>>& keys,
                                   std::vector<buffer<V>>& values,
                                   std::vector<buffer<op_status>>& status) {
  try {
    for (std::uint32_t r = 0; r < shards_.size(); ++r) {  // whatever the move made
      const auto on = scope_of(r);
      shards_[r].reset();
    }
    map_ = before;
    cfg_.devices = devices;
    exchange_ = parts_.exchange(devices);
    make_shards(devices, shard_capacity);
    // Each device's pairs never left its memory, and they are its own under the old map.
    for (std::uint32_t r = 0; r < devices; ++r) {
      const auto on = scope_of(r);
      shards_[r]->insert(keys[r].cspan(), values[r].cspan(), status[r].span(), stream_of(r));
      synchronize(stream_of(r));
    }
    if (const std::uint64_t lost = stats({}).failed_full)
      throw user_error(format_count(lost) + " pairs found no room again");
  } catch (const std::exception& e) {
    throw gpu_error(std::string("regpus failed and the table could not be put back (") + e.what() +
                    "): Reset it, or open a table file");
  }
}

}  // namespace hs
