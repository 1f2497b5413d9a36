// Keys, values, their reserved sentinels, and the operation kinds and statuses every table reports.
#pragma once
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "core/common/host_device.hpp"

namespace hs {

using key_type = std::uint32_t;
using value_type = std::uint32_t;

/// @brief Marks an empty key or an empty (erased) value. Reserved: never a user key or value.
inline constexpr key_type k_empty = 0xffffffffu;
/// @brief Marks a deleted key in tombstone mode. Reserved: never a user key.
inline constexpr key_type k_tombstone = 0xfffffffeu;
/// @brief Number of keys a user may store: every 32-bit value except the two sentinels.
inline constexpr std::uint64_t k_key_domain = 0xfffffffeull;

/// @brief True when a key collides with a sentinel and must be rejected.
HS_HD bool is_reserved_key(key_type k) { return k >= k_tombstone; }
/// @brief True when a value collides with the empty-value sentinel and must be rejected.
HS_HD bool is_reserved_value(value_type v) { return v == k_empty; }

/// @brief Keys and values of 64-bit tables (key_width.hpp: the width as one type).
using wide_key = std::uint64_t;
using wide_value = std::uint64_t;

/// @brief The reserved sentinels of a key or value type, at the top of its range: the empty key
/// (and empty value) is all ones, the tombstone one less. Code written once for both widths reads
/// them here; 32-bit code keeps the names above, which equal key_limits<key_type>'s.
template <class K>
struct key_limits {
  static_assert(std::is_same_v<K, std::uint32_t> || std::is_same_v<K, std::uint64_t>,
                "keys and values are 32 or 64 bits");
  static constexpr K empty = ~K{0};
  static constexpr K tombstone = static_cast<K>(~K{0} - 1);
  /// Number of keys a user may store: every value but the two sentinels.
  static constexpr std::uint64_t domain = std::uint64_t{tombstone};
  HS_HD static constexpr bool reserved_key(K k) { return k >= tombstone; }
  HS_HD static constexpr bool reserved_value(K v) { return v == empty; }
};
static_assert(key_limits<key_type>::empty == k_empty &&
              key_limits<key_type>::tombstone == k_tombstone &&
              key_limits<key_type>::domain == k_key_domain);

/// @brief The operation a mixed batch element performs.
enum class op_kind : std::uint8_t { insert = 0, find = 1, erase = 2 };
inline constexpr int k_op_kind_count = 3;

/// @brief Outcome of one operation; every bulk call can report one per element.
enum class op_status : std::uint8_t {
  none = 0,            ///< not written (the operation was not run)
  inserted = 1,        ///< a new key, or a key whose value had been erased, now holds the value
  replaced = 2,        ///< the key was live; its value was overwritten
  found = 3,           ///< lookup hit; the value was written to the output
  missing = 4,         ///< lookup or erase of a key that is not live
  erased = 5,          ///< the key was live and is now erased
  rejected_key = 6,    ///< the key is a reserved sentinel
  rejected_value = 7,  ///< the value is the reserved empty sentinel
  failed_full = 8,     ///< no free slot: the table is full
};
inline constexpr int k_op_status_count = 9;

std::string_view to_string(op_kind k);
std::string_view to_string(op_status s);
/// @brief A sentence a user can act on, for statuses that signal a problem (empty otherwise).
std::string_view explain(op_status s);

}  // namespace hs
