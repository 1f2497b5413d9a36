// The GPU hive table (the Hive paper): the host owner of the buckets, masks, lock words, stash and
// counters. Kernels are templated on bucket size and tile (hive_kernels.cu); this class checks
// arguments, resizes by linear hashing (alone on the table) and dispatches.
#pragma once
#include <array>
#include <atomic>
#include <mutex>
#include <shared_mutex>

#include "core/common/memory.hpp"
#include "core/common/read_write_order.hpp"
#include "core/hive/hive_family.hpp"

namespace hs::hive {

class hive_table final : public hive_family {
 public:
  explicit hive_table(const table_config& cfg);
  ~hive_table() override;
  hive_table(const hive_table&) = delete;
  hive_table& operator=(const hive_table&) = delete;

  table_config config() const override;
  void insert_batch(std::span<const key_type> keys, std::span<const value_type> values,
                    std::span<op_status> status, stream_view s) override;
  void find_batch(std::span<const key_type> keys, std::span<value_type> values_out,
                  std::span<op_status> status, stream_view s) override;
  void erase_batch(std::span<const key_type> keys, std::span<op_status> status,
                   stream_view s) override;
  void apply_batch(const op_batch& ops, std::span<value_type> results, std::span<op_status> status,
                   stream_view s) override;
  void clear(stream_view s) override;
  table_stats stats(stream_view s) override;
  void inspect(const inspect_request& req, inspect_result& out, stream_view s) override;
  std::uint64_t retrieve_pairs(std::span<key_type> keys, std::span<value_type> values,
                               stream_view s) override;
  void rehash(std::uint64_t capacity, stream_view s) override;
  table_state save_state(stream_view s) override;
  void restore_state(const table_state& st, stream_view s) override;

  std::uint64_t expand(std::uint64_t buckets, stream_view s) override;
  std::uint64_t contract(std::uint64_t buckets, stream_view s) override;
  void set_instrumentation(bool on) override;
  std::vector<path_record> recent_paths(stream_view s) override;
  void copy_step_counters(std::uint64_t* out, stream_view s) override;
  hive_image snapshot(stream_view s) override;

 private:
  // The inspection under the table and scratch locks (the paths are read after: they lock too).
  void inspect_locked(const inspect_request& req, inspect_result& out, stream_view s);
  /// The table as kernels see it, with a fresh eviction seed (call with table_mutex_ held).
  hive_ref ref();
  void launch(const batch_io& io, stream_view s);
  /// Whether an insert batch of n goes the bulk way (large batches, no statuses asked for, scratch
  /// memory to be had; call with table_mutex_ held alone).
  bool use_bulk(std::uint64_t n, bool statuses);
  /// How many keys of an insert batch of n (no statuses) the bulk rounds should take.
  std::uint64_t bulk_share(std::uint64_t n) const;
  static constexpr double k_bulk_load = 0.9;  // past it, inserts go key by key (bulk_share)
  /// Live words in buckets and in the stash, counted (synchronizes; call with table_mutex_ held).
  std::array<std::uint64_t, 2> census(stream_view s);
  /// Live keys by a census (synchronizes; call with table_mutex_ held).
  std::uint64_t live_now(stream_view s);
  /// Before `inserts` inserts: expands while the load would pass grow_above (auto resize on).
  void grow_for(std::uint64_t inserts, stream_view s);
  /// After `erases` erases: contracts while the load is below shrink_below (auto resize on).
  void shrink_after(std::uint64_t erases, stream_view s);
  std::uint64_t expand_locked(std::uint64_t buckets, stream_view s);
  std::uint64_t contract_locked(std::uint64_t buckets, stream_view s);
  /// The arrays a new round replaced, kept until the split steps that read them are queued.
  struct old_arrays {
    buffer<word_type> words;
    buffer<meta_word> meta;
  };
  /// Makes room for 2 * round buckets, copying the buckets in use except [from, to): those this
  /// call splits next, which the split reads from the returned old arrays (a round's whole copy
  /// was a fifth of an expansion). Returns empty arrays when the room was there.
  old_arrays reserve_round(std::uint64_t from, std::uint64_t to, stream_view s);
  /// Copies the stash's live words out and empties it (hints too).
  std::vector<word_type> drain_stash(stream_view s);
  /// Inserts moved entries again (not counted as inserts, nor their refusals); returns those
  /// refused.
  std::vector<word_type> reinsert(const std::vector<word_type>& words, stream_view s);
  void allocate(std::uint64_t buckets);

  mutable std::shared_mutex table_mutex_;  // bulk calls share; resizes and clear take it alone
  read_write_order order_;                 // lookups skip their guards when no write can overlap
  std::mutex scratch_mutex_;  // meta_[3..5] (census, retrieve) and the inspection buffers
  table_config cfg_;
  hive_shape shape_;
  geometry geo_;
  std::uint64_t allocated_ = 0;  // buckets the arrays hold
  buffer<word_type> words_;
  buffer<meta_word> bucket_meta_;  // per bucket: free mask and lock word (hive_layout.hpp)
  buffer<word_type> stash_;
  buffer<unsigned long long> meta_;  // [0] stash tail, [1] stash live, [2] path head, [3..] scratch
  buffer<unsigned long long> counters_;  // c_count
  buffer<unsigned long long> tallies_;   // k_tally_shards x k_tally_stride, folded into counters_
  buffer<path_record> paths_;
  buffer<word_type> overflow_;  // a contraction step's entries that did not fit their bucket
  buffer<unsigned long long> overflowed_;  // how many
  buffer<device_histogram> histograms_;    // inspection scratch (under scratch_mutex_)
  buffer<float> strip_;
  std::atomic<bool> instrument_{false};
  bulk_scratch bulk_;  // grouped copies of large insert batches (under table_mutex_ held alone)
  std::atomic<std::uint32_t> seed_{1};
  std::atomic<std::uint64_t> live_bound_{
      0};  // live keys at most (exact at the last census + inserts since)
  std::atomic<std::uint64_t> erases_since_{0};  // erases issued since the last census
  std::uint64_t splits_ = 0, merges_ = 0, merges_refused_ = 0;
  std::atomic<std::uint64_t> bulk_batches_{0},
      bulk_rest_{0};  // bulk inserts (under table_mutex_ held alone)
};

}  // namespace hs::hive
