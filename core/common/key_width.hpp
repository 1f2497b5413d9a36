// The width of a table's keys and values, 32 or 64 bits, as one type. The command line, scenario
// lines, the Table control, compare entries and the key-file reader parse and print it here, and
// code that needs the key types of a width gets them through with_key_width: the few places that
// do are the seams named in core/table/README.md (tests/docs/width_branches.py counts them).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/common/host_device.hpp"
#include "core/common/types.hpp"

namespace hs {

enum class key_width : std::uint8_t { bits32 = 0, bits64 = 1 };

/// @brief Every width, narrowest first, as a user writes them.
inline constexpr std::string_view k_key_width_names[] = {"32", "64"};
inline constexpr std::string_view k_key_width_choices = "32 or 64";

/// @brief 32 or 64.
HS_HD constexpr unsigned bits_of(key_width w) { return 32u << static_cast<unsigned>(w); }
/// @brief Whether keys of width `a` are narrower than those of `b` (every key of `a` fits `b`).
HS_HD constexpr bool narrower(key_width a, key_width b) { return bits_of(a) < bits_of(b); }
/// @brief "32" or "64".
std::string_view to_string(key_width w);
/// @brief The width a user wrote ("32", "64"), or nothing.
std::optional<key_width> parse_key_width(std::string_view s);
/// @brief The width a user wrote; throws hs::user_error "'48' is not 32 or 64".
key_width key_width_from(std::string_view s);

/// @brief The empty key of the width (all ones); the tombstone is one less.
HS_HD constexpr std::uint64_t empty_key_of(key_width w) { return ~0ull >> (64 - bits_of(w)); }
/// @brief Whether `key` is reserved in a table of width `w`, or, for 32 bits, wider than it
/// (callers that say why check the width first with fits_width).
HS_HD constexpr bool is_reserved_key_of(std::uint64_t key, key_width w) {
  return key >= empty_key_of(w) - 1;
}
/// @brief Whether `key` has no bits above the width.
HS_HD constexpr bool fits_width(std::uint64_t key, key_width w) { return key <= empty_key_of(w); }

/// @brief Largest capacity of a table of width `w` (the GPU tables also check free memory):
/// 2^32 slots for 32-bit keys (a larger table could never be more than a quarter full), 2^40 for
/// 64-bit ones (16 TiB of slots: memory is the limit).
constexpr unsigned max_capacity_log2(key_width w) { return 32 + 8 * static_cast<unsigned>(w); }
constexpr std::uint64_t max_capacity(key_width w = key_width::bits32) {
  return std::uint64_t{1} << max_capacity_log2(w);
}

/// @brief The width of a key type (key_type or wide_key).
template <class K>
inline constexpr key_width width_of = [] {
  static_assert(std::is_same_v<K, key_type> || std::is_same_v<K, wide_key>,
                "keys are 32 or 64 bits");
  return std::is_same_v<K, wide_key> ? key_width::bits64 : key_width::bits32;
}();
/// @brief The value type that goes with a key type.
template <class K>
using value_of_key = std::conditional_t<std::is_same_v<K, wide_key>, wide_value, value_type>;

/// @brief Calls f(K{}) with the key type of `w` (key_type or wide_key): the one way from a width
/// chosen at run time to code written for its types.
template <class F>
decltype(auto) with_key_width(key_width w, F&& f) {
  if (w == key_width::bits64) return f(wide_key{});
  return f(key_type{});
}

}  // namespace hs
