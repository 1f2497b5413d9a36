// The operands of a batch as every family's batch kernel reads them: device pointers, with outputs
// null where the caller did not ask for them. Each GPU table builds them from its call's spans
// here, once, and its kernels write outcomes and refusals through the same few functions; a
// family's own batch arguments (which operation, its extra outputs) derive from this.
#pragma once
#include <cstdint>
#include <span>

#include "core/common/types.hpp"
#include "core/table/table.hpp"

namespace hs {

struct batch_operands {
  const op_kind* kinds = nullptr;  ///< mixed batches only
  const key_type* keys = nullptr;
  const value_type* values = nullptr;
  value_type* results = nullptr;  ///< found values (k_empty when missing or not a lookup)
  op_status* status = nullptr;
  std::uint64_t n = 0;

  /// @brief Records operation i's outcome in the outputs that were asked for.
  HS_HD void put(std::uint64_t i, op_status st, value_type found) const {
    if (status) status[i] = st;
    if (results) results[i] = found;
  }

  static batch_operands insert(std::span<const key_type> keys, std::span<const value_type> values,
                               std::span<op_status> status) {
    return {nullptr, keys.data(), values.data(), nullptr, or_null(status), keys.size()};
  }
  static batch_operands find(std::span<const key_type> keys, std::span<value_type> values_out,
                             std::span<op_status> status) {
    return {nullptr, keys.data(), nullptr, values_out.data(), or_null(status), keys.size()};
  }
  static batch_operands erase(std::span<const key_type> keys, std::span<op_status> status) {
    return {nullptr, keys.data(), nullptr, nullptr, or_null(status), keys.size()};
  }
  /// @brief Keys alone, for operations whose outputs are a family's own (counts, value lists).
  static batch_operands keys_only(std::span<const key_type> keys) {
    return {nullptr, keys.data(), nullptr, nullptr, nullptr, keys.size()};
  }
  static batch_operands apply(const op_batch& ops, std::span<value_type> results,
                              std::span<op_status> status) {
    return {ops.kinds.data(), ops.keys.data(), ops.values.data(),
            or_null(results), or_null(status), ops.keys.size()};
  }

 private:
  template <class T>
  static T* or_null(std::span<T> s) {
    return s.empty() ? nullptr : s.data();
  }
};

/// @brief Why a batch kernel refuses an operation: a reserved key, or a reserved value given to an
/// insert; op_status::none when it runs.
HS_HD op_status refusal(key_type k, bool inserting, value_type v) {
  if (is_reserved_key(k)) return op_status::rejected_key;
  return inserting && is_reserved_value(v) ? op_status::rejected_value : op_status::none;
}

}  // namespace hs
