// The CPU reference model of the linear family: the same slot layout and hash as the GPU table,
// operations applied one at a time in order, for either key width (the slot type W). It is the
// test oracle and the CPU backend.
#pragma once
#include <algorithm>
#include <mutex>
#include <span>
#include <vector>

#include "core/linear/linear_layout.hpp"
#include "core/table/model_batches.hpp"
#include "core/table/table.hpp"
#include "core/table/table_of.hpp"

namespace hs::linear {

template <class W>
class basic_linear_model final : public table_of<key_of_t<W>, value_of_t<W>> {
 public:
  using key = key_of_t<W>;
  using value = value_of_t<W>;
  using index = index_of_t<W>;
  using batch = basic_op_batch<key, value>;

  explicit basic_linear_model(const table_config& cfg);

  table_config config() const override {
    std::lock_guard lock(mutex_);
    return cfg_;
  }
  void clear(stream_view s) override;
  table_stats stats(stream_view s) override;
  void inspect(const inspect_request& req, inspect_result& out, stream_view s) override;
  void rehash(std::uint64_t capacity, stream_view s) override;
  table_state save_state(stream_view s) override;
  void restore_state(const table_state& st, stream_view s) override;

  /// @brief One operation with sequential semantics (what the GPU kernels must agree with). These
  /// are the rule alone: the batch calls count refused operations.
  op_status insert_one(key k, value v);
  op_status find_one(key k, value& out) const;
  op_status erase_one(key k);

  /// @brief Adopts a copy of another table's slots (same capacity), recomputing the counters, so
  /// that inspection of a GPU table's exact layout can be compared with the model's.
  void load_slots(std::span<const W> slots);

  /// @brief The slots as stored (for checkers and tests; not synchronized with other callers).
  std::span<const W> slots() const { return slots_; }
  index mask() const { return mask_; }

 protected:
  void insert_batch(std::span<const key> keys, std::span<const value> values,
                    std::span<op_status> status, stream_view s) override;
  void find_batch(std::span<const key> keys, std::span<value> values_out,
                  std::span<op_status> status, stream_view s) override;
  void erase_batch(std::span<const key> keys, std::span<op_status> status, stream_view s) override;
  void apply_batch(const batch& ops, std::span<value> results, std::span<op_status> status,
                   stream_view s) override;
  std::uint64_t retrieve_pairs(std::span<key> keys, std::span<value> values,
                               stream_view s) override;

 private:
  template <class Hash>
  op_status insert_impl(key k, value v);
  template <class Hash>
  op_status insert_reusing(key k, value v);
  template <class Hash>
  op_status find_impl(key k, value& out) const;
  template <class Hash>
  op_status erase_impl(key k);
  /// Slot holding k within the probe bound, or -1 (stops at the first empty slot).
  template <class Hash>
  std::int64_t locate(key k) const;
  std::uint64_t walk_limit() const { return std::min(cfg_.capacity, k_walk_limit); }

  table_config cfg_;
  index mask_;
  std::vector<W> slots_;
  std::uint64_t occupied_ = 0;  // slots whose key is not empty (tombstones included)
  std::uint32_t max_displacement_ = 0;
  rejected_tally rejected_;
  std::uint64_t failed_full_ = 0;
  mutable model_mutex mutex_;  // a session's worker mutates while the UI thread inspects
};

/// @brief The model of 32-bit keys and values (8-byte slots).
using linear_model = basic_linear_model<slot_word>;
/// @brief The model of 64-bit keys and values (16-byte slots).
using wide_linear_model = basic_linear_model<wide_slot>;
extern template class basic_linear_model<slot_word>;
extern template class basic_linear_model<wide_slot>;

}  // namespace hs::linear
