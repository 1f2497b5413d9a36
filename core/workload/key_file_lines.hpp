// The lines of a key file, parsed a chunk at a time so chunks can be parsed on several threads:
// how every line is read (line_rules, decided from the file's first key before any chunk is
// parsed) and what one chunk of whole lines gave (chunk_result: its keys in file order, its
// counts, its first issues and the first line that stops the read, numbered within the chunk).
// key_file.cpp puts the chunks back in file order.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/key_width.hpp"
#include "core/workload/key_file.hpp"

namespace hs::workload::detail {

/// @brief How each line becomes a key: the format (never automatic), the CSV column (0: the whole
/// line), and the byte offset of a CSV header row (its first non-blank field was no number).
struct line_rules {
  key_format format = key_format::decimal;
  std::uint32_t column = 0;
  std::optional<std::uint64_t> header_at;
};

/// @brief The rules from the file's first line with a non-empty field (`first_chunk`: the file
/// from its start, as far as read; `spec.format` automatic decides by that field).
line_rules decide_rules(const key_file_spec& spec, std::string_view first_chunk);

struct chunk_result {
  std::vector<key_type> keys;                ///< valid keys, in file order, duplicates kept
  std::vector<wide_key> wide_keys;           ///< the same for 64-bit keys (keys stays empty)
  std::vector<std::uint64_t> text_hashes;    ///< text: a 64-bit hash of each valid line
  std::vector<std::uint64_t> text_hashes_2;  ///< text, 64-bit keys: a second, other 64-bit hash
  std::uint64_t lines = 0, reserved = 0, unreadable = 0, blank = 0;
  std::vector<key_file_issue> issues;   ///< the first k_issues_kept, line within the chunk
  std::optional<key_file_issue> error;  ///< the line that stops the read, what after "file:N"
  /// @brief Empty again, its vectors' memory kept for the next chunk.
  void reset() {
    keys.clear();
    wide_keys.clear();
    text_hashes.clear();
    text_hashes_2.clear();
    lines = reserved = unreadable = blank = 0;
    issues.clear();
    error.reset();
  }
};

/// @brief Whether `s` begins with 0x or 0X (and has digits after it).
bool is_hex_prefixed(std::string_view s);
/// @brief FNV-1a of 64 bits: the 64-bit string hash, and (for 32-bit keys) what tells distinct
/// strings apart.
std::uint64_t fnv1a64(std::string_view s);
/// @brief Which keys a chunk holds for the reader's key type.
template <class K>
std::vector<K>& keys_of(chunk_result& c) {
  if constexpr (sizeof(K) == 8)
    return c.wide_keys;
  else
    return c.keys;
}

/// @brief A number in `base` (16 takes an optional 0x) filling `s` that fits the width `w`: why
/// not, or empty.
std::string parse_number(std::string_view s, int base, std::uint64_t& out,
                         key_width w = key_width::bits32);

/// @brief Parses `text` (whole lines; the last may lack its newline) starting at byte `offset`
/// of the file, by `rules`, into `out`, as keys of type K: wider numbers are unreadable, words
/// hash to K. Stops at the first line that stops the read.
template <class K>
void parse_chunk(const line_rules& rules, std::string_view text, std::uint64_t offset,
                 chunk_result& out);

}  // namespace hs::workload::detail
