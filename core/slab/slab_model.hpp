// The CPU reference model of the slab family: the same slabs, addresses and bitmaps as the GPU
// table, operations applied one at a time in batch order. SlabAlloc is modelled by a next-fit scan
// of the bitmaps (which slab a list gets differs from the GPU; the lists' contents do not), adding
// a super block when every slab is taken, up to the pool limit.
#pragma once
#include <mutex>

#include "core/slab/slab_family.hpp"
#include "core/slab/slab_sizing.hpp"
#include "core/table/model_batches.hpp"

namespace hs::slab {

class slab_model final : public slab_family {
 public:
  explicit slab_model(const table_config& cfg);

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

  void erase_all(std::span<const key_type> keys, std::span<std::uint32_t> removed,
                 stream_view s) override;
  void count(std::span<const key_type> keys, std::span<std::uint32_t> counts,
             stream_view s) override;
  void search_all(std::span<const key_type> keys, std::span<const std::uint64_t> offsets,
                  std::span<value_type> values_out, stream_view s) override;
  void flush(stream_view s) override;
  slab_image snapshot(stream_view s) override;

  /// @brief One operation with sequential semantics (what the GPU kernels must agree with). These
  /// are the rule alone: the batch calls count refused operations.
  op_status insert_one(key_type k, value_type v);
  op_status find_one(key_type k, value_type& out) const;
  op_status erase_one(key_type k);
  std::uint32_t erase_all_one(key_type k);
  std::uint32_t count_one(key_type k) const;
  /// @brief Replaces the state with a copy of another table's (same buckets), e.g. a GPU snapshot.
  void load(slab_image img);
  const slab_image& image() const { return img_; }

 private:
  /// A free slab, marked allocated and emptied, or k_null_address when the pool is exhausted.
  std::uint32_t allocate();
  void release(std::uint32_t address);
  /// Finds the first pair of the list (in order) for which pred(key) holds: its slab and index.
  template <class Pred>
  bool first_pair(std::uint32_t bucket, Pred pred, std::uint32_t*& slab, int& pair);
  void reset_storage(std::uint64_t buckets);

  table_config cfg_;
  pool_shape shape_;
  slab_image img_;
  std::uint64_t next_fit_ = 0;  // slab index where the allocator's scan resumes
  rejected_tally rejected_;
  std::uint64_t failed_full_ = 0, alloc_failures_ = 0;
  mutable model_mutex mutex_;  // a session's worker mutates while the UI thread inspects
};

}  // namespace hs::slab
