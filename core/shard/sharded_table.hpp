// One table over several devices: a shard a device, each an ordinary table of the family, and a
// batch routed to the owners of its keys through the exchange and answered in the caller's order.
// The same class runs GPUs through NCCL and simulated devices (CPU models) through the host
// stand-in; only the exchange and the memory space differ. README.md walks through a batch.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/shard/rank_scope.hpp"
#include "core/shard/shard_exchange.hpp"
#include "core/shard/sharded_view.hpp"
#include "core/table/table_of.hpp"

namespace hs {

/// @brief How a sharded table gets its parts: the shard of device d, an exchange over n ranks.
struct shard_parts {
  std::function<std::unique_ptr<table>(std::uint32_t device, const table_config& shard_cfg)> make;
  std::function<std::unique_ptr<shard_exchange>(std::uint32_t ranks)> exchange;
};

namespace detail {
/// Throws hs::user_error unless cfg's capacity splits into cfg.devices shards the family takes.
void check_split(const table_config& cfg);
}  // namespace detail

/// @brief One local rank's part of a batch, in that rank's memory: its keys (with values for
/// inserts, kinds for a mixed batch) and where its answers go (either may be empty).
template <class K, class V>
struct rank_io {
  std::span<const op_kind> kinds;
  std::span<const K> keys;
  std::span<const V> values;
  std::span<V> results;
  std::span<op_status> status;
};

enum class sharded_op : std::uint8_t { insert, find, erase, apply };

template <class K, class V>
class sharded_table final : public table_of<K, V>, public sharded_view {
 public:
  /// @brief Makes cfg.devices shards of cfg.capacity / cfg.devices through `parts`.
  sharded_table(const table_config& cfg, shard_parts parts);
  ~sharded_table() override;

  table_config config() const override;
  void clear(stream_view s) override;
  table_stats stats(stream_view s) override;
  void inspect(const inspect_request& req, inspect_result& out, stream_view s) override;
  void rehash(std::uint64_t capacity, stream_view s) override;
  table_state save_state(stream_view s) override;
  void restore_state(const table_state& st, stream_view s) override;

  std::uint32_t devices() const override { return static_cast<std::uint32_t>(shards_.size()); }
  table& shard(std::uint32_t d) override;
  const shard_map& map() const override { return map_; }
  batch_exchange last_exchange() const override {
    std::lock_guard hold(last_lock_);
    return last_;
  }
  std::vector<table_stats> shard_stats(stream_view s) override;
  std::string exchange_name() const override { return exchange_->describe(); }
  regpus_result regpus(std::uint32_t devices, stream_view s) override;
  std::uint64_t chunk_keys() const override { return chunk_; }
  void set_chunk_keys(std::uint64_t keys) override { chunk_ = keys ? keys : 1; }

  /// @brief Runs a batch whose keys start on every local rank (`io[k]` is local rank k's part):
  /// the path the hs::table calls take with every key on rank 0, and regpus with each shard's own.
  void run(sharded_op op, std::span<const rank_io<K, V>> io);

 protected:
  void insert_batch(std::span<const K> keys, std::span<const V> values, std::span<op_status> status,
                    stream_view s) override;
  void find_batch(std::span<const K> keys, std::span<V> values_out, std::span<op_status> status,
                  stream_view s) override;
  void erase_batch(std::span<const K> keys, std::span<op_status> status, stream_view s) override;
  void apply_batch(const basic_op_batch<K, V>& ops, std::span<V> results,
                   std::span<op_status> status, stream_view s) override;
  std::uint64_t retrieve_pairs(std::span<K> keys, std::span<V> values, stream_view s) override;

 private:
  struct rank_buffers;  // one rank's lanes, grown on demand and kept (sharded_batch_impl.hpp)
  struct batch_plan;    // the counts of one batch, on the host
  /// What every rank must agree on before a batch's steps (across processes, agree()).
  struct batch_terms {
    sharded_op op = sharded_op::insert;
    std::uint64_t most = 0;   ///< the most keys any rank holds
    std::uint64_t chunk = 0;  ///< keys a rank a chunk
    bool want_status = false, want_values = false;
    std::string refusal;  ///< why the batch is refused (a check that failed), or empty
  };
  batch_terms agree(const batch_terms& mine);
  void run_chunks(sharded_op op, std::span<const rank_io<K, V>> io, std::uint64_t chunk,
                  std::size_t chunks, bool want_status, bool want_values);
  /// Runs a batch call's checks; across processes a failure is kept for run() to share, so that
  /// every rank refuses the batch together instead of leaving the others inside it.
  template <class Check>
  bool checked_together(Check check);

