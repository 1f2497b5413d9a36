// The CPU reference model of the hive family: the same buckets, masks, stash and linear-hashing
// geometry as the GPU table, operations applied one at a time in batch order with the same four
// insert steps (its eviction walks use the same pseudo-random choices with its own seeds, so
// where an evicted key lands may differ from the GPU; which keys the table holds does not).
#pragma once
#include <mutex>

#include "core/hive/hive_family.hpp"
#include "core/table/model_batches.hpp"

namespace hs::hive {

class hive_model final : public hive_family {
 public:
  explicit hive_model(const table_config& cfg);

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

  /// @brief One operation with sequential semantics (what the GPU kernels must agree with). These
  /// are the rule alone: the batch calls count refused operations.
  op_status insert_one(key_type k, value_type v);
  op_status find_one(key_type k, value_type& out) const;
  op_status erase_one(key_type k);
  const hive_image& image() const { return img_; }

 private:
  op_status insert_unlocked(key_type k, value_type v, bool count_steps);
  bool evict_for(key_type k, value_type v, const candidates& c, int attempt);
  /// The stash position of k, or -1 (only when k's first candidate has a hint).
  long long stash_find(key_type k, const candidates& c) const;
  /// Automatic resizing as the GPU table decides it (see hive_model.cpp).
  std::uint64_t count_live();
  void grow_for(std::uint64_t ops);
  void shrink_after(std::uint64_t ops);
  std::uint64_t expand_unlocked(std::uint64_t buckets);
  std::uint64_t contract_unlocked(std::uint64_t buckets);
  void split_step(std::uint64_t count);
  /// Merges `count` pairs; entries a full bucket cannot take are appended to `overflow`.
  void merge_step(std::uint64_t count, std::vector<word_type>& overflow);
  /// Empties the stash and returns what it held (to be inserted again after a resize step).
  std::vector<word_type> drain_stash();
  /// Inserts moved entries again (not counted as inserts); returns those refused.
  std::vector<word_type> reinsert(const std::vector<word_type>& words);
  void ensure_storage(std::uint64_t buckets);

  table_config cfg_;
  hive_shape shape_;
  hive_image img_;
  std::uint32_t seed_ = 1;  // changes per batch, as the GPU's per-launch seed does
  std::uint64_t live_bound_ = 0, erases_since_ = 0;  // automatic resizing (grow_for, shrink_after)
  rejected_tally rejected_;
  std::uint64_t failed_full_ = 0, splits_ = 0, merges_ = 0, merges_refused_ = 0;
  bool moving_inside_ =
      false;  // reinsert: entries moved by a resize, not counted as the user's work
  std::uint64_t steps_[4] = {}, moves_ = 0, restarts_ = 0,
                path_lengths_[k_max_eviction_depth + 1] = {};
  std::vector<path_record> paths_;  // ring of k_path_ring, oldest first after rotation
  std::uint64_t path_head_ = 0;
  mutable model_mutex mutex_;  // a session's worker mutates while the UI thread inspects
};

}  // namespace hs::hive
