// The GPU tables' checks of a bulk call's arguments (CUDA builds only): the spans' sizes agree and
// every span is device memory, with the call's name in the message (keys of either width).
#pragma once
#include "core/common/device_args.hpp"
#include "core/table/table.hpp"

namespace hs::detail {

template <class K, class V>
void check_device_insert(std::span<const K> keys, std::span<const V> values,
                         std::span<op_status> status) {
  check_bulk("insert", keys.size(), values.size(), status.size());
  require_device("insert", keys);
  require_device("insert", values);
  require_device("insert", status);
}

template <class K, class V>
void check_device_find(std::span<const K> keys, std::span<V> values_out,
                       std::span<op_status> status) {
  check_bulk("find", keys.size(), values_out.size(), status.size());
  require_device("find", keys);
  require_device("find", values_out);
  require_device("find", status);
}

template <class K>
void check_device_erase(std::span<const K> keys, std::span<op_status> status) {
  check_bulk("erase", keys.size(), keys.size(), status.size());
  require_device("erase", keys);
  require_device("erase", status);
}

template <class K, class V>
void check_device_apply(const basic_op_batch<K, V>& ops, std::span<V> results,
                        std::span<op_status> status) {
  check_apply(ops, results.size(), status.size());
  require_device("apply", ops.kinds);
  require_device("apply", ops.keys);
  require_device("apply", ops.values);
  require_device("apply", results);
  require_device("apply", status);
}

}  // namespace hs::detail