  memory_space space() const { return exchange_->space(); }
  /// The rank's GPU current for the scope's life (nothing on simulated devices).
  detail::rank_scope scope_of(std::uint32_t r) const {
    return {space() == memory_space::device, exchange_->device_of(r)};
  }
  /// Across processes, the calls that need every shard in this process refuse, saying so.
  void require_one_process(const char* call) const;
  /// Across processes: fills every other rank's entry of `each` (one a rank) from that rank.
  template <class T>
  void share_between_ranks(std::vector<T>& each);
  void whole_batch(sharded_op op, rank_io<K, V> io, stream_view s);
  // The steps of one chunk; p picks the chunk's set of lanes (chunks alternate between two).
  void partition(sharded_op op, std::span<const rank_io<K, V>> io, bool answers, int p);
  batch_plan exchange_counts(int p);
  /// Records a detail::batch_mark on every local rank's exchange stream.
  void mark_ranks(int mark, int p);
  void send_out(sharded_op op, const batch_plan& plan, int p);
  void run_shards(sharded_op op, const batch_plan& plan, bool want_status, bool want_values, int p);
  void call_shard(sharded_op op, std::uint32_t r, std::size_t m, bool want_status, bool want_values,
                  int p);
  void send_back(const batch_plan& plan, std::span<const rank_io<K, V>> io, bool want_status,
                 bool want_values, int p);
  void begin_record(sharded_op op, bool want_status, bool want_values);
  void add_to_record(const batch_plan& plan);
  void collect_phases(int p);
  void make_shards(std::uint32_t devices, std::uint64_t shard_capacity);
  /// A move that failed: the old map and shards again, each refilled with the pairs taken out of
  /// it (still in its memory). Throws gpu_error if even that fails.
  void put_back(const shard_map& before, std::uint32_t devices, std::uint64_t shard_capacity,
                std::vector<buffer<K>>& keys, std::vector<buffer<V>>& values,
                std::vector<buffer<op_status>>& status);
  /// Every shard's state now, each in its shard's memory: what a restore that fails part-way puts
  /// back. Throws hs::gpu_error, nothing changed, where a device has no room for the copy.
  std::vector<table_state> kept_shard_states();
  /// Restores shards [0, failed] from `kept` after shard `failed` refused its part (`why`);
  /// throws hs::gpu_error, saying the table is mixed, if one of them cannot take it back.
  void put_back_states(const std::vector<table_state>& kept, std::uint32_t failed,
                       const std::string& why);
  /// A rehash that a device refused (`why`): the shards in `done` (device, size before) go back
  /// to their size. Throws hs::gpu_error, saying the sizes differ, if one cannot.
  void rehash_back(const std::vector<std::pair<std::uint32_t, std::uint64_t>>& done,
                   const std::string& why);
  /// Streams and lane buffers for ranks [0, ranks): regpus's step spans the old and new devices.
  void keep_ranks(std::uint32_t ranks);
  void sync_all();
  /// The rank's exchange stream (partition, exchange, restore; and whole-table calls).
  stream_view stream_of(std::uint32_t rank) const { return streams_[rank].view(); }
  /// The rank's work stream: its shard's table calls, overlapping the next chunk's exchange.
  stream_view work_of(std::uint32_t rank) const { return work_streams_[rank].view(); }
  rank_buffers& buffers_of(std::uint32_t rank, int p) { return *buffers_[2 * rank + p]; }

  table_config cfg_;
  shard_parts parts_;
  shard_map map_;
  std::unique_ptr<shard_exchange> exchange_;
  std::vector<std::unique_ptr<table>> shards_;
  std::vector<owned_stream> streams_, work_streams_;
  /// Two sets of lanes a rank: [2 * rank + p].
  std::vector<std::unique_ptr<rank_buffers>> buffers_;
  /// Keys a rank a chunk. Smaller chunks measured slower on two H200s (inserts of 2^26 keys a
  /// GPU: 0.37x a GPU in 4M chunks, 0.47x in 16M, 0.59x whole; core/shard/README.md): the table
  /// calls and the next chunk's kernels share the SMs, so the pipeline hides little.
  std::uint64_t chunk_ = std::uint64_t{1} << 26;
  std::size_t out_bytes_ = 0, back_bytes_ = 0;  ///< a key's bytes out and back
  std::string refusal_;                         ///< a batch call's failed check, for run()
  batch_exchange building_;                     ///< the batch being run
  batch_exchange last_;                         ///< the last one finished, under last_lock_
  mutable std::mutex last_lock_;
};

}  // namespace hs
