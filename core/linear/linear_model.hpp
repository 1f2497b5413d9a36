// The CPU reference model of the linear family: the same slot layout and hash as the GPU table,
// operations applied one at a time in order. It is the test oracle and the CPU backend.
#pragma once
#include <mutex>
#include <span>
#include <vector>

#include "core/linear/linear_layout.hpp"
#include "core/table/model_batches.hpp"
#include "core/table/table.hpp"

namespace hs::linear {

class linear_model final : public table {
 public:
  explicit linear_model(const table_config& cfg);

  table_config config() const override {
    std::lock_guard lock(mutex_);
    return cfg_;
  }
  void insert(std::span<const key_type> keys, std::span<const value_type> values,
              std::span<op_status> status, stream_view s) override;
  void find(std::span<const key_type> keys, std::span<value_type> values_out,
            std::span<op_status> status, stream_view s) override;
  void erase(std::span<const key_type> keys, std::span<op_status> status, stream_view s) override;
  void apply(const op_batch& ops, std::span<value_type> results, std::span<op_status> status,
             stream_view s) override;
  void clear(stream_view s) override;
  table_stats stats(stream_view s) override;
  void inspect(const inspect_request& req, inspect_result& out, stream_view s) override;
  std::uint64_t retrieve_all(std::span<key_type> keys, std::span<value_type> values,
                             stream_view s) override;
  void rehash(std::uint64_t capacity, stream_view s) override;
  table_state save_state(stream_view s) override;
  void restore_state(const table_state& st, stream_view s) override;

  /// @brief One operation with sequential semantics (what the GPU kernels must agree with). These
  /// are the rule alone: the batch calls count refused operations.
  op_status insert_one(key_type k, value_type v);
  op_status find_one(key_type k, value_type& out) const;
  op_status erase_one(key_type k);

  /// @brief Adopts a copy of another table's slots (same capacity), recomputing the counters, so
  /// that inspection of a GPU table's exact layout can be compared with the model's.
  void load_slots(std::span<const slot_word> slots);

  /// @brief The slots as stored (for checkers and tests; not synchronized with other callers).
  std::span<const slot_word> slots() const { return slots_; }
  std::uint32_t mask() const { return mask_; }

 private:
  template <class Hash>
  op_status insert_impl(key_type k, value_type v);
  template <class Hash>
  op_status insert_reusing(key_type k, value_type v);
  template <class Hash>
  op_status find_impl(key_type k, value_type& out) const;
  template <class Hash>
  op_status erase_impl(key_type k);
  /// Slot holding k within the probe bound, or -1 (stops at the first empty slot).
  template <class Hash>
  std::int64_t locate(key_type k) const;

  table_config cfg_;
  std::uint32_t mask_;
  std::vector<slot_word> slots_;
  std::uint64_t occupied_ = 0;  // slots whose key is not empty (tombstones included)
  std::uint32_t max_displacement_ = 0;
  rejected_tally rejected_;
  std::uint64_t failed_full_ = 0;
  mutable model_mutex mutex_;  // a session's worker mutates while the UI thread inspects
};

}  // namespace hs::linear
