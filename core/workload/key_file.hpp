// Key files: the class's own keys as a workload's key source. A file of one key per line
// (decimal, hex or text), a column of a CSV, or raw little-endian 32- or 64-bit words is read in
// chunks, never held whole, into the distinct valid keys in file order, for a table of 32- or
// 64-bit keys; what was skipped (duplicates, reserved keys, unreadable lines, numbers wider than
// the table's keys) is counted and the first few are named with their line. Text keys become keys
// through one named string hash of the width (k_string_hash, k_string_hash_64), and the report
// says how many distinct strings share a key with another.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/common/format.hpp"
#include "core/common/key_width.hpp"
#include "core/common/memory.hpp"
#include "core/common/stream.hpp"
#include "core/common/types.hpp"

namespace hs::workload {

enum class key_format : std::uint8_t {
  automatic,  ///< u32le for .u32 and .bin files, u64le for .u64; else decided by the first key:
              ///< hex, decimal, text
  decimal,
  hex,    ///< with or without 0x
  text,   ///< any UTF-8 string, through the width's string hash
  u32le,  ///< raw little-endian 32-bit words
  u64le,  ///< raw little-endian 64-bit words
};
/// @brief The bytes of a word of a raw format (0: a text format).
unsigned word_bytes(key_format f);
std::string_view to_string(key_format f);
std::optional<key_format> parse_key_format(std::string_view s);

/// @brief The string hash that makes text keys 32-bit keys, as the report and figures name it.
inline constexpr const char* k_string_hash = "FNV-1a 32-bit, modulo 2^32-2";
/// @brief A text key's 32-bit key (never a reserved key).
key_type text_key(std::string_view s);
/// @brief The string hash of 64-bit tables' text keys.
inline constexpr const char* k_string_hash_64 = "FNV-1a 64-bit, modulo 2^64-2";
/// @brief A text key's 64-bit key (never a reserved key).
wide_key text_key_64(std::string_view s);
/// @brief A text key of the key type K (text_key or text_key_64).
template <class K>
K text_key_as(std::string_view s) {
  if constexpr (std::is_same_v<K, wide_key>)
    return text_key_64(s);
  else
    return text_key(s);
}
/// @brief The string hash of a key width, as reports and figures name it.
inline const char* string_hash_name(key_width w) {
  constexpr const char* names[] = {k_string_hash, k_string_hash_64};
  return names[static_cast<unsigned>(w)];
}

/// @brief Keys typed by hand ("12, 44, 7", "0x1f", "ada bob") for a table of width `w`:
/// entries split at commas and spaces; one that begins with a digit is a decimal or 0x hex key,
/// any other a word through the width's string hash (k_string_hash, k_string_hash_64). Throws
/// hs::user_error naming the first entry that is neither, a reserved key, or a key wider than the
/// table holds (never truncated).
std::vector<std::uint64_t> parse_key_list(std::string_view text, key_width w = key_width::bits32);
/// @brief How a person wrote a key list: decimal when every entry is a decimal number, else hex
/// (0x keys, or words, whose keys are hashes).
key_radix radix_of_key_list(std::string_view text);

inline constexpr std::size_t k_max_line_bytes = 1u << 20;
inline constexpr std::size_t k_issues_kept = 5;

struct key_file_spec {
  std::string path;
  std::uint32_t column = 0;  ///< a CSV column, counted from 1; 0: the whole line
  key_format format = key_format::automatic;
  /// The table's key width: a key wider than it is unreadable (never truncated), words hash to it.
  key_width width = key_width::bits32;
};

/// @brief A line (or binary word) that gave no key.
struct key_file_issue {
  std::uint64_t line = 0;  ///< from 1; for raw words, the word's number
  std::string what;
};

struct key_file_report {
  key_format format = key_format::automatic;  ///< as read: never automatic
  std::uint64_t bytes = 0;
  key_width width = key_width::bits32;  ///< the width the keys were read for
  std::uint64_t records = 0;  ///< lines (raw formats: words), blank lines and a header included
  std::uint64_t keys = 0;     ///< distinct valid keys kept
  std::uint64_t duplicates = 0, reserved = 0, unreadable = 0, blank = 0;
  bool header = false;                  ///< a CSV's first row named its columns and was skipped
  std::uint64_t distinct_strings = 0;   ///< text: distinct strings among the valid lines
  std::uint64_t colliding_strings = 0;  ///< text: distinct strings whose key an earlier one has
  std::vector<key_file_issue> first_issues;  ///< the first k_issues_kept skipped records
  double seconds = 0;

  /// @brief One line: "1,000 keys (decimal) from 1,003 lines: 2 duplicates, 1 unreadable
  /// (line 7: ...)".
  std::string summary() const;
};

struct key_list {
  key_file_spec source;
  std::vector<key_type> keys;       ///< width 32: distinct, in file order, never reserved
  std::vector<wide_key> wide_keys;  ///< width 64: the same (keys stays empty)
  key_file_report report;

  std::uint64_t size() const { return keys.size() + wide_keys.size(); }
  /// @brief The keys in `space`: the host vector, or a device copy made on first use (uploaded on
  /// `s`, which is then synchronized, since other streams may read it next); null for the other
  /// width's list.
  const key_type* keys_in(memory_space space, stream_view s) const;
  const wide_key* wide_keys_in(memory_space space, stream_view s) const;

 private:
  mutable std::mutex device_mutex_;
  mutable buffer<key_type> device_;
  mutable buffer<wide_key> wide_device_;
};

/// @brief Called after each chunk read: bytes read so far and the file's size.
using load_progress = std::function<void(std::uint64_t done, std::uint64_t total)>;

/// @brief Reads a key file. Throws hs::user_error naming the file (and line) when it cannot be
/// read, is empty, is not UTF-8 text, has a line longer than k_max_line_bytes, is a file of raw
/// words whose size is not a multiple of a word, or gives no valid key; skipped records only count.
std::shared_ptr<const key_list> load_key_file(const key_file_spec& spec,
                                              const load_progress& progress = {});

}  // namespace hs::workload
