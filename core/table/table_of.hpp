// table_of<K, V>: a table of one key width, the adapter every family's tables and models derive
// from. It implements the seam's batch calls of both widths, runs those of its own through one set
// of functions written for its key and value types (insert_batch, ...), and refuses the others
// with what it holds; so no family repeats the seam's list of batch calls.
#pragma once
#include <cstdint>
#include <span>
#include <type_traits>

#include "core/table/table.hpp"

namespace hs {

template <class K, class V>
class table_of : public table {
  static constexpr bool narrow = std::is_same_v<K, key_type>;
  static constexpr key_width held = width_of<K>;
  static_assert(std::is_same_v<V, std::conditional_t<narrow, value_type, wide_value>>,
                "keys and values have one width");

 public:
  using key = K;
  using value = V;
  using batch = basic_op_batch<K, V>;

  void insert(std::span<const key_type> keys, std::span<const value_type> values,
              std::span<op_status> status, stream_view s) final {
    if constexpr (narrow)
      insert_batch(keys, values, status, s);
    else
      detail::refuse_width("insert", key_width::bits32, held);
  }
  void find(std::span<const key_type> keys, std::span<value_type> values_out,
            std::span<op_status> status, stream_view s) final {
    if constexpr (narrow)
      find_batch(keys, values_out, status, s);
    else
      detail::refuse_width("find", key_width::bits32, held);
  }
  void erase(std::span<const key_type> keys, std::span<op_status> status, stream_view s) final {
    if constexpr (narrow)
      erase_batch(keys, status, s);
    else
      detail::refuse_width("erase", key_width::bits32, held);
  }
  void apply(const op_batch& ops, std::span<value_type> results, std::span<op_status> status,
             stream_view s) final {
    if constexpr (narrow)
      apply_batch(ops, results, status, s);
    else
      detail::refuse_width("apply", key_width::bits32, held);
  }
  std::uint64_t retrieve_all(std::span<key_type> keys, std::span<value_type> values,
                             stream_view s) final {
    if constexpr (narrow)
      return retrieve_pairs(keys, values, s);
    else
      detail::refuse_width("retrieve_all", key_width::bits32, held);
  }

  void insert(std::span<const wide_key> keys, std::span<const wide_value> values,
              std::span<op_status> status, stream_view s) final {
    if constexpr (!narrow)
      insert_batch(keys, values, status, s);
    else
      detail::refuse_width("insert", key_width::bits64, held);
  }
  void find(std::span<const wide_key> keys, std::span<wide_value> values_out,
            std::span<op_status> status, stream_view s) final {
    if constexpr (!narrow)
      find_batch(keys, values_out, status, s);
    else
      detail::refuse_width("find", key_width::bits64, held);
  }
  void erase(std::span<const wide_key> keys, std::span<op_status> status, stream_view s) final {
    if constexpr (!narrow)
      erase_batch(keys, status, s);
    else
      detail::refuse_width("erase", key_width::bits64, held);
  }
  void apply(const wide_op_batch& ops, std::span<wide_value> results, std::span<op_status> status,
             stream_view s) final {
    if constexpr (!narrow)
      apply_batch(ops, results, status, s);
    else
      detail::refuse_width("apply", key_width::bits64, held);
  }
  std::uint64_t retrieve_all(std::span<wide_key> keys, std::span<wide_value> values,
                             stream_view s) final {
    if constexpr (!narrow)
      return retrieve_pairs(keys, values, s);
    else
      detail::refuse_width("retrieve_all", key_width::bits64, held);
  }

 protected:
  // The batch calls of the table's own width, as table.hpp describes them.
  virtual void insert_batch(std::span<const K> keys, std::span<const V> values,
                            std::span<op_status> status, stream_view s) = 0;
  virtual void find_batch(std::span<const K> keys, std::span<V> values_out,
                          std::span<op_status> status, stream_view s) = 0;
  virtual void erase_batch(std::span<const K> keys, std::span<op_status> status, stream_view s) = 0;
  virtual void apply_batch(const batch& ops, std::span<V> results, std::span<op_status> status,
                           stream_view s) = 0;
  virtual std::uint64_t retrieve_pairs(std::span<K> keys, std::span<V> values, stream_view s) = 0;
};

}  // namespace hs
